/** What a fooling run records (summary.json `details`, the step stats) and what the terminal prints. */
import type { GenerateSummaryView } from '../../attack/generate.ts';
import { fixed, pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';

/** One fooling sentence (a results.jsonl line, less its step, and the samples in the summary). */
export interface FoolingSample {
  text: string;
  score: number;
  step: number;
}

/** One model's scores of a set of fooling sentences (transfer.ts): S, M and F against its own T_task. */
export interface TransferRow {
  model: string;
  threshold: number;
  threshold_source: 'train' | 'given';
  /** Positive training examples scored for its T_task (null when given). */
  positives: number | null;
  n: number;
  /** S: mean target-class score (null over no sentences). */
  mean_score: number | null;
  /** M: sentences above the model's T_task. */
  fooling: number;
  /** F = M / n (null over no sentences). */
  fooling_fraction: number | null;
}

/** The transfer table: the source model first, then every other model. */
export interface TransferTable {
  source_model: string;
  sentences: number;
  train: string;
  target: string;
  rows: TransferRow[];
}

/** summary.json `details` of a fooling run. */
export interface FoolingDetails {
  target: { label: string; index: number };
  threshold: { value: number; share: number; source: 'train' | 'given'; positives: number | null; train: string };
  vocabulary: { types: number; tokens: number };
  population: number;
  length: number;
  epochs: number;
  crossover: boolean;
  pair: { fixed: string; side: 'first' | 'second'; id: string | null } | null;
  /** The highest-scoring distinct fooling sentences (at most 20). */
  samples: FoolingSample[];
  transfer?: TransferTable;
}

/** Summary metrics (gate thresholds may name them). */
export const FOOLING_METRICS = {
  fooling_fraction: "fooling: F, the share of the last epoch's population above T_task (fooling sentences / N)",
  fooling_mean_score: "fooling: S, the mean target-class score of the last epoch's population",
  fooling_max_score: 'fooling: the highest target-class score of any generated sentence',
  fooling_sentences: 'fooling: distinct fooling sentences generated over all epochs (the adversarial set)',
  fooling_threshold: 'fooling: T_task, the score that --threshold-share of the positive training examples exceed',
} as const;

export function detailsOf(summary: { details?: Record<string, unknown> }): FoolingDetails | undefined {
  const d = summary.details as FoolingDetails | undefined;
  return d && typeof d.threshold?.value === 'number' ? d : undefined;
}

/** Epochs shown in the terminal: the first, three between and the last. */
function shownEpochs(n: number): number[] {
  return [...new Set([0, Math.floor(n / 4), Math.floor(n / 2), Math.floor((3 * n) / 4), n - 1])].filter((i) => i >= 0 && i < n);
}

export function transferText(t: TransferTable): string {
  const rows = t.rows.map((r) => [
    r.model,
    fixed(r.threshold, 4),
    String(r.n),
    fixed(r.mean_score, 4),
    String(r.fooling),
    pct(r.fooling_fraction),
  ]);
  return (
    `Transfer of ${t.sentences} fooling sentences (target ${t.target}; each model's own T_task from ${t.train}):\n` +
    formatGrid(['model', 'T_task', 'n', 'S', 'M', 'F'], rows)
  );
}

export function foolingText(summary: GenerateSummaryView & { steps?: number }, steps: readonly Record<string, number>[] = []): string {
  const d = detailsOf(summary);
  const m = summary.metrics;
  if (!d) return JSON.stringify(m, null, 2);
  const lines = [
    `EFSG: ${d.population} sentences of ${d.length} words, ${d.epochs} epochs, ` +
      `${d.crossover ? 'crossover + mutation' : 'mutation only'}; target class "${d.target.label}".`,
    `T_task = ${fixed(d.threshold.value, 4)} ` +
      `(${d.threshold.source === 'given' ? 'given' : `${pct(d.threshold.share, 0)} of ${d.threshold.positives} positive training examples score above it`}); ` +
      `D_task: ${d.vocabulary.types} word types.`,
  ];
  if (d.pair) lines.push(`Pair mode: the ${d.pair.side} text evolves; x̂ = "${d.pair.fixed}"${d.pair.id ? ` (${d.pair.id})` : ''}.`);
  if (steps.length) {
    const rows = shownEpochs(steps.length).map((i) => [
      String(i + 1),
      fixed(steps[i]!.mean_score, 4),
      String(steps[i]!.fooling),
      pct(steps[i]!.fooling_fraction),
    ]);
    lines.push('', formatGrid(['epoch', 'S', 'M', 'F'], rows));
  }
  lines.push(
    '',
    `Final S ${fixed(m.fooling_mean_score, 4)}, F ${pct(m.fooling_fraction)}; ${m.fooling_sentences ?? 0} distinct ` +
      `fooling sentences; best score ${fixed(m.fooling_max_score, 4)}.`,
  );
  if (d.samples.length) lines.push('Top fooling sentences:', ...d.samples.slice(0, 5).map((s) => `  ${fixed(s.score, 4)}  ${s.text}`));
  if (d.transfer) lines.push('', transferText(d.transfer));
  return lines.join('\n');
}
