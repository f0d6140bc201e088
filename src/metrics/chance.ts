/**
 * A classifier's clean accuracy far below chance (issue 34): even the upper bound of its 95% interval is below what
 * guessing among the classes gets. A trained model does not do that by being weak; it does it when its labels and
 * the data's are paired the wrong way round (a --label-map that swaps them), so every figure of the run measures the
 * swap, not the model. Judged with the interval, so a small sample that is merely unlucky is not called a swap.
 */
import type { Prediction } from '../core/goals/index.ts';
import { UNMAPPABLE_LABEL } from '../core/goals/types.ts';
import { wilson, type Interval } from '../stats/index.ts';
import { bounds } from './show.ts';
import { pct } from '../util/format.ts';

/** What summary.json (and eval's summary) records when the clean accuracy is far below chance. */
export interface BelowChance {
  /** Classes the model chooses among. */
  classes: number;
  /** 1 / classes. */
  chance: number;
  accuracy: number;
  /** The accuracy's 95% interval; its upper bound is below `chance`. */
  low: number;
  high: number;
  n: number;
}

/** The finding when the accuracy's interval lies wholly below 1 / classes; undefined otherwise (or with < 2 classes). */
export function belowChance(iv: Interval | undefined, classes: number): BelowChance | undefined {
  if (!iv || iv.value === null || iv.low === null || iv.high === null || classes < 2 || iv.n === 0) return undefined;
  const chance = 1 / classes;
  return iv.high < chance ? { classes, chance, accuracy: iv.value, low: iv.low, high: iv.high, n: iv.n } : undefined;
}

/**
 * The terminal's line for it: what it means and what to check. A run over clean examples calls it an error (it exits
 * 1); `eval`, which also scores adversarial sets such as D_worst (made to be answered wrong), a warning.
 */
export function belowChanceMessage(b: BelowChance, opts: { adversarial?: boolean } = {}): string {
  const iv = bounds({ value: b.accuracy, low: b.low, high: b.high, n: b.n, method: 'wilson' });
  return (
    `textstress: ${opts.adversarial ? 'warning' : 'error'}: ${opts.adversarial ? 'accuracy' : 'clean accuracy'} ${pct(b.accuracy)} ${iv} ` +
    `(n = ${b.n}) is far below chance (${pct(b.chance)} for ${b.classes} classes; even the interval's upper bound is below it): ` +
    (opts.adversarial
      ? "unless this data was made to fool the model (D_worst), the model's labels and the data's are "
      : "the model's labels and the data's are ") +
    'most likely paired the wrong way round. Check --label-map (dataset label = model label, e.g. "pos=positive,neg=negative") ' +
    "against the model's labels; until then this run's figures measure the swap, not the model."
  );
}

/**
 * The classes of a run's classifier, from its results in one pass: the most class probabilities a prediction gave,
 * else (compact results keep none) the labels seen among gold and predictions. Taggers and QA are not classifiers.
 */
export class ChanceTally {
  private classes = 0;
  private readonly seen = new Set<string>();
  private classifier = true;

  add(before: Prediction, after: Prediction, gold: unknown): void {
    if (!this.classifier) return;
    if (before.tags || before.f1 !== undefined || typeof gold !== 'string') {
      this.classifier = false;
      return;
    }
    this.classes = Math.max(this.classes, before.probs?.length ?? 0, after.probs?.length ?? 0);
    for (const l of [before.label, after.label, gold]) if (l !== UNMAPPABLE_LABEL && this.seen.size < 64) this.seen.add(l);
  }

  /** The finding for `correct` clean answers of `n`, when far below chance. */
  finish(correct: number, n: number): BelowChance | undefined {
    return this.classifier ? belowChance(wilson(correct, n), this.classes || this.seen.size) : undefined;
  }
}
