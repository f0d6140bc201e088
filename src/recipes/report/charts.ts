/** Chart specs (vega-lite, rendered to SVG by the report) that several families share. */
import type { TopLevelSpec } from 'vega-lite';
import type { ChartSpec, LoadedRun } from './types.ts';
import { hasBounds, headlineIntervals, ivFields, whiskers } from './intervals.ts';

/** "test/run" when a run sits in a multi-run group, else its name. */
export function runLabel(r: { name: string; group: string }): string {
  return r.group === r.name ? r.name : `${r.group}/${r.name}`;
}

/** Sums edit_types_in_successes over runs, with each type's prefix ("typo:") stripped. */
export function editTypeCounts(runs: readonly LoadedRun[], prefix: string): { type: string; count: number; run: string }[] {
  const rows: { type: string; count: number; run: string }[] = [];
  for (const r of runs) {
    for (const [type, count] of Object.entries(r.summary.edit_types_in_successes ?? {})) {
      rows.push({ type: type.startsWith(prefix) ? type.slice(prefix.length) : type, count, run: runLabel(r) });
    }
  }
  return rows;
}

/** Horizontal bars of edit-type counts in successful attacks, stacked by a series field. */
export function editTypeChart(
  title: string,
  caption: string,
  rows: { type: string; count: number }[],
  series: string,
  seriesTitle: string,
  seriesOrder?: string[],
): ChartSpec {
  const spec: TopLevelSpec = {
    data: { values: rows },
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      y: { field: 'type', type: 'nominal', sort: '-x', title: null },
      x: { aggregate: 'sum', field: 'count', type: 'quantitative', title: 'edits in successful attacks' },
      color: { field: series, type: 'nominal', title: seriesTitle, ...(seriesOrder ? { scale: { domain: seriesOrder } } : {}) },
      ...(seriesOrder ? { order: { field: 'rank', type: 'quantitative' } } : {}),
    },
    height: { step: 18 },
  };
  return { title, caption, spec };
}

/** Grouped bars: clean vs under-attack metric per run (or per setting). */
export function cleanVsAttackedChart(
  title: string,
  caption: string,
  runs: readonly LoadedRun[],
  label: (r: LoadedRun) => string,
): ChartSpec {
  const values = runs.flatMap((r) => {
    const iv = headlineIntervals(r);
    return [
      { run: label(r), measure: `clean ${r.headline.metric}`, value: r.headline.clean, order: 0, ...ivFields(iv.clean) },
      { run: label(r), measure: `${r.headline.metric} under attack`, value: r.headline.attacked, order: 1, ...ivFields(iv.attacked) },
    ];
  });
  return groupedBarsChart(title, hasBounds(values) ? `${caption} Whiskers: 95% interval.` : caption, values, ['#94a3b8', '#dc2626']);
}

/**
 * Bars of fractions per run, one bar per measure side by side (in `order`), coloured by measure; rows with
 * `low`/`high` (see ivFields) get a whisker for their 95% interval.
 */
export function groupedBarsChart(
  title: string,
  caption: string,
  values: { run: string; measure: string; value: number | null; order: number; low?: number; high?: number; n?: number }[],
  colours: string[],
): ChartSpec {
  const runs = new Set(values.map((v) => v.run)).size;
  // Whole labels on up to three lines (issue 34: two runs' labels cut at 140 px read the same); each line is cut
  // only past 200 px, so long labels still differ where they differ.
  values = values.map((v) => ({ ...v, run: wrapLabel(v.run) }));
  const x = {
    field: 'run',
    type: 'nominal',
    title: null,
    axis: { labelAngle: runs > 4 ? -30 : 0, labelLimit: 200, labelExpr: "split(datum.label, '\\n')" },
  } as const;
  // op 'min': the whisker layer's domain is unioned with the bars', which allows no summed sort.
  const xOffset = { field: 'measure', sort: { field: 'order', op: 'min' } } as const;
  const bars = {
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      x,
      xOffset,
      y: { field: 'value', type: 'quantitative', title: null, axis: { format: '.0%' }, scale: { domain: [0, 1] } },
      color: { field: 'measure', type: 'nominal', title: null, sort: { field: 'order' }, scale: { range: colours } },
    },
  } as const;
  const spec = (hasBounds(values)
    ? { data: { values }, layer: [bars, whiskers(x, xOffset)] }
    : { data: { values }, ...bars }) as unknown as TopLevelSpec;
  return { title, caption, spec };
}

