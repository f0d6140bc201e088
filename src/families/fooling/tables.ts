/** What a fooling run records (summary.json `details`, the step stats) and what the terminal prints. */
import type { GenerateSummaryView } from '../../core/generate.ts';
import type { Interval } from '../../stats/index.ts';
import { fixed, pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';

/** One fooling sentence (a results.jsonl line, less its step, and the samples in the summary). */
export interface FoolingSample {
  text: string;
  score: number;
  step: number;
}

/** One model's scores of a set of fooling sentences (transfer.ts): S, M and F against the T it is held to. */
export interface TransferRow {
  model: string;
  threshold: number;
  /**
   * source: the run's T_task, fixed for every model (the paper's choice, the default); given: a T passed to the run
   * or to fool-transfer; train: this model's own T_task from the training file (--per-model).
   */
  threshold_source: 'source' | 'train' | 'given';
  /** Positive training examples scored for its T_task (null unless computed for this model). */
  positives: number | null;
  n: number;
  /** S: mean target-class score (null over no sentences). */
  mean_score: number | null;
  /** M: sentences above the model's T_task. */
  fooling: number;
  /** F = M / n (null over no sentences). */
  fooling_fraction: number | null;
  /** 95% intervals over the sentences: S by a seeded bootstrap, F by Wilson (absent in older tables). */
  mean_score_interval?: Interval;
  fooling_fraction_interval?: Interval;
}

/** The transfer table: the source model first, then every other model. */
export interface TransferTable {
  source_model: string;
  sentences: number;
  train: string;
  target: string;
  /** fixed: one T for every model (the paper's choice); per-model: each model's own T_task (absent in older tables: per-model). */
  threshold_mode?: 'fixed' | 'per-model';
  /** The one T of fixed mode (null in per-model mode). */
  threshold?: number | null;
  rows: TransferRow[];
}

/** What the transfer table's T is, in words (terminal and report). */
export function transferThresholdText(t: TransferTable): string {
  if ((t.threshold_mode ?? 'per-model') === 'per-model') return `each model against its own T_task from ${t.train}`;
  const given = t.rows[0]?.threshold_source === 'given';
  return `one T = ${fixed(t.threshold ?? null, 4)} for every model (${given ? 'given' : "the source run's T_task"}), as in the paper`;
}

/** summary.json `details` of a fooling run. */
export interface FoolingDetails {
  target: { label: string; index: number };
  threshold: {
    value: number;
    share: number;
    source: 'train' | 'given';
    positives: number | null;
    train: string;
    /** Distribution-free 95% interval of T_task over the positives scored (order statistics); absent when given. */
    interval?: Interval;
  };
  vocabulary: { types: number; tokens: number };
  population: number;
  length: number;
  /** Where L came from: --length, x̂'s word count (pair mode, the paper's choice) or the default 9 (absent in older runs). */
  length_source?: 'given' | 'fixed-sentence' | 'default';
  epochs: number;
  crossover: boolean;
  pair: { fixed: string; side: 'first' | 'second'; id: string | null } | null;
  /** The highest-scoring distinct fooling sentences (at most 20). */
  samples: FoolingSample[];
  /**
   * 95% intervals of the metrics of the same names, over the last epoch's N sentences: F by Wilson, S by a seeded
   * bootstrap (absent in older runs). Here rather than in `metrics`, whose values a generator keeps numeric.
   */
  intervals?: { fooling_fraction: Interval; fooling_mean_score: Interval };
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
    fixed(r.mean_score, 4) +
      (r.mean_score_interval ? ` [${fixed(r.mean_score_interval.low, 4)}, ${fixed(r.mean_score_interval.high, 4)}]` : ''),
    String(r.fooling),
    pct(r.fooling_fraction) +
      (r.fooling_fraction_interval ? ` [${pct(r.fooling_fraction_interval.low)}, ${pct(r.fooling_fraction_interval.high)}]` : ''),
  ]);
  return (
    `Transfer of ${t.sentences} fooling sentences (target ${t.target}; ${transferThresholdText(t)}; 95% intervals over the sentences):\n` +
    formatGrid(['model', 'T', 'n', 'S', 'M', 'F'], rows)
  );
}

export function foolingText(summary: GenerateSummaryView & { steps?: number }, steps: readonly Record<string, number>[] = []): string {
  const d = detailsOf(summary);
  const m = summary.metrics;
  if (!d) return JSON.stringify(m, null, 2);
  const lines = [
    `EFSG: ${d.population} sentences of ${d.length} words${d.length_source === 'fixed-sentence' ? " (x̂'s length)" : ''}, ${d.epochs} epochs, ` +
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
  const iv = d.intervals;
  const sIv = iv ? ` [${fixed(iv.fooling_mean_score.low, 4)}, ${fixed(iv.fooling_mean_score.high, 4)}]` : '';
  const fIv = iv ? ` [${pct(iv.fooling_fraction.low)}, ${pct(iv.fooling_fraction.high)}] (95%, n = ${iv.fooling_fraction.n})` : '';
  lines.push(
    '',
    `Final S ${fixed(m.fooling_mean_score, 4)}${sIv}, F ${pct(m.fooling_fraction)}${fIv}; ${m.fooling_sentences ?? 0} distinct ` +
      `fooling sentences; best score ${fixed(m.fooling_max_score, 4)}.`,
  );
  if (d.samples.length) lines.push('Top fooling sentences:', ...d.samples.slice(0, 5).map((s) => `  ${fixed(s.score, 4)}  ${s.text}`));
  if (d.transfer) lines.push('', transferText(d.transfer));
  return lines.join('\n');
}
