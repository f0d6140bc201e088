import type { Example } from '../../data/types.ts';
import type { ModelOutput } from '../../models/types.ts';
import type { LabelAligner } from '../labels.ts';
import { asClasses, classPrediction, type Goal, type GoalFactory, type GoalStatus } from './types.ts';

/** Untargeted classification: succeed when the predicted label is no longer the gold label. */
export class UntargetedClassification implements GoalFactory {
  readonly name = 'untargeted-classification';

  constructor(private readonly aligner: LabelAligner) {}

  create(example: Example, _clean?: ModelOutput): Goal {
    if (example.kind !== 'text' && example.kind !== 'pair') {
      throw new Error(`untargeted classification needs text or pair examples, got ${example.kind}`);
    }
    const gold = this.aligner.indexOf(example.label);
    return {
      evaluate(output) {
        const { probs } = asClasses(output);
        const { top, prediction } = classPrediction(asClasses(output));
        return { score: 1 - (probs[gold] ?? 0), done: top !== gold, correct: top === gold, metric: top === gold ? 1 : 0, prediction };
      },
      skipReason: (clean) => (clean.correct ? undefined : 'the model already misclassifies the clean example'),
    };
  }
}

/**
 * Target-class confidence: push the probability of one class above a threshold (fooling sentences: nonsense the
 * model calls positive with high confidence). The score is P(target) itself; `status` scores an output with no
 * source example (a generated sentence).
 */
export class TargetConfidence implements GoalFactory {
  readonly name: string;

  constructor(
    /** The model's index of the target class. */
    readonly target: number,
    /** P(target) at or above which the goal is reached. */
    readonly threshold: number,
    private readonly aligner?: LabelAligner,
  ) {
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`a confidence threshold must lie in [0, 1], got ${threshold}`);
    this.name = `target-confidence(${target} ≥ ${threshold})`;
  }

  /** The verdict on one output, gold-free: correct means "the model did not pick the target". */
  status(output: ModelOutput, gold?: number): GoalStatus {
    const { probs } = asClasses(output);
    const { top, prediction } = classPrediction(asClasses(output));
    const p = probs[this.target] ?? 0;
    return { score: p, done: p >= this.threshold, correct: gold === undefined ? top !== this.target : top === gold, metric: p, prediction };
  }

  create(example: Example, _clean?: ModelOutput): Goal {
    const gold = (example.kind === 'text' || example.kind === 'pair') && this.aligner ? this.aligner.indexOf(example.label) : undefined;
    return {
      evaluate: (output) => this.status(output, gold),
      // An example already in the target class has nothing left to push.
      skipReason: (clean) => (clean.done ? `the model already gives the target class ≥ ${this.threshold}` : undefined),
    };
  }
}
