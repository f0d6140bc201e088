/** One model's figures across its runs over time, for `textstress view`'s history chart. */
import { renderChart } from '../html/charts.ts';
import type { CatalogEntry } from './catalog.ts';

export interface HistoryPoint {
  id: string;
  path: string;
  recipe: string;
  date: string;
  value: number;
  low: number | null;
  high: number | null;
  n: number | null;
}

/** The runs of `model` that report `metric`, oldest first (one series per recipe: their figures are not comparable). */
export function historyOf(runs: readonly CatalogEntry[], model: string, metric: string): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const r of runs) {
    if (r.model !== model) continue;
    const m = r.metrics.find((x) => x.name === metric);
    if (!m || m.value === null) continue;
    points.push({ id: r.id, path: r.path, recipe: r.recipe, date: r.date, value: m.value, low: m.low, high: m.high, n: m.n });
  }
  return points.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}

/** The chart: each run a point with its 95% interval as a whisker, runs of one recipe joined by a line. */
export async function historyChart(points: readonly HistoryPoint[], metric: string, title = metric): Promise<string> {
  const values = points.map((p) => ({ ...p, low: p.low ?? p.value, high: p.high ?? p.value }));
  const x = {
    field: 'date',
    type: 'temporal',
    title: 'run finished (UTC)',
    axis: { format: '%b %d %H:%M', labelAngle: -30, tickCount: 6 },
  } as const;
  const color = { field: 'recipe', type: 'nominal', title: 'recipe' } as const;
  return renderChart({
    title,
    spec: {
      width: 640,
      height: 240,
      data: { values },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 2, opacity: 0.6 },
          encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color },
        },
        {
          mark: { type: 'line', point: { size: 50, filled: true } },
          encoding: { x, y: { field: 'value', type: 'quantitative', title }, color },
        },
      ],
    },
  });
}
