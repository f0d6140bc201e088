import type { Example } from '../data/types.ts';
import type { ClassOutput, ModelOutput, TagOutput } from '../models/types.ts';
import { entitySpans } from '../data/index.ts';
import { entityCounts, f1, type EntityCounts } from '../metrics/ner.ts';
import type { LabelAligner } from './labels.ts';

/** What the model said, in the form result records keep. */
export interface Prediction {
  label: string;
  /** Probability of `label` (classifiers) or mean tag score (taggers). */
  score: number;
  probs?: number[];
  tags?: string[];
  entities?: EntityCounts;
}

export interface GoalStatus {
  /** Higher = closer to the attack's goal. Searches maximise it. */
  score: number;
  /** The goal is reached: the attack succeeded. */
  done: boolean;
  /** The model's answer counts as correct for accuracy. */
  correct: boolean;
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

function asClasses(out: ModelOutput): ClassOutput {
  if (out.kind !== 'classes') throw new Error(`expected class probabilities from the model, got ${out.kind}`);
  return out;
}

function asTags(out: ModelOutput): TagOutput {
  if (out.kind !== 'tags') throw new Error(`expected token tags from the model, got ${out.kind}`);
  return out;
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}

/** Untargeted classification: succeed when the predicted label is no longer the gold label. */
export class UntargetedClassification implements GoalFactory {
  readonly name = 'untargeted-classification';

  constructor(private readonly aligner: LabelAligner) {}

  create(example: Example): Goal {
    if (example.kind !== 'text' && example.kind !== 'pair') {
      throw new Error(`untargeted classification needs text or pair examples, got ${example.kind}`);
    }
    const gold = this.aligner.indexOf(example.label);
    return {
      evaluate(output) {
        const { labels, probs } = asClasses(output);
        const top = argmax(probs);
        return {
          score: 1 - (probs[gold] ?? 0),
          done: top !== gold,
          correct: top === gold,
          prediction: { label: labels[top] ?? String(top), score: probs[top] ?? 0, probs: probs.slice() },
        };
      },
      skipReason: (clean) => (clean.correct ? undefined : 'the model already misclassifies the clean example'),
    };
  }
}

/**
 * NER: succeed when the sentence's entity F1 falls below the clean prediction's F1 (entity tokens themselves
 * are frozen by the subject, so any loss comes from edits to the context).
 */
export class EntityF1Drop implements GoalFactory {
  readonly name = 'entity-f1-drop';

  /** minDrop: how far F1 must fall below the clean F1 to count as success. */
  constructor(private readonly minDrop = 1e-9) {}

  create(example: Example, clean: ModelOutput): Goal {
    if (example.kind !== 'tokens') throw new Error(`entity-F1 goal needs token examples, got ${example.kind}`);
    const gold = example.tags;
    const cleanF1 = f1(entityCounts(gold, asTags(clean).tags));
    const minDrop = this.minDrop;
    return {
      evaluate(output, origin) {
        const { tags, scores } = asTags(output);
        // Gold tags follow inserts (a new token is 'O') and deletes (its tag goes too).
        const aligned = origin ? origin.map((o) => (o < 0 ? 'O' : gold[o]!)) : gold;
        const counts = entityCounts(aligned, tags);
        const value = f1(counts);
        const mean = scores.length ? scores.reduce((s, x) => s + x, 0) / scores.length : 0;
        return {
          score: cleanF1 - value,
          done: cleanF1 - value >= minDrop,
          correct: counts.fp === 0 && counts.fn === 0,
          prediction: { label: `F1=${value.toFixed(3)}`, score: mean, tags: tags.slice(), entities: counts },
        };
      },
      skipReason: () => {
        if (cleanF1 > 0) return undefined;
        return entitySpans(gold.slice()).length === 0
          ? 'no gold entities, and the model already predicts some in the clean sentence'
          : 'the model finds none of the entities in the clean sentence';
      },
    };
  }
}
