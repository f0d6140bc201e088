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
  /** The model answered something that could not be read as an output (an LLM's free text): that answer, shortened. */
  unmappable?: string;
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

/** The label an unmappable answer is recorded under: no label of any model, so it is never scored as one. */
export const UNMAPPABLE_LABEL = '(unmappable)';

/**
 * The verdict on an answer that could not be mapped to an output: never correct, never the goal reached (a broken
 * answer is not a flipped label), and the lowest score, so no search climbs towards it; its own outcome, counted.
 */
export function unmappableStatus(answer: string): GoalStatus {
  return { score: 0, done: false, correct: false, metric: 0, prediction: { label: UNMAPPABLE_LABEL, score: 0, unmappable: answer } };
}

/**
 * A dry run's verdict on a stand-in answer: right, and the goal never reached, so every search runs to its end;
 * the score is the answer's pseudo-random one, so searches rank words and candidates in no positional order.
 */
function standInStatus(score: number): GoalStatus {
  return { score, done: false, correct: true, metric: 1, prediction: { label: STAND_IN_LABEL, score } };
}

/** The label of a dry run's stand-in answer. */
const STAND_IN_LABEL = '(dry run)';

/** Whether a verdict is on a dry run's stand-in answer (no model was asked). */
export function isStandIn(status: GoalStatus): boolean {
  return status.prediction.label === STAND_IN_LABEL;
}

/** The skip reason of an example whose clean answer could not be mapped (the answer is in original_prediction). */
export const UNMAPPABLE_CLEAN = "the model's answer to the clean example could not be mapped to an output";

/** `goal` with unmappable answers judged by {@link unmappableStatus}, and a clean unmappable answer a skip reason. */
export function guardUnmappable(goal: Goal): Goal {
  return {
    evaluate: (output, origin) =>
      output.standIn !== undefined
        ? standInStatus(output.standIn)
        : output.unmappable !== undefined
          ? unmappableStatus(output.unmappable)
          : goal.evaluate(output, origin),
    // A dry run's clean answer is a stand-in: what the real model answers is unknown, so no example is skipped for it
    // (a goal that reads its clean output, NER's and QA's F1, would otherwise skip them all after one query, and the
    // estimate would no longer bound what the real run sends).
    skipReason: (clean) =>
      clean.prediction.unmappable !== undefined
        ? UNMAPPABLE_CLEAN
        : clean.prediction.label === STAND_IN_LABEL
          ? undefined
          : goal.skipReason(clean),
  };
}
