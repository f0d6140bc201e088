/**
 * The entity probe's tables, for the terminal and the report alike: Table 3 (Original / Worst / Best / Stability)
 * and the metric by the replacement name's training frequency and subword count (Figures 1 and 2, as tables).
 */
import type { RunSummary } from '../../metrics/summary.ts';
import { NA, pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';
import type { ReportTable } from '../../recipes/report/types.ts';
import type { Interval } from '../../stats/index.ts';
import type { BinRow, EntityDetails, Table3Row } from './table3.ts';

/** The details of an entity probe run, when its summary has them. */
export function entityDetailsOf(summary: { details?: Record<string, unknown> }): EntityDetails | undefined {
  const d = summary.details as EntityDetails | undefined;
  return d && typeof d === 'object' && 'table3' in d ? d : undefined;
}

/** A 95% interval compactly, in percent: "[64.7, 91.1]"; blank without bounds (n = 0, or a run from before intervals). */
function range(iv: Interval | undefined): string {
  return iv && iv.low !== null && iv.high !== null ? `[${(100 * iv.low).toFixed(1)}, ${(100 * iv.high).toFixed(1)}]` : '';
}

/** The head and the cells of one Table 3 row set: the measure (QA: EM and F1), each with its interval, and n. */
function shape(d: EntityDetails): { head: string[]; cells: (r: Table3Row) => string[] } {
  const qa = d.measure === 'EM/F1';
  return {
    head: ['', ...(qa ? ['EM', '95% interval', 'F1', '95% interval'] : [d.measure, '95% interval']), 'n'],
    cells: (r) => [...(qa ? [pct(r.em), range(r.em_interval)] : []), pct(r.value), range(r.interval), String(r.n ?? '')],
  };
}

/** Why examples were not probed, for captions. */
function notApplicable(d: EntityDetails): string {
  const why = Object.entries(d.not_applicable_reasons)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  return `${d.not_applicable} not applicable${d.not_applicable ? ` (${why})` : ''}`;
}

/** The paper's Table 3 for one run: over D, the examples that mention the type. */
export function table3(d: EntityDetails): ReportTable {
  const { head, cells } = shape(d);
  const blank = head.length - 4;
  const t = d.table3;
  // A summary written before Table 3 was over D has no n in it: its rows are over every example, and say so.
  const over =
    typeof t.n === 'number'
      ? `the ${d.probed} examples that mention ${d.type}`
      : `all ${d.n} examples (a run from before Table 3 was over D)`;
  return {
    title: `Table 3: ${d.type} names replaced, B = ${d.budget} (annotator: ${d.annotator}), over ${over}`,
    head,
    rows: [
      ['Original', ...cells(t.original)],
      ['Worst', ...cells(t.worst)],
      ['Best', ...cells(t.best)],
      ['Best − Worst', ...Array<string>(blank).fill(''), pct(t.gap), range(t.gap_interval), String(d.probed)],
      ['Stability', ...Array<string>(blank).fill(''), pct(t.stability), range(t.stability_interval), String(d.probed)],
    ],
    caption:
      `${d.probed} of ${d.n} examples probed (D), ${notApplicable(d)}. Every row is over D; stability is the share of D whose ` +
      `prediction never changed. Worst/Best per example: the lowest (highest) metric of its B variants, ties broken by the ` +
      `gold-class probability (the higher attack score), then the first drawn. 95% intervals: ${
        d.measure === 'accuracy' ? 'Wilson for the rows and stability' : 'seeded bootstrap over examples for the rows, Wilson for stability'
      }, paired bootstrap over examples for Best − Worst.`,
  };
}

/** Original / Worst / Best over every example of the run: not the paper's Table 3 (examples not probed count their own answer). */
export function allExamplesTable(d: EntityDetails): ReportTable | undefined {
  const all = d.all_examples;
  if (!all) return undefined;
  const { head, cells } = shape(d);
  return {
    title: `All ${all.n} examples (not the paper's Table 3)`,
    head,
    rows: [
      ['Original', ...cells(all.original)],
      ['Worst', ...cells(all.worst)],
      ['Best', ...cells(all.best)],
    ],
    caption:
      `The ${d.not_applicable} examples without a ${d.type} mention count with their own answer in all three rows, as in the ` +
      'whole d_worst / d_best files: `eval` on those files gives these rows. The gap shrinks with every such example.',
  };
}

const ANALYSES = {
  by_frequency: {
    title: 'Metric by the name’s frequency in the training data (Figure 1)',
    head: 'occurrences',
    caption: (d: EntityDetails) =>
      `Each name of each variant counts once, with its variant’s metric (per-example accuracy, sentence entity F1 or ` +
      `answer F1). Counts: whole words, case-insensitive, in ${d.train_data}.`,
  },
  by_subwords: {
    title: 'Metric by the name’s subword tokens (Figure 2)',
    head: 'pieces',
    caption: () => 'Pieces the model’s own tokenizer makes of the name; each name of each variant counts once, with its variant’s metric.',
  },
} as const;

/**
 * Figure 1 (by_frequency: the metric by how often the replacement name occurs in the training file) or Figure 2
 * (by_subwords: by the pieces the model's tokenizer makes of it) as a table; undefined when the run has no such analysis.
 */
export function analysisTable(d: EntityDetails, which: keyof typeof ANALYSES): ReportTable | undefined {
  const rows: BinRow[] | null = d[which];
  if (!rows) return undefined;
  const a = ANALYSES[which];
  return {
    title: a.title,
    head: [a.head, 'variant names', 'mean metric'],
    rows: rows.map((r) => [r.bin, String(r.n), r.metric === null ? NA : pct(r.metric)]),
    caption: a.caption(d),
  };
}

/** The names most often in an example's worst variant. */
export function worstNamesTable(d: EntityDetails, top = 10): ReportTable {
  return {
    title: 'Worst names',
    head: ['name', 'in worst variant', 'in best variant'],
    rows: d.worst_names.slice(0, top).map((w) => [w.name, String(w.worst), String(w.best)]),
    caption: 'Examples whose worst (best) variant holds the name.',
  };
}

function text(t: ReportTable): string {
  return `${t.title}\n${formatGrid(t.head, t.rows)}${t.caption ? `\n${t.caption}` : ''}`;
}

/** What the terminal shows for a finished entity probe. */
export function entitiesText(summary: RunSummary): string {
  const d = entityDetailsOf(summary);
  if (!d) return 'no entity probe details in the summary';
  const parts = [table3(d), allExamplesTable(d), analysisTable(d, 'by_frequency'), analysisTable(d, 'by_subwords')]
    .filter((t): t is ReportTable => t !== undefined)
    .map(text);
  if (d.worst_names.length) parts.push(text(worstNamesTable(d)));
  return parts.join('\n\n');
}
