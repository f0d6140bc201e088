import type { Edit } from '../text/edits.ts';
import type { Prediction } from './goals/index.ts';

/** How an attack on one example ended. */
export type AttackStatus = 'succeeded' | 'failed' | 'skipped';

/** One point of the search's trace: after `edits` edits, was the model still right? */
export interface TracePoint {
  edits: number;
  correct: boolean;
  done: boolean;
  score: number;
  label: string;
}

/** One line of results.jsonl. Everything a report needs about one example, as plain JSON. */
export interface ExampleResult {
  id: string;
  source?: string;
  status: AttackStatus;
  skip_reason?: string;
  /** Gold label (classification), IOB2 tags (NER) or answers (QA). */
  gold: unknown;
  /**
   * The gold annotation of the perturbed example, only when the edits moved it: QA answers re-mapped to their new
   * offsets in an edited context (each answer's text is at its `start` in `perturbed.context`). Absent: `gold`
   * holds for the perturbed example too (every result written before this field existed).
   */
  perturbed_gold?: unknown;
  field: string;
  original: Record<string, string | string[]>;
  perturbed: Record<string, string | string[]>;
  original_prediction: Prediction;
  perturbed_prediction: Prediction;
  original_correct: boolean;
  perturbed_correct: boolean;
  edits: Edit[];
  /** Words of the edited field, all of it (a window-capped text counts its untouched suffix too). */
  num_words: number;
  /** Edits made (a swap counts two words). */
  words_perturbed: number;
  /** 100 · words_perturbed / the words the attack could edit: attacked_words when capped, else num_words. */
  perturbed_word_pct: number;
  /** Distinct inputs this attack sent to the model. */
  queries: number;
  /** All inputs it asked for, repeats included. */
  requests: number;
  /** Requests served from the cache because this attack had asked them before. */
  cache_hits: number;
  trace: TracePoint[];
  /** Per-edit extra views, e.g. how the model's tokenizer splits each perturbed word. */
  subwords?: { before: string; after: string; before_pieces: string[]; after_pieces: string[] }[];
  /** Compact results: the edits of an unsuccessful attack, counted by type instead of listed. */
  edit_counts?: Record<string, number>;
  /** The text had more words than the attack's edit window: only its first words were attacked. */
  window_capped?: true;
  /** With window_capped: the words of the window (the first ones, the only ones the attack could edit). */
  attacked_words?: number;
  /**
   * Tokens of this example's distinct queries as a metered model (an LLM endpoint) bills them, cached answers
   * included (what the example costs on its own), and their cost at the run's prices.
   */
  usage?: { input_tokens: number; output_tokens: number; cost_usd?: number };
  /**
   * What the example asked of models and indexes other than the target, by name (absent: nothing), each counted
   * distinct as `queries` is: texts for a sentence encoder (`sentence_encoder_texts`; `sentence_encoder_requests` with
   * repeats), masked texts for a masked LM (`masked_lm_texts`), words whose embedding neighbours it asked for
   * (`embedding_words`).
   */
  resource_queries?: Record<string, number>;
  /** The per-example query budget (--max-queries) ended the search: the result is the best state it had reached. */
  query_budget_exhausted?: true;
  /** Answers to this example's distinct queries that could not be mapped to an output (absent: none). */
  unmappable?: number;
  /** Probes only: B variants evaluated; the worst is `perturbed`, the best is kept here. */
  probe?: ProbeRecord;
}

/** What a probe (B variants of one example, worst and best kept) adds to a result. */
export interface ProbeRecord {
  /** Variants evaluated (the budget B, or fewer when fewer distinct ones exist). */
  variants: number;
  /** Variants whose prediction differs from the clean one. */
  changed: number;
  /** The task metric (GoalStatus.metric) of the clean example, the worst and the best variant. */
  original_metric: number;
  worst_metric: number;
  best_metric: number;
  best: {
    fields: Record<string, string | string[]>;
    /** The gold annotation of the best variant, only when the rewrite moved it (as ExampleResult.perturbed_gold). */
    perturbed_gold?: unknown;
    prediction: Prediction;
    correct: boolean;
    edits: Edit[];
  };
  /**
   * Every variant in the order drawn: the strings it put in (e.g. replacement names) and its metric, for
   * analyses by name (probes whose variants name them; dropped by --compact). `pieces`: how many subword tokens
   * the model's tokenizer makes of each name (when the adapter can tokenize), counted as the model saw it: `seen` is
   * each name as the variant's text held its first use (its case there, and the space before it when it had one).
   */
  samples?: { names: string[]; metric: number; seen?: string[]; pieces?: number[] }[];
}

/** A gold answer of extractive QA, as results hold it. */
export interface QaGoldAnswer {
  text: string;
  start: number;
}

const isAnswer = (a: unknown): a is QaGoldAnswer =>
  typeof a === 'object' && a !== null && typeof (a as QaGoldAnswer).text === 'string' && Number.isInteger((a as QaGoldAnswer).start);
/** The QA gold answers in `gold`, or undefined when it is not a list of them. */
export const answersOf = (gold: unknown): QaGoldAnswer[] | undefined => (Array.isArray(gold) && gold.every(isAnswer) ? gold : undefined);

/** The distinct texts of QA gold answers ([] when `gold` is not a list of answers). */
export function goldTexts(gold: unknown): string[] {
  return [...new Set((answersOf(gold) ?? []).map((a) => a.text))];
}

/** A result of extractive QA: gold answers with offsets, or the model's answer span. */
export function isQaResult(r: ExampleResult): boolean {
  return (answersOf(r.gold)?.length ?? 0) > 0 || r.original_prediction.answer !== undefined;
}
