import type { Edit } from './edit.ts';
import type { Prediction } from './goal.ts';

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
  field: string;
  original: Record<string, string | string[]>;
  perturbed: Record<string, string | string[]>;
  original_prediction: Prediction;
  perturbed_prediction: Prediction;
  original_correct: boolean;
  perturbed_correct: boolean;
  edits: Edit[];
  num_words: number;
  words_perturbed: number;
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
}
