/**
 * The entity probe's report section: Table 3 per run, a chart of Original / Worst / Best per run, the metric by
 * the name's training frequency and subword count, and the names most often in the worst variant. Replaced names
 * are edits typed `entity:<TYPE>`, highlighted by the example browser like every edit.
 */
import type { TopLevelSpec } from 'vega-lite';
import { groupedBarsChart, runLabel } from '../../recipes/report/charts.ts';
import type { CardTile, ChartSpec, LoadedRun, ReportFamily, ReportTable } from '../../recipes/report/types.ts';
import { pct } from '../../util/format.ts';
import type { EntityDetails } from './table3.ts';
import { allExamplesTable, analysisTable, entityDetailsOf, table3, worstNamesTable } from './tables.ts';

const ROWS = ['Original', 'Worst', 'Best'] as const;

/** Grouped bars: Original, Worst and Best per run (the gap between the last two is what the names alone do). */
function worstBestChart(runs: readonly { label: string; d: EntityDetails }[]): ChartSpec {
  const values = runs.flatMap(({ label, d }) =>
    ROWS.map((measure, order) => ({
      run: label,
      measure,
      order,
      value: d.table3[measure.toLowerCase() as 'original' | 'worst' | 'best'].value,
    })),
  );
  return groupedBarsChart(
    'Worst vs best',
    'Per run, over the examples that mention the type: the metric on the originals, on D_worst and on D_best (Table 3).',
    values,
    ['#94a3b8', '#dc2626', '#16a34a'],
  );
}

/** Bars of the mean variant metric per bin (Figure 1 or 2), one colour per run. */
function binChart(
  title: string,
  caption: string,
  axis: string,
  rows: { run: string; bin: string; metric: number | null; order: number }[],
): ChartSpec {
  const spec: TopLevelSpec = {
    data: { values: rows.filter((r) => r.metric !== null) },
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      x: { field: 'bin', type: 'ordinal', title: axis, sort: { field: 'order' } },
      xOffset: { field: 'run' },
      y: { field: 'metric', type: 'quantitative', title: 'mean variant metric', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
      color: { field: 'run', type: 'nominal', title: null },
    },
  };
  return { title, caption, spec };
}

/** The report card section of `entities` runs. */
export const entitiesFamily: ReportFamily = {
  id: 'entities',
  title: 'Entity names',
  blurb:
    'Balasubramanian et al. (2020), “What’s in a Name?”: every mention of one entity type replaced by other names of that type, ' +
    'B times per example; the worst and best variant kept (Table 3: Original / Worst / Best, and the share of examples whose ' +
    'prediction never changed). Replaced names are highlighted in the example browser.',
  editTypeLabel: (t) => t.replace(/^entity:(.+)$/, '$1 name'),
  section(runs: LoadedRun[]) {
    const withDetails = runs.flatMap((r) => {
      const d = entityDetailsOf(r.summary);
      return d ? [{ run: r, label: runLabel(r), d }] : [];
    });
    const suffix = (label: string, t: ReportTable): ReportTable => (withDetails.length > 1 ? { ...t, title: `${t.title} — ${label}` } : t);
    const tables: ReportTable[] = withDetails.flatMap(({ label, d }) =>
      [
        table3(d),
        allExamplesTable(d),
        analysisTable(d, 'by_frequency'),
        analysisTable(d, 'by_subwords'),
        d.worst_names.length ? worstNamesTable(d) : undefined,
      ]
        .filter((t): t is ReportTable => t !== undefined)
        .map((t) => suffix(label, t)),
    );
    const charts: ChartSpec[] = withDetails.length ? [worstBestChart(withDetails)] : [];
    const freq = withDetails.flatMap(({ label, d }) => (d.by_frequency ?? []).map((b, order) => ({ run: label, ...b, order })));
    if (freq.length)
      charts.push(
        binChart(
          'Metric by training frequency',
          'Mean metric of the variants that used a name, by how often the name occurs in the training file (Figure 1).',
          'occurrences in training data',
          freq,
        ),
      );
    const pieces = withDetails.flatMap(({ label, d }) => (d.by_subwords ?? []).map((b, order) => ({ run: label, ...b, order })));
    if (pieces.length)
      charts.push(
        binChart(
          'Metric by subword tokens',
          'Mean metric of the variants that used a name, by how many pieces the model’s tokenizer makes of it (Figure 2).',
          'subword pieces',
          pieces,
        ),
      );
    // The headline card shows Table 3 (over D), as the terminal does: one number per name (issue 34). The attack
    // kind's figures over every example are Table 3's "all examples" rows, labelled as such.
    const head = withDetails[0];
    const notes = head
      ? [
          `The headline card is Table 3: over D, the ${head.d.probed} of ${head.d.n} examples that mention ${head.d.type} ` +
            `(each figure's n). Over all ${head.d.n} examples, counting an example with no mention with its own answer, ` +
            `the ${head.d.measure} is ${pct(head.d.all_examples.original.value)} original and ${pct(head.d.all_examples.worst.value)} ` +
            'worst (the "all examples" table: not the paper\'s Table 3).',
        ]
      : [];
    const card = (run: LoadedRun): CardTile[] | undefined => {
      const d = withDetails.find((x) => x.run === run)?.d;
      if (!d) return undefined;
      const t = d.table3;
      const m = d.measure === 'EM/F1' ? 'answer F1' : d.measure;
      return [
        { label: `original ${m} (Table 3)`, value: t.original.value, interval: t.original.interval },
        { label: `worst variant ${m}`, value: t.worst.value, interval: t.worst.interval },
        { label: `best variant ${m}`, value: t.best.value, interval: t.best.interval },
        { label: 'stability: no swap changed it', value: t.stability, interval: t.stability_interval, better: 'higher' },
      ];
    };
    return { charts, tables, notes, card, ...(runs[0] ? { headline: runs[0] } : {}) };
  },
};
