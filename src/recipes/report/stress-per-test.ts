/** Charts and tables every stress family can use: accuracy per test against the original, per run. */
import type { TopLevelSpec } from 'vega-lite';
import type { StressSummary } from '../../metrics/stress-summary.ts';
import { NA, pct } from '../../util/format.ts';
import type { ChartSpec, ReportTable, StressRun } from './types.ts';

/** "(12.3%)" for a reduction, "(−4.0%)" for a gain, "" when n/a. */
export function reductionText(r: number | null): string {
  if (r === null) return '';
  return `(${r < 0 ? '−' : ''}${Math.abs(100 * r).toFixed(1)}%)`;
}

/** "55.0% (12.3%)": accuracy and, in brackets, the reduction from the original; "n/a" over zero cases. */
export function accuracyWithReduction(accuracy: number | null, reduction: number | null): string {
  return accuracy === null ? NA : `${pct(accuracy)}${reduction === null ? '' : ` ${reductionText(reduction)}`}`;
}

/** A run's label in a multi-run chart. */
const runOf = (r: StressRun, many: boolean): string => (many ? (r.group === r.name ? r.name : `${r.group}/${r.name}`) : r.summary.model);

/**
 * Bars of accuracy per test (one series per run), a tick at the original accuracy on the same examples, and the
 * reduction written over each bar. `label` names a test as the chart shows it.
 */
export function accuracyPerTestChart(
  runs: readonly StressRun[],
  label: (test: string) => string = (t) => t,
  tests?: readonly string[],
): ChartSpec {
  const many = runs.length > 1;
  const values = runs.flatMap((r) =>
    Object.entries(r.summary.tests)
      .filter(([test, t]) => t.n > 0 && (!tests || tests.includes(test)))
      .map(([test, t]) => ({
        test: label(test),
        run: runOf(r, many),
        accuracy: t.accuracy,
        original: t.original_accuracy,
        text: reductionText(t.reduction),
      })),
  );
  const x = {
    field: 'test',
    type: 'nominal' as const,
    title: null,
    sort: [...new Set(values.map((v) => v.test))],
    axis: { labelAngle: -30, labelLimit: 140 },
  };
  const y = (field: string) => ({
    field,
    type: 'quantitative' as const,
    title: 'accuracy',
    axis: { format: '.0%' },
    scale: { domain: [0, 1] },
  });
  const offset = many ? { xOffset: { field: 'run' } } : {};
  // The layers share x (one sort for all, or vega-lite warns that the domains to union sort differently).
  const spec: TopLevelSpec = {
    data: { values },
    encoding: { x, ...offset },
    layer: [
      {
        mark: { type: 'bar', cornerRadiusEnd: 2 },
        encoding: { y: y('accuracy'), color: { field: 'run', type: 'nominal', title: null, legend: many ? {} : null } },
      },
      { mark: { type: 'tick', color: '#0f172a', thickness: 2 }, encoding: { y: y('original') } },
      { mark: { type: 'text', dy: -6, fontSize: 10, color: '#b91c1c' }, encoding: { y: y('accuracy'), text: { field: 'text' } } },
    ],
  };
  return {
    title: 'Accuracy per test',
    caption:
      'Bars: accuracy on each test’s cases. Black tick: the original accuracy on the same examples. Red: the reduction from it (negative = gained).',
    spec,
  };
}

/** One row per test: cases, accuracy (reduction), the original on the same examples, examples not applicable. */
export function stressTestsTable(s: StressSummary, label: (test: string) => string = (t) => t): ReportTable {
  const rows = [['original', String(s.original.n), pct(s.original.accuracy), '', '']];
  for (const [test, t] of Object.entries(s.tests)) {
    rows.push([
      label(test),
      String(t.n),
      accuracyWithReduction(t.accuracy, t.reduction),
      pct(t.original_accuracy),
      String(t.not_applicable),
    ]);
  }
  return {
    title: `Accuracy per test — ${s.model} on ${s.dataset}`,
    head: ['test', 'cases', 'accuracy (reduction)', 'original, same examples', 'not applicable'],
    rows,
    caption: 'Reduction: the share of the original accuracy on the same examples that is lost (negative = gained).',
  };
}
