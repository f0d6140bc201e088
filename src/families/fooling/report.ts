/**
 * The fooling section of the report card: per run, S and F per epoch (Figure 2a/b of EFSG), the highest-scoring
 * fooling sentences, and the transfer table when `textstress fool-transfer` recorded one (Figure 4).
 * Contract with its runs: a generator summary with recipe "fooling", details as tables.ts declares, steps.jsonl stats.
 */
import type { TopLevelSpec } from 'vega-lite';
import { fixed, pct } from '../../util/format.ts';
import { runLabel } from '../../recipes/report/charts.ts';
import { generatedFamily } from '../../recipes/report/generated.ts';
import type { ChartSpec, GeneratedRun, ReportTable } from '../../recipes/report/types.ts';
import { detailsOf, transferThresholdText, type FoolingDetails } from './tables.ts';

/**
 * S and F per epoch as two panels over one epoch axis (issue 34: they shared one y axis, a model score beside a
 * share of sentences): S, a mean target-class score, with T_task (a score) as a dashed rule; F, a share, in %.
 */
function curveChart(run: GeneratedRun, d: FoolingDetails): ChartSpec {
  const epochs = run.steps.map((s, i) => ({ epoch: i + 1, s: s.mean_score ?? null, f: s.fooling_fraction ?? null }));
  const x = { field: 'epoch', type: 'quantitative', title: 'epoch', axis: { tickMinStep: 1, format: 'd' } } as const;
  const point = (color: string): { color: string } | false => (run.steps.length <= 30 ? { color } : false);
  const spec: TopLevelSpec = {
    data: { values: epochs },
    vconcat: [
      {
        height: 140,
        layer: [
          {
            mark: { type: 'line', point: point('#2563eb'), color: '#2563eb' },
            encoding: { x, y: { field: 's', type: 'quantitative', title: 'S: mean target score', scale: { domain: [0, 1] } } },
          },
          {
            data: { values: [{ t: d.threshold.value }] },
            mark: { type: 'rule', strokeDash: [4, 3], color: '#64748b' },
            encoding: { y: { field: 't', type: 'quantitative' } },
          },
        ],
      },
      {
        height: 140,
        mark: { type: 'line', point: point('#dc2626'), color: '#dc2626' },
        encoding: {
          x,
          y: { field: 'f', type: 'quantitative', title: 'F: fooling share', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
        },
      },
    ],
  };
  return {
    title: `${runLabel(run)}: S and F per epoch`,
    caption:
      `N = ${d.population}, L = ${d.length}, ${d.crossover ? 'crossover + mutation' : 'mutation only'}; target ` +
      `"${d.target.label}"; top: S, the population's mean target score, with T_task = ${fixed(d.threshold.value, 4)} dashed; ` +
      'bottom: F, the share of the population above T_task.' +
      (d.intervals
        ? ` Last epoch, 95% over its ${d.intervals.fooling_fraction.n} sentences: S ${fixed(d.intervals.fooling_mean_score.value, 4)} ` +
          `[${fixed(d.intervals.fooling_mean_score.low, 4)}, ${fixed(d.intervals.fooling_mean_score.high, 4)}], F ` +
          `${pct(d.intervals.fooling_fraction.value)} [${pct(d.intervals.fooling_fraction.low)}, ${pct(d.intervals.fooling_fraction.high)}].`
        : ''),
    spec,
  };
}

function samplesTable(run: GeneratedRun, d: FoolingDetails): ReportTable {
  return {
    title: `${runLabel(run)}: highest-scoring fooling sentences`,
    head: ['score', 'epoch', 'sentence'],
    // Five decimals: fooling scores crowd just under 1, where four would print them all alike.
    rows: d.samples.map((s) => [fixed(s.score, 5), String(s.step + 1), s.text]),
    caption:
      `P(${d.target.label}) for word sequences drawn from D_task (${d.vocabulary.types} word types); T_task ${fixed(d.threshold.value, 4)} ` +
      (d.threshold.source === 'given'
        ? '(given).'
        : `(${pct(d.threshold.share, 0)} of ${d.threshold.positives} positive training examples score above it).`) +
      (d.pair ? ` Pair mode: the ${d.pair.side} text evolves; x̂ = "${d.pair.fixed}".` : ''),
  };
}

function transferTable(run: GeneratedRun, d: FoolingDetails): ReportTable | undefined {
  const t = d.transfer;
  if (!t) return undefined;
  return {
    title: `${runLabel(run)}: transfer of ${t.sentences} fooling sentences`,
    head: ['model', 'T', 'S [95%]', 'M', 'F [95%]'],
    rows: t.rows.map((r) => [
      r.model,
      fixed(r.threshold, 4),
      fixed(r.mean_score, 4) +
        (r.mean_score_interval ? ` [${fixed(r.mean_score_interval.low, 4)}, ${fixed(r.mean_score_interval.high, 4)}]` : ''),
      String(r.fooling),
      pct(r.fooling_fraction) +
        (r.fooling_fraction_interval ? ` [${pct(r.fooling_fraction_interval.low)}, ${pct(r.fooling_fraction_interval.high)}]` : ''),
    ]),
    caption:
      `${transferThresholdText(t).replace(/^./, (c) => c.toUpperCase())}; the first row is the model that generated them. ` +
      'Intervals over the sentences: bootstrap for S, Wilson for F.',
  };
}

function transferChart(run: GeneratedRun, d: FoolingDetails): ChartSpec | undefined {
  const t = d.transfer;
  if (!t) return undefined;
  const values = t.rows.flatMap((r) => [
    { model: r.model, measure: 'S', value: r.mean_score },
    { model: r.model, measure: 'F', value: r.fooling_fraction },
  ]);
  const spec: TopLevelSpec = {
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'model', type: 'nominal', sort: null, title: null },
      x: { field: 'value', type: 'quantitative', title: 'S, F', scale: { domain: [0, 1] } },
      color: { field: 'measure', type: 'nominal', title: null },
      yOffset: { field: 'measure' },
    },
  };
  return { title: `${runLabel(run)}: S and F per model`, caption: 'The same sentences scored by every model.', spec };
}

export const foolingFamily = generatedFamily({
  id: 'fooling',
  title: 'Fooling sentences (EFSG)',
  blurb:
    'Nonsense word sequences the model puts in the target class with more confidence than most real examples (Di ' +
    "Giovanni & Brambilla, EFSG): an evolutionary search over the task's own words.",
  details: (run) => detailsOf(run.summary),
  part(run, d) {
    const table = transferTable(run, d);
    const chart = transferChart(run, d);
    return {
      charts: [curveChart(run, d), ...(chart ? [chart] : [])],
      tables: [samplesTable(run, d), ...(table ? [table] : [])],
      notes:
        (run.summary.metrics.fooling_sentences ?? 0) === 0
          ? [`No fooling sentence was found by ${runLabel(run)}: no generated sentence scored above T_task.`]
          : [],
    };
  },
});
