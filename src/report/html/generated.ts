/**
 * Generator runs in the report: they have no source examples, so instead of accuracy cards and the example
 * browser they get their own metrics, a chart of every per-step number, and a table of what they generated.
 * A family may draw its own charts (ReportFamily.generatedSection); the rest is generic.
 */
import type { TopLevelSpec } from 'vega-lite';
import { escapeHtml as esc } from './escape.ts';
import type { ChartSpec, GeneratedRun, ReportFamily, ReportSections, ReportTable, RunGroup } from './types.ts';
import { sectionFinder } from './families/index.ts';
import type { Interval } from '../../stats/index.ts';
import { ciHtml } from './intervals.ts';
import { formatMetric, metricLabel, metricUnit, type MetricDisplay } from '../../metrics/display.ts';

export { formatMetric, metricLabel };

export interface GeneratedSlot {
  family: ReportFamily;
  runs: GeneratedRun[];
  tables: ReportTable[];
  charts: ChartSpec[];
  notes: string[];
}

/** Groups generator runs by their recipe's section (or a generic one per recipe), with their charts. */
export function generatedSlots(groups: readonly RunGroup[], sections: ReportSections): GeneratedSlot[] {
  const slots: GeneratedSlot[] = [];
  const find = sectionFinder(sections, (f) => f.generatedSection !== undefined, genericGeneratorFamily);
  for (const run of groups.flatMap((g) => g.generated)) {
    const family = find(run.summary.recipe);
    let slot = slots.find((s) => s.family.id === family.id);
    if (!slot) slots.push((slot = { family, runs: [], tables: [], charts: [], notes: [] }));
    slot.runs.push(run);
  }
  for (const slot of slots) {
    const content = slot.family.generatedSection?.(slot.runs) ?? { charts: stepCharts(slot.runs), notes: [] };
    slot.tables = ('tables' in content ? content.tables : undefined) ?? [];
    slot.charts = content.charts;
    slot.notes = content.notes ?? [];
  }
  return slots;
}

function genericGeneratorFamily(recipe: string): ReportFamily {
  return {
    id: `gen-${recipe}`,
    title: `Generator “${recipe}”`,
    blurb: `Runs of the ${recipe} generator: its numbers per step and a sample of what it generated.`,
  };
}

/** One line chart per per-step number (steps on x, one line per run). */
export function stepCharts(runs: readonly GeneratedRun[]): ChartSpec[] {
  const keys = [...new Set(runs.flatMap((r) => r.steps.flatMap((s) => Object.keys(s))))].filter((k) => k !== 'step');
  return keys.map((key) => {
    const values = runs.flatMap((r) => r.steps.map((s) => ({ step: s.step, value: s[key], run: r.name })));
    const spec: TopLevelSpec = {
      data: { values },
      mark: { type: 'line', point: { size: 24 }, strokeWidth: 2 },
      encoding: {
        x: { field: 'step', type: 'quantitative', title: 'step', axis: { tickMinStep: 1, format: 'd' } },
        y: { field: 'value', type: 'quantitative', title: key },
        color: { field: 'run', type: 'nominal', title: 'run' },
      },
    };
    return { title: `${key} per step`, spec };
  });
}

const num = (x: unknown): string =>
  typeof x === 'number' ? (Number.isInteger(x) ? String(x) : x.toFixed(4)) : x === null ? 'n/a' : String(x);

/** The 95% interval a generator run wrote for one of its metrics (summary `intervals`, or `details.intervals`). */
function intervalOf(run: GeneratedRun, name: string): Interval | undefined {
  const summary = run.summary as unknown as { intervals?: Record<string, Interval>; details?: { intervals?: Record<string, Interval> } };
  const iv = summary.intervals?.[name] ?? summary.details?.intervals?.[name];
  return iv && typeof iv === 'object' && 'low' in iv ? iv : undefined;
}

/**
 * The generator's summary metrics as tiles, labelled and in their units as the recipe declares them (`metrics`);
 * the full description is the tile's tooltip. The grid wraps, so no tile is cut on a narrow card.
 */
export function generatedTiles(run: GeneratedRun, declared: Record<string, MetricDisplay> = {}): string {
  const tiles = Object.entries(run.summary.metrics).map(([k, v]) => {
    const d = declared[k];
    const title = d?.description ? ` title="${esc(d.description)}"` : '';
    const unit = metricUnit(k, v, d);
    const iv = intervalOf(run, k);
    // A plain number (a score 0–1) keeps three decimals in its interval: [0.893–0.921], not [0.9–0.9].
    const ci = !iv ? '' : unit === 'rate' || unit === 'points' ? ciHtml(iv, 'share') : ciHtml(iv, 'number', unit === 'number' ? 3 : 1);
    return `<div class="m"${title}><div class="v">${esc(formatMetric(v, unit))}</div><div class="l">${esc(metricLabel(k, d))}</div>${ci}</div>`;
  });
  return `<div class="metrics wrap">${tiles.join('')}</div>`;
}

/** The first records a run generated, one row each (values shortened). */
export function sampleTable(run: GeneratedRun, max = 10): string {
  const rows = run.sample.slice(0, max);
  if (!rows.length) return '';
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): string => {
    const s = typeof v === 'string' ? v : typeof v === 'number' ? num(v) : JSON.stringify(v);
    return esc(s.length > 160 ? `${s.slice(0, 159)}…` : s);
  };
  return (
    `<div class="scroll"><table class="runs"><thead><tr>${keys.map((k) => `<th>${esc(k)}</th>`).join('')}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${keys.map((k) => `<td>${cell(r[k])}</td>`).join('')}</tr>`).join('') +
    '</tbody></table></div>'
  );
}
