/**
 * A deterministic mock QA model for the AddAny / AddCommon tests, and a counting wrapper. The mock answers with
 * the gold answer's span (score p) and, second, the distractor's first word (score 1 − p), where
 * p = max(0, 0.9 − 0.1 · (distractor words that are words of the question)): the question's words pull the model
 * towards the distractor, as Jia & Liang found, and from 5 of them (p < 0.5) it answers from the distractor.
 */
import { createFunctionModel } from '../../../src/models/function-adapter.ts';
import type { AnswerSpan, ModelAdapter, ModelInput, ModelOutput } from '../../../src/models/types.ts';
import type { QaExample } from '../../../src/data/types.ts';
import { questionWords } from '../../../src/families/stress/qa/add-any.ts';

/** The mock model over these examples (it finds the distractor as what follows the original context). */
export function mockQaModel(examples: readonly QaExample[]): ModelAdapter {
  const byQuestion = new Map(examples.map((e) => [e.question, e]));
  const answer = (input: ModelInput): ModelOutput => {
    if (input.kind !== 'qa') throw new Error('qa only');
    const e = byQuestion.get(input.question)!;
    const gold = e.answers[0]!;
    const tail = input.context.slice(e.context.length);
    const q = new Set(questionWords(e.question));
    const words = tail.match(/[a-z0-9]+/gi) ?? [];
    const p = Math.max(0, 0.9 - 0.1 * words.filter((w) => q.has(w.toLowerCase())).length);
    const spans: AnswerSpan[] = [{ text: gold.text, start: gold.start, end: gold.start + gold.text.length, score: p }];
    if (words.length > 0) {
      const start = e.context.length + 1;
      spans.push({ text: words[0]!, start, end: start + words[0]!.length, score: 1 - p });
    }
    spans.sort((a, b) => b.score - a.score);
    return { kind: 'spans', spans };
  };
  return createFunctionModel((inputs) => inputs.map(answer), { id: 'mock-qa', task: 'question-answering' }, { maxBatchSize: 100_000 });
}

/** Wraps an adapter, recording each predict() call's inputs. */
export function counting(model: ModelAdapter): ModelAdapter & { calls: ModelInput[][] } {
  const c = {
    info: model.info,
    calls: [] as ModelInput[][],
    predict(inputs: ModelInput[]) {
      c.calls.push(inputs);
      return model.predict(inputs);
    },
  };
  return c;
}
