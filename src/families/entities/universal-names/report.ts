/**
 * The universal-names section of the report card: per run, the ranked names and the held-out transfer test as
 * tables, a chart of the held-out metric per name (top against random, the original as a rule) and the mean drops.
 * Contract with its runs: a generator summary with recipe "universal-names" and `details` as tables.ts declares.
 */
import type { TopLevelSpec } from 'vega-lite';
import { pct } from '../../../util/format.ts';
import { runLabel } from '../../../recipes/report/charts.ts';
import { generatedFamily } from '../../../recipes/report/generated.ts';
import type { ChartSpec, GeneratedRun, ReportTable } from '../../../recipes/report/types.ts';
import { detailsOf, METRIC_NAMES, points, pointsInterval, rankingRows, type UniversalNamesDetails } from './tables.ts';

const RANKED = 20;

function rankingTable(run: GeneratedRun, d: UniversalNamesDetails): ReportTable {
  return {
    title: `${runLabel(run)}: ranked ${d.type} names`,
    head: ['rank', 'name', 'posterior mean', 'α', 'β', 'evaluated', 'worse', 'better'],
    rows: rankingRows(d, RANKED),
    caption: `Posterior mean α / (α + β) of each name's net harm on the search split (${d.counts.search} examples); never-evaluated names rank last.`,
  };
}

function transferTable(run: GeneratedRun, d: UniversalNamesDetails): ReportTable {
  const t = d.transfer;
  return {
    title: `${runLabel(run)}: held-out transfer (${t.original.n} examples)`,
    head: ['name', 'group', METRIC_NAMES[t.metric], 'drop (pts)', 'worse', 'better'],
    rows: [
      ['(original)', '', pct(t.original.metric), '', '', ''],
      ...t.rows.map((r) => [r.name, r.group, pct(r.metric), points(r.drop), pct(r.worse_share), pct(r.better_share)]),
    ],
    caption:
      `Mean drop in points: top names ${points(t.top_mean_drop)}${pointsInterval(t.top_mean_drop_interval)}, random names ` +
      `${points(t.random_mean_drop)}${pointsInterval(t.random_mean_drop_interval)}` +
      `${t.top_mean_drop_interval ? ' (95% bootstrap intervals over the held-out examples)' : ''}.`,
  };
}

function transferChart(run: GeneratedRun, d: UniversalNamesDetails): ChartSpec {
  const t = d.transfer;
  const values = t.rows.map((r) => ({ name: r.name, group: r.group, value: r.metric }));
  const spec: TopLevelSpec = {
    layer: [
      {
        data: { values },
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'name', type: 'nominal', sort: null, title: null },
          x: { field: 'value', type: 'quantitative', title: METRIC_NAMES[t.metric], axis: { format: '%' } },
          color: { field: 'group', type: 'nominal', title: 'names', scale: { domain: ['top', 'random'] } },
        },
      },
      {
        data: { values: [{ original: t.original.metric }] },
        mark: { type: 'rule', strokeDash: [4, 3], strokeWidth: 2 },
        encoding: { x: { field: 'original', type: 'quantitative' } },
      },
    ],
  };
  return {
    title: `${runLabel(run)}: held-out ${METRIC_NAMES[t.metric]} per name`,
    caption: 'Every held-out mention replaced by the name; dashed line: the original examples.',
    spec,
  };
}

export const universalNamesFamily = generatedFamily({
  id: 'universal-names',
  title: 'Universal adversarial names',
  blurb:
    'Names that hurt the model everywhere (Balasubramanian et al. 2020, Algorithm 2): a Thompson-sampling search ' +
    'with a Beta posterior per name, then the top names against random ones on a held-out split.',
  details: (run) => detailsOf(run.summary),
  part: (run, d) =>
    d.transfer.original.n > 0
      ? { tables: [rankingTable(run, d), transferTable(run, d)], charts: [transferChart(run, d)] }
      : { tables: [rankingTable(run, d)], notes: ['A run without held-out examples (--holdout 0) has no transfer test.'] },
});
