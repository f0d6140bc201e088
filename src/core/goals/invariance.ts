import { answerF1, exactMatch } from '../../data/answers.ts';
import { entitySpans } from '../../data/entities.ts';
import type { Example } from '../../data/types.ts';
import type { ModelOutput } from '../../models/types.ts';
import { argmax, asClasses, asSpans, asTags, classPrediction, type Goal, type GoalFactory, type GoalStatus } from './types.ts';

/**
 * Invariance: the model's answer must not change from its own answer on the original (entity swaps: a name
 * replaced by another name of the same type should not change the prediction). Success = it changed. Works for
 * every output kind: the top class (score 1 − P(original class)), the tag sequence (score = share of tags that
 * changed; tags of inserted words must be "O"), the best answer span (score 1 − F1 against the original answer).
 * `correct` comes from `gold` when given (e.g. the untargeted goal), else means "unchanged".
 */
export class Invariance implements GoalFactory {
  readonly name = 'invariance';

  constructor(private readonly gold?: GoalFactory) {}

  create(example: Example, clean: ModelOutput): Goal {
    const goldGoal = this.gold?.create(example, clean);
    const correctOf = (out: ModelOutput, unchanged: boolean, origin?: readonly number[]): boolean =>
      goldGoal ? goldGoal.evaluate(out, origin).correct : unchanged;
    let judge: (out: ModelOutput, origin?: readonly number[]) => GoalStatus;
    if (clean.kind === 'classes') {
      const original = argmax(clean.probs);
      judge = (out) => {
        const c = asClasses(out);
        const { top, prediction } = classPrediction(c);
        const unchanged = top === original;
        return {
          score: 1 - (c.probs[original] ?? 0),
          done: !unchanged,
          correct: correctOf(out, unchanged),
          metric: unchanged ? 1 : 0,
          prediction,
        };
      };
    } else if (clean.kind === 'tags') {
      const cleanTags = clean.tags;
      judge = (out, origin) => {
        const { tags, scores } = asTags(out);
        let changed = 0;
        if (origin) origin.forEach((o, i) => (tags[i] !== (o < 0 ? 'O' : cleanTags[o]) ? changed++ : 0));
        else if (tags.length === cleanTags.length) tags.forEach((t, i) => (t !== cleanTags[i] ? changed++ : 0));
        else if (typeSequence(tags) !== typeSequence(cleanTags)) changed = 1;
        const unchanged = changed === 0;
        const mean = scores.length ? scores.reduce((s, x) => s + x, 0) / scores.length : 0;
        return {
          score: tags.length ? changed / tags.length : 0,
          done: !unchanged,
          correct: correctOf(out, unchanged, origin),
          metric: unchanged ? 1 : 0,
          prediction: { label: unchanged ? 'unchanged' : `${changed} tag(s) changed`, score: mean, tags: tags.slice() },
        };
      };
    } else {
      const original = asSpans(clean).spans[0]?.text ?? '';
      judge = (out) => {
        const best = asSpans(out).spans[0];
        const text = best?.text ?? '';
        const unchanged = exactMatch(text, original) === 1;
        return {
          score: 1 - answerF1(text, original),
          done: !unchanged,
          correct: correctOf(out, unchanged),
          metric: unchanged ? 1 : 0,
          prediction: {
            label: text,
            score: best?.score ?? 0,
            ...(best ? { answer: { text: best.text, start: best.start, end: best.end } } : {}),
          },
        };
      };
    }
    return { evaluate: judge, skipReason: () => undefined };
  }
}

/** Entity types in order ("PER LOC"), for tag sequences of different lengths. */
function typeSequence(tags: readonly string[]): string {
  return entitySpans(tags)
    .map((s) => s.type)
    .join(' ');
}
