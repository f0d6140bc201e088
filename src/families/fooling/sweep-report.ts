/**
 * The fooling-sweep section of the report card: for a crossover sweep, S and F per epoch with one line per value
 * and a ±std band (EFSG Figure 2a/b); for the others, S and F at the last epoch against the value with ±std error
 * bars (Figures 2c/d, 3a/b, 3c/d); and the table of final mean ± std.
 */
import type { TopLevelSpec } from 'vega-lite';
import { fixed } from '../../util/format.ts';
import { runLabel } from '../../recipes/report/charts.ts';
import { generatedFamily } from '../../recipes/report/generated.ts';
import type { ChartSpec, GeneratedRun, ReportTable } from '../../recipes/report/types.ts';
import type { MeanStd, SweepDetails } from './sweep-stats.ts';

const MEASURES = [
  { key: 'S', title: 'S (mean target-class score)' },
  { key: 'F', title: 'F (share of the population fooling)' },
] as const;

const band = (m: MeanStd): { mean: number | null; lo: number | null; hi: number | null } => ({
  mean: m.mean,
  lo: m.mean === null ? null : m.mean - (m.std ?? 0),
  hi: m.mean === null ? null : m.mean + (m.std ?? 0),
});

function curveCharts(run: GeneratedRun, d: SweepDetails): ChartSpec[] {
  return MEASURES.map(({ key, title }) => {
    const values = d.rows.flatMap((r) => r.curve.map((c) => ({ value: r.value, epoch: c.epoch, ...band(c[key]) })));
    const color = { field: 'value', type: 'nominal' as const, title: d.vary };
    const spec: TopLevelSpec = {
      data: { values },
      layer: [
        {
          mark: { type: 'errorband', opacity: 0.2 },
          encoding: {
            x: { field: 'epoch', type: 'quantitative' },
            y: { field: 'lo', type: 'quantitative', title, scale: { domain: [0, 1] } },
            y2: { field: 'hi' },
            color,
          },
        },
        {
          mark: { type: 'line' },
          encoding: { x: { field: 'epoch', type: 'quantitative' }, y: { field: 'mean', type: 'quantitative' }, color },
        },
      ],
    };
    return {
      title: `${runLabel(run)}: ${key} per epoch by ${d.vary}`,
      caption: `Mean over seeds ${d.seeds.join(', ')}; band: ± one standard deviation.`,
      spec,
    };
  });
}

function finalCharts(run: GeneratedRun, d: SweepDetails): ChartSpec[] {
  const numeric = d.vary === 'population' || d.vary === 'length';
  return MEASURES.map(({ key, title }) => {
    const values = d.rows.map((r) => ({ value: numeric ? Number(r.value) : r.value, ...band(r.final[key]) }));
    const x = {
      field: 'value',
      type: numeric ? ('quantitative' as const) : ('nominal' as const),
      title: d.vary,
      ...(numeric ? {} : { sort: null }),
    };
    const spec: TopLevelSpec = {
      data: { values },
      layer: [
        {
          mark: { type: 'errorbar' },
          encoding: { x, y: { field: 'lo', type: 'quantitative', title, scale: { domain: [0, 1] } }, y2: { field: 'hi' } },
        },
        { mark: { type: numeric ? 'line' : 'point', point: true }, encoding: { x, y: { field: 'mean', type: 'quantitative' } } },
      ],
    };
    return {
      title: `${runLabel(run)}: final ${key} against ${d.vary}`,
      caption: `At the last epoch (${d.epochs}); mean over seeds ${d.seeds.join(', ')}, bars ± one standard deviation.`,
      spec,
    };
  });
}

const pm = (m: MeanStd, scale = 1, digits = 4): string =>
  m.mean === null ? 'n/a' : `${fixed(scale * m.mean, digits)} ± ${m.std === null ? 'n/a' : fixed(scale * m.std, digits)}`;

function table(run: GeneratedRun, d: SweepDetails): ReportTable {
  return {
    title: `${runLabel(run)}: S and F at the last epoch by ${d.vary}`,
    head: [d.vary, 'runs', 'S (mean ± std)', 'F % (mean ± std)'],
    rows: d.rows.map((r) => [r.value, String(r.runs), pm(r.final.S), pm(r.final.F, 100, 1)]),
    caption: `Seeds ${d.seeds.join(', ')}; ${d.epochs} epochs.`,
  };
}

export const sweepFamily = generatedFamily({
  id: 'fooling-sweep',
  title: 'Fooling sentences: curves and sweeps (EFSG)',
  blurb:
    "How EFSG's result depends on crossover, population, sentence length or the fixed sentence of a pair (Di " +
    'Giovanni & Brambilla, Figures 2–3): one fooling run per value and seed, mean ± std over the seeds.',
  details: (run) => {
    const d = run.summary.details as SweepDetails | undefined;
    return d?.rows ? d : undefined;
  },
  part: (run, d) => ({ tables: [table(run, d)], charts: d.vary === 'crossover' ? curveCharts(run, d) : finalCharts(run, d) }),
});