/**
 * A label broken into lines of about `width` characters at spaces, slashes or parentheses (joined by "\n", which the
 * axis splits into lines); at most `lines` lines, the last keeping the label's end (where run labels differ).
 */
export function wrapLabel(label: string, width = 22, lines = 3): string {
  const words = label.split(/(?<=[ /])|(?=\()/);
  const out: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && (line + w).trim().length > width) {
      out.push(line.trim());
      line = '';
    }
    line += w;
  }
  if (line.trim()) out.push(line.trim());
  if (out.length <= lines) return out.join('\n');
  // Too long: the first lines and the end, so the part that tells runs apart stays.
  return [
    ...out.slice(0, lines - 2),
    '…',
    out
      .slice(lines - 2)
      .join(' ')
      .slice(-width),
  ].join('\n');
}

/** A number from a run's settings, if present. */
export function settingNumber(r: LoadedRun, key: string): number | undefined {
  const v = r.summary.settings?.[key];
  return typeof v === 'number' ? v : undefined;
}

/** A string from a run's settings, if present. */
export function settingString(r: LoadedRun, key: string): string | undefined {
  const v = r.summary.settings?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** The axes of a query-budget curve (here and in `compare`): budget on a log scale, success rate, one colour a run. */
export const BUDGET_AXES = {
  x: { field: 'budget', type: 'quantitative', title: 'query budget per example (log scale)', scale: { type: 'log', nice: false } },
  y: { field: 'rate', type: 'quantitative', title: 'attack success rate', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
  color: { field: 'series', type: 'nominal', title: 'run', sort: { field: 'order' } },
} as const;

/**
 * Attack success against the per-example query budget (summary.json's success_by_budget), one step curve per run on
 * a log axis, with each point's 95% Wilson interval as a band; undefined when no run has a curve with an attacked
 * example (probes, runs written before issue 33).
 */
export function budgetCurveChart(runs: readonly LoadedRun[]): ChartSpec | undefined {
  const withCurve = runs.filter((r) => (r.summary.success_by_budget ?? []).some((p) => p.rate !== null));
  if (!withCurve.length) return undefined;
  const values = withCurve.flatMap((r, order) =>
    r.summary.success_by_budget!.map((p, i) => {
      const iv = ivFields(r.summary.intervals?.success_by_budget?.[i]);
      return {
        budget: p.budget,
        rate: p.rate,
        series: runLabel(r),
        order,
        ...(iv.low !== undefined ? { lo: iv.low, hi: iv.high } : {}),
      };
    }),
  );
  const banded = values.some((v) => 'lo' in v);
  const { x, y, color } = BUDGET_AXES;
  const line = {
    mark: { type: 'line', point: { size: 30 }, strokeWidth: 2, interpolate: 'step-after' },
    encoding: { x, y, color },
  } as const;
  const spec = (banded
    ? {
        data: { values },
        layer: [
          {
            mark: { type: 'errorband', opacity: 0.16, interpolate: 'step-after' },
            encoding: { x, y: { field: 'lo', type: 'quantitative', title: y.title }, y2: { field: 'hi' }, color },
          },
          line,
        ],
      }
    : { data: { values }, ...line }) as unknown as TopLevelSpec;
  const cut = withCurve.some((r) => r.summary.query_budget_exhausted);
  return {
    title: 'Attack success by query budget',
    caption:
      'Share of attacked examples whose attack succeeded within at most that many queries (distinct model inputs per ' +
      'example, the clean one included), up to each run’s own maximum.' +
      (cut ? ' Examples the run’s --max-queries stopped count as failed at every budget.' : '') +
      (banded ? ' Band: 95% interval (Wilson).' : ''),
    spec,
  };
}
