import type { EntityCounts } from '../../data/entities.ts';
import type { Example } from '../../data/types.ts';
import type { ClassOutput, ModelOutput, SpanOutput, TagOutput } from '../../models/types.ts';

/** What the model said, in the form result records keep. */
export interface Prediction {
  label: string;
  /** Probability of `label` (classifiers), mean tag score (taggers) or the answer's score (QA). */
  score: number;
  probs?: number[];
  tags?: string[];
  entities?: EntityCounts;
  /** QA: the best answer span and its scores against the gold answers. */
  answer?: { text: string; start: number; end: number };
  em?: number;
  f1?: number;
}

/** A goal's verdict on one model answer. */
export interface GoalStatus {
  /** Higher = closer to the attack's goal. Searches maximise it. */
  score: number;
  /** The goal is reached: the attack succeeded. */
  done: boolean;
  /** The model's answer counts as correct for accuracy. */
  correct: boolean;
  /**
   * The task's own measure of this answer, higher = better for the model: 1/0 accuracy (classifiers), the
   * sentence's entity F1 (taggers), answer F1 (QA), 1/0 "unchanged" (invariance), P(target) (target class).
   * Probes rank variants by it (worst = lowest).
   */
  metric: number;
  prediction: Prediction;
}

/** Turns a model output for (a perturbed version of) one example into a score and "done". */
export interface Goal {
  /**
   * `origin` (from the state) maps each current word to its original index (-1: inserted), for goals that
   * compare per-token gold labels; absent = no word was inserted or deleted.
   */
  evaluate(output: ModelOutput, origin?: readonly number[]): GoalStatus;
  /** Why the clean answer leaves nothing to attack (e.g. already misclassified), or undefined. */
  skipReason(clean: GoalStatus): string | undefined;
}

/** Builds one Goal per example from the model's clean answer. */
export interface GoalFactory {
  readonly name: string;
  create(example: Example, clean: ModelOutput): Goal;
}

/** The output as class probabilities; throws when the model returned another kind. */
export function asClasses(out: ModelOutput): ClassOutput {
  if (out.kind !== 'classes') throw new Error(`expected class probabilities from the model, got ${out.kind}`);
  return out;
}

/** The output as token tags; throws when the model returned another kind. */
export function asTags(out: ModelOutput): TagOutput {
  if (out.kind !== 'tags') throw new Error(`expected token tags from the model, got ${out.kind}`);
  return out;
}

/** The output as answer spans; throws when the model returned another kind. */
export function asSpans(out: ModelOutput): SpanOutput {
  if (out.kind !== 'spans') throw new Error(`expected answer spans from the model, got ${out.kind}`);
  return out;
}

/** Index of the largest value (the first on ties; 0 for an empty array). */
export function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}

/** The prediction record of class probabilities. */
export function classPrediction(output: ClassOutput): { top: number; prediction: Prediction } {
  const { labels, probs } = output;
  const top = argmax(probs);
  return { top, prediction: { label: labels[top] ?? String(top), score: probs[top] ?? 0, probs: probs.slice() } };
}
