/**
 * AddAny / AddCommon on a real ONNX QA model (tiny-bert-qa, random weights: its answers mean nothing, so these
 * tests check mechanics) over SQuAD v1.1 questions: distractor length, gold spans, query counts, one model call
 * per step across questions, and the same outcomes at any concurrency. Candidates per step are cut to 4 to keep
 * the test short; the paper's 20 are the default (test/stress/qa/add-any.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, loadModel, type ModelAdapter, type QaExample } from '../../../src/index.ts';
import { loadSquad, runAddAny, type AddAnyOutcome, type AddAnyResult } from '../../../src/internal.ts';
import { QueryEngine } from '../../../src/query/engine.ts';
import { QA_BERT } from '../../models/helpers.ts';
import { counting } from './add-any-helpers.ts';

const SQUAD = 'test/fixtures/data/squad-v1.1/dev-v1.1.json';

describe('AddAny / AddCommon on tiny-bert-qa over SQuAD (seed 0)', () => {
  let model: ModelAdapter;
  let questions: QaExample[];
  beforeAll(async () => {
    model = await loadModel(QA_BERT);
    questions = (await collect(await loadSquad(SQUAD))).slice(0, 3);
  });
  afterAll(async () => model.close?.());

  const attacked = (outs: AddAnyOutcome[]): AddAnyResult[] =>
    outs.map((o) => (o.status === 'attacked' ? o : expect.unreachable(o.skipReason)));

  it('cross-example batching: one model call per step for 3 questions, one per question per step without; identical outcomes', async () => {
    const runs: AddAnyResult[][] = [];
    const calls: number[] = [];
    for (const concurrency of [3, 1]) {
      const m = counting(model);
      runs.push(
        attacked(
          await runAddAny(questions, new QueryEngine(m), {
            variant: 'addcommon',
            candidates: 4,
            rounds: 1,
            stopAtZero: false,
            concurrency,
          }),
        ),
      );
      calls.push(m.calls.length);
    }
    expect(calls).toEqual([1 + 10, 3 * (1 + 10)]);
    expect(runs[0]).toEqual(runs[1]);
    const [first] = runs[0]!;
    expect(first!.distractor).toEqual(['boss', 'half', 'lives', 'something', 'truth', 'heart', 'present', 'sir', 'moved', 'lord']);
    for (const r of runs[0]!) {
      // 1 clean + 1 initial distractor + 10 steps of 4 candidates, all distinct here.
      expect([r.distractor.length, r.rounds, r.steps, r.requests, r.queries]).toEqual([10, 1, 10, 2 + 10 * 4, 42]);
      const q = questions.find((e) => e.id === r.id)!;
      expect(r.example.context).toBe(`${q.context} ${r.distractor.join(' ')}.`);
      expect(r.example.answers).toEqual(q.answers);
      for (const a of r.example.answers) expect(r.example.context.slice(a.start, a.start + a.text.length)).toBe(a.text);
    }
  });

  it('with the paper’s early stop, a question the model already misses with the initial distractor costs 2 queries', async () => {
    const out = attacked(await runAddAny(questions, new QueryEngine(model), { variant: 'addany' }));
    expect(out.map((r) => [r.initial.f1, r.rounds, r.steps, r.requests, r.stoppedEarly])).toEqual(questions.map(() => [0, 0, 0, 2, true]));
  });
});
