/** One model's figures across its runs over time, for `textstress view`'s history chart. */
import type { MetricUnit } from '../../metrics/display.ts';
import { renderChart } from '../html/charts.ts';
import type { CatalogEntry, CatalogMetric } from './catalog.ts';

export interface HistoryPoint {
  id: string;
  path: string;
  recipe: string;
  date: string;
  value: number;
  low: number | null;
  high: number | null;
  n: number | null;
  label: string;
  unit: MetricUnit;
  text: CatalogMetric['text'];
  /** The settings in which this run differs from others of the chart ("k: 3"), so that its points do not read alike. */
  differs: string;
}

/** The runs of `model` that report `metric`, oldest first (one series per recipe and differing settings: their figures are not comparable). */
export function historyOf(runs: readonly CatalogEntry[], model: string, metric: string): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const r of runs) {
    if (r.model !== model) continue;
    const m = r.metrics.find((x) => x.name === metric);
    if (!m || m.value === null) continue;
    const { value, low, high, n, label, unit, text } = m;
    points.push({ id: r.id, path: r.path, recipe: r.recipe, date: r.date, value, low, high, n, label, unit, text, differs: '' });
  }
  // The settings whose value is not the same in every run of the chart (of the same recipe).
  const settingsOf = new Map(runs.map((r) => [r.id, r.settings]));
  for (const p of points) {
    const mine = settingsOf.get(p.id) ?? [];
    const peers = points.filter((q) => q.recipe === p.recipe).map((q) => settingsOf.get(q.id) ?? []);
    p.differs = mine
      .filter((x) => peers.some((other) => other.find((y) => y.key === x.key)?.value !== x.value))
      .map((x) => `${x.label}: ${x.value}`)
      .join(' · ');
  }
  return points.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}

/**
 * The chart: each run a point with its 95% interval as a whisker, runs of one recipe and settings joined by a line; the y axis
 * named by the figure's label and written in its unit (shares in %).
 */
export async function historyChart(points: readonly HistoryPoint[], title = points[0]?.label ?? ''): Promise<string> {
  // One series per recipe and settings: runs with other settings are not the same measurement over time.
  const values = points.map((p) => ({
    ...p,
    low: p.low ?? p.value,
    high: p.high ?? p.value,
    series: p.differs ? `${p.recipe} (${p.differs})` : p.recipe,
  }));
  const unit = points[0]?.unit;
  const axis = unit === 'rate' ? { format: '.0%' } : unit === 'count' || unit === 'index' ? { format: ',d' } : {};
  const x = {
    field: 'date',
    type: 'temporal',
    title: 'run finished (UTC)',
    axis: { format: '%b %d %H:%M', labelAngle: -30, tickCount: 6 },
  } as const;
  const color = {
    field: 'series',
    type: 'nominal',
    title: 'recipe (settings that differ)',
    legend: { labelLimit: 360, titleLimit: 360 },
  } as const;
  return renderChart({
    title,
    spec: {
      width: 640,
      height: 240,
      data: { values },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 2, opacity: 0.6 },
          encoding: { x, y: { field: 'low', type: 'quantitative', title, axis }, y2: { field: 'high' }, color },
        },
        {
          mark: { type: 'line', point: { size: 50, filled: true } },
          encoding: { x, y: { field: 'value', type: 'quantitative', title, axis }, color },
        },
      ],
    },
  });
}
