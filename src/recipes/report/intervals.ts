/**
 * Intervals in the report's charts (issue 27): whiskers on bars and shaded bands on curves, drawn from a row's
 * `low`/`high` fields, so every family draws a figure's 95% interval the same way. A family puts an Interval's
 * bounds into its chart rows with {@link ivFields} and layers {@link whiskers} or {@link band} under its marks.
 */
import type { Interval } from '../../stats/index.ts';
import type { HeadlineMetrics, LoadedRun } from './types.ts';

/** The bounds of an interval as chart row fields (nothing when there is no interval or it has no bounds). */
export function ivFields(iv: Interval | undefined): { low?: number; high?: number; n?: number } {
  return iv && iv.low !== null && iv.high !== null ? { low: iv.low, high: iv.high, n: iv.n } : {};
}

/** Whether some row carries bounds (then the chart layers its whiskers or band). */
export const hasBounds = (rows: readonly Record<string, unknown>[]): boolean => rows.some((r) => typeof r.low === 'number');

/**
 * A vega-lite layer drawing each row's interval as a whisker (a vertical rule low→high with caps) at the bar's
 * x (and xOffset, for grouped bars). `x` and `xOffset` are the bar layer's own encodings.
 */
export function whiskers(x: Record<string, unknown>, xOffset?: Record<string, unknown>): Record<string, unknown> {
  return {
    mark: { type: 'errorbar', ticks: { width: 6 }, color: '#0f172a', thickness: 1.2 },
    encoding: {
      x,
      ...(xOffset ? { xOffset } : {}),
      y: { field: 'low', type: 'quantitative' },
      y2: { field: 'high' },
      tooltip: [
        { field: 'low', type: 'quantitative', format: '.1%', title: '95% low' },
        { field: 'high', type: 'quantitative', format: '.1%', title: '95% high' },
        { field: 'n', type: 'quantitative', title: 'n' },
      ],
    },
  };
}

/** A vega-lite layer shading each series' interval band low→high along a curve (same x and colour as the line). */
export function band(x: Record<string, unknown>, color: Record<string, unknown>): Record<string, unknown> {
  return {
    mark: { type: 'errorband', opacity: 0.16 },
    encoding: { x, y: { field: 'low', type: 'quantitative', title: null }, y2: { field: 'high' }, color: { ...color, legend: null } },
  };
}

/** The intervals of a run's four headline figures (the card's tiles), from summary.json; absent in older runs. */
export function headlineIntervals(run: Pick<LoadedRun, 'summary'> & { headline: HeadlineMetrics }): {
  clean?: Interval;
  attacked?: Interval;
  attack_success_rate?: Interval;
  stability?: Interval;
} {
  const iv = run.summary.intervals;
  if (!iv) return {};
  return {
    ...(iv.clean_metric ? { clean: iv.clean_metric } : {}),
    ...(iv.attacked_metric ? { attacked: iv.attacked_metric } : {}),
    ...(iv.attack_success_rate ? { attack_success_rate: iv.attack_success_rate } : {}),
    ...(iv.stability ? { stability: iv.stability } : {}),
  };
}
