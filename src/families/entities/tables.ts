/**
 * The entity probe's tables, for the terminal and the report alike: Table 3 (Original / Worst / Best / Stability)
 * and the metric by the replacement name's training frequency and subword count (Figures 1 and 2, as tables).
 */
import type { RunSummary } from '../../metrics/summary.ts';
import { NA, pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';
import type { ReportTable } from '../../recipes/report/types.ts';
import type { BinRow, EntityDetails, Table3Row } from './table3.ts';

/** The details of an entity probe run, when its summary has them. */
export function entityDetailsOf(summary: { details?: Record<string, unknown> }): EntityDetails | undefined {
  const d = summary.details as EntityDetails | undefined;
  return d && typeof d === 'object' && 'table3' in d ? d : undefined;
}

/** The paper's Table 3 for one run. */
export function table3(d: EntityDetails): ReportTable {
  const qa = d.measure === 'EM/F1';
  const head = ['', ...(qa ? ['EM', 'F1'] : [d.measure])];
  const cells = (r: Table3Row): string[] => (qa ? [pct(r.em), pct(r.value)] : [pct(r.value)]);
  return {
    title: `Table 3: ${d.type} names replaced, B = ${d.budget} (annotator: ${d.annotator})`,
    head,
    rows: [
      ['Original', ...cells(d.table3.original)],
      ['Worst', ...cells(d.table3.worst)],
      ['Best', ...cells(d.table3.best)],
      ['Stability', pct(d.table3.stability), ...(qa ? [''] : [])],
    ],
    caption:
      `${d.probed} of ${d.n} examples probed, ${d.not_applicable} not applicable` +
      (d.not_applicable
        ? ` (${Object.entries(d.not_applicable_reasons)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')})`
        : '') +
      '. Original/Worst/Best over all examples (those not probed count their own answer, as in d_worst/d_best); stability over the probed ones.',
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
  const parts = [table3(d), analysisTable(d, 'by_frequency'), analysisTable(d, 'by_subwords')]
    .filter((t): t is ReportTable => t !== undefined)
    .map(text);
  if (d.worst_names.length) parts.push(text(worstNamesTable(d)));
  return parts.join('\n\n');
}
