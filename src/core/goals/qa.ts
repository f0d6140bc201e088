import { bestOverGold } from '../../data/answers.ts';
import type { Example } from '../../data/types.ts';
import type { ModelOutput } from '../../models/types.ts';
import { asSpans, type Goal, type GoalFactory, type GoalStatus } from './types.ts';

/** The model's best answer scored against gold answer texts (SQuAD EM/F1). */
export function answerStatus(
  output: ModelOutput,
  golds: readonly string[],
): { em: number; f1: number; status: Omit<GoalStatus, 'score' | 'done'> } {
  const best = asSpans(output).spans[0];
  const text = best?.text ?? '';
  const { em, f1 } = bestOverGold(text, golds);
  return {
    em,
    f1,
    status: {
      correct: f1 > 0,
      metric: f1,
      prediction: {
        label: text,
        score: best?.score ?? 0,
        ...(best ? { answer: { text: best.text, start: best.start, end: best.end } } : {}),
        em,
        f1,
      },
    },
  };
}

/**
 * Extractive QA: the model's best span is scored against the gold answers with SQuAD's official EM/F1; an attack
 * succeeds when the answer no longer overlaps any gold answer (F1 = 0) on an example the model had right
 * (F1 > 0). The score is how far F1 fell.
 */
export class QaF1Drop implements GoalFactory {
  readonly name = 'qa-f1-drop';

  create(example: Example, clean: ModelOutput): Goal {
    if (example.kind !== 'qa') throw new Error(`the QA goal needs question-answering examples, got ${example.kind}`);
    const golds = example.answers.map((a) => a.text);
    const cleanF1 = answerStatus(clean, golds).f1;
    return {
      evaluate(output) {
        const { f1, status } = answerStatus(output, golds);
        return { ...status, score: cleanF1 - f1, done: cleanF1 > 0 && f1 === 0 };
      },
      skipReason: () => {
        if (golds.length === 0) return 'the question has no gold answer';
        return cleanF1 > 0 ? undefined : 'the model already answers wrong (F1 = 0) on the clean example';
      },
    };
  }
}
