/**
 * AddAny / AddCommon on a deterministic mock model (add-any-helpers.ts): exact distractors, candidate pools, step
 * and query counts, the early stop, cross-example batching counted in model calls, skips and errors.
 */
import { describe, expect, it } from 'vitest';
import type { QaExample } from '../../../src/data/types.ts';
import { createFunctionModel } from '../../../src/models/function-adapter.ts';
import type { ModelInput } from '../../../src/models/types.ts';
import { QueryEngine } from '../../../src/query/engine.ts';
import { TextstressError } from '../../../src/index.ts';
import {
  addAnyExample,
  commonWords,
  COMMON_WORD_EXCLUSIONS,
  questionWords,
  runAddAny,
  stepCandidates,
  summarizeAddAny,
  type AddAnyOutcome,
  type AddAnyResult,
} from '../../../src/internal.ts';
import { Rng } from '../../../src/util/rng.ts';
import { counting, mockQaModel } from './add-any-helpers.ts';

const POOL = [
  'apple',
  'river',
  'stone',
  'cloud',
  'green',
  'paper',
  'silver',
  'window',
  'garden',
  'bridge',
  'candle',
  'forest',
  'hammer',
  'island',
  'jacket',
  'kettle',
  'ladder',
  'marble',
  'needle',
  'orange',
  'pencil',
  'rocket',
  'saddle',
  'tunnel',
  'violin',
  'wagon',
  'yellow',
  'zebra',
  'anchor',
  'basket',
];
const CONTEXT = 'The final match was played in Geneva, Switzerland, in 1990.';
const example: QaExample = {
  kind: 'qa',
  id: 'q1',
  question: 'Which city hosted the final match?',
  context: CONTEXT,
  answers: [
    { text: 'Geneva', start: 30 },
    { text: 'Geneva, Switzerland', start: 30 },
  ],
};
const Q_WORDS = ['which', 'city', 'hosted', 'the', 'final', 'match'];

/** The distractor words of every input sent to the model (none for the clean paragraph). */
const distractors = (calls: ModelInput[][], context = CONTEXT): string[][] =>
  calls
    .flat()
    .flatMap((i) => (i.kind === 'qa' && i.context.length > context.length ? [i.context.slice(context.length + 1, -1).split(' ')] : []));

async function run(variant: 'addany' | 'addcommon', opts: Record<string, unknown> = {}) {
  const model = counting(mockQaModel([example]));
  const session = new QueryEngine(model).session();
  const r = (await addAnyExample(example, session, { variant, commonWords: POOL, seed: 0, ...opts })) as AddAnyResult;
  return { r, model };
}

describe('candidate pools', () => {
  it('a step samples 20 common words without repeats; AddAny adds the question words not sampled, AddCommon none', () => {
    expect(questionWords('Which city hosted the final match? The city!')).toEqual(Q_WORDS);
    const common = stepCandidates(new Rng(1), POOL, 20, []);
    expect(common).toEqual([
      'garden',
      'hammer',
      'apple',
      'jacket',
      'rocket',
      'stone',
      'tunnel',
      'river',
      'cloud',
      'orange',
      'island',
      'kettle',
      'violin',
      'bridge',
      'saddle',
      'wagon',
      'ladder',
      'anchor',
      'marble',
      'yellow',
    ]);
    expect(stepCandidates(new Rng(1), POOL, 20, ['which', 'city', 'apple'])).toEqual([...common, 'which', 'city']);
  });

  it('every word AddCommon tries is a common word; AddAny also tries every question word at every step', async () => {
    const common = await run('addcommon', { rounds: 1 });
    expect(
      distractors(common.model.calls)
        .flat()
        .every((w) => POOL.includes(w)),
    ).toBe(true);
    const any = await run('addany', { stopAtZero: false, rounds: 1 });
    const steps = any.model.calls.slice(1).map((call) => distractors([call]));
    expect(steps.length).toBe(10);
    steps.forEach((cands, k) => {
      // Position visited at step k: where the candidates differ from each other.
      const at = cands[0]!.findIndex((_, i) => new Set(cands.map((c) => c[i])).size > 1);
      expect(
        Q_WORDS.every((q) => cands.some((c) => c[at] === q)),
        `step ${k}`,
      ).toBe(true);
    });
  });

  it('the default pool: SUBTLEX-US top 1000 after the listed exclusions, lower-case words, distinct', () => {
    const words = commonWords();
    expect(words.length).toBe(1000);
    expect(words.slice(0, 12)).toEqual(['you', 'i', 'the', 'to', 'a', 'it', 'that', 'and', 'of', 'what', 'in', 'me']);
    expect(words.at(-1)).toBe('especially');
    expect(new Set(words).size).toBe(1000);
    expect(words.filter((w) => !/^[a-z]+$/.test(w) || COMMON_WORD_EXCLUSIONS.has(w) || (w.length === 1 && w !== 'a' && w !== 'i'))).toEqual(
      [],
    );
  });
});

describe('AddAny on the mock model (seed 0)', () => {
  it('puts question words in until the model answers from the distractor, then stops (5 steps of 26 candidates)', async () => {
    const { r, model } = await run('addany');
    expect(r.distractor).toEqual(['candle', 'violin', 'which', 'which', 'which', 'tunnel', 'which', 'which', 'wagon', 'basket']);
    expect(r.sentence).toBe('candle violin which which which tunnel which which wagon basket.');
    expect(r.example.context).toBe(`${CONTEXT} ${r.sentence}`);
    expect(r.clean).toEqual({ answer: 'Geneva', em: 1, f1: 1, expectedF1: 1 });
    expect(r.initial).toEqual({ answer: 'Geneva', em: 1, f1: 1, expectedF1: 0.9 });
    expect(r.attacked.answer).toBe('candle');
    expect([r.attacked.em, r.attacked.f1]).toEqual([0, 0]);
    expect([r.rounds, r.steps, r.stoppedEarly]).toEqual([1, 5, true]);
    // 1 clean + 1 initial, then 5 steps of 20 common + 6 question words; 3 candidates were the current distractor.
    expect([r.requests, r.queries, r.cacheHits]).toEqual([2 + 5 * 26, 129, 3]);
    expect(model.calls.map((c) => c.length)).toEqual([2, 25, 25, 26, 25, 26]);
    expect(r.trace).toEqual([{ round: 1, steps: 5, distractor: r.distractor, score: r.attacked, queries: 129 }]);
  });

  it('keeps the gold answers (texts and offsets) and records the insertion as one edit', async () => {
    const { r } = await run('addany');
    expect(r.example.answers).toEqual(example.answers);
    for (const a of r.example.answers) expect(r.example.context.slice(a.start, a.start + a.text.length)).toBe(a.text);
    expect(r.edits).toEqual([
      { type: 'distraction:addany', field: 'context', wordIndex: 10, start: CONTEXT.length, before: '', after: ` ${r.sentence}` },
    ]);
  });

  it('without the early stop spends the whole budget: 6 rounds of 10 steps, one model batch per step', async () => {
    const { r, model } = await run('addany', { stopAtZero: false });
    expect([r.rounds, r.steps, r.stoppedEarly, r.distractor.length]).toEqual([6, 60, false, 10]);
    expect(r.trace.map((t) => [t.round, t.steps])).toEqual([1, 2, 3, 4, 5, 6].map((k) => [k, 10]));
    // Past 5 question words the answer is wrong (F1 0) and the search lowers the expected F1 until the gold span's
    // score is 0 (p = 0.9 − 0.1 · 9); a 10th question word leaves it at 0: not lower, so it is not taken.
    expect(r.distractor).toEqual(['which', 'which', 'which', 'which', 'which', 'tunnel', 'which', 'which', 'which', 'which']);
    expect(r.attacked).toEqual({ answer: 'which', em: 0, f1: 0, expectedF1: 0 });
    // At most one call per step after the first; a step whose candidates were all asked before needs none.
    expect(model.calls.length).toBe(49);
    // Every step tries 20 common words and whichever of the 6 question words were not sampled (none are in POOL).
    expect(r.requests).toBe(2 + 60 * 26);
    expect(r.queries + r.cacheHits).toBe(r.requests);
    expect(r.queries).toBe(new Set(distractors(model.calls).map((d) => d.join(' '))).size + 1);
  });
});

describe('AddCommon on the mock model (seed 0)', () => {
  it('finds no common word that moves the model: keeps the initial distractor through 6 × 10 steps of 20', async () => {
    const { r } = await run('addcommon');
    expect(r.distractor).toEqual(['candle', 'violin', 'cloud', 'yellow', 'window', 'tunnel', 'island', 'apple', 'wagon', 'basket']);
    expect(r.attacked).toEqual(r.initial);
    expect([r.rounds, r.steps, r.stoppedEarly]).toEqual([6, 60, false]);
    expect([r.requests, r.queries, r.cacheHits]).toEqual([2 + 6 * 10 * 20, 292, 910]);
    expect(r.trace.map((t) => t.queries)).toEqual([195, 251, 281, 288, 292, 292]);
  });

  it('starts from the same random distractor as AddAny for the same seed; another seed, another one', async () => {
    const [any, common, other] = await Promise.all([
      run('addany', { rounds: 0 }),
      run('addcommon', { rounds: 0 }),
      run('addcommon', { rounds: 0, seed: 1 }),
    ]);
    expect(any.r.distractor).toEqual(common.r.distractor);
    expect(other.r.distractor).not.toEqual(common.r.distractor);
    expect([common.r.rounds, common.r.steps, common.r.requests]).toEqual([0, 0, 2]);
  });

  it('left-to-right order visits positions 0…9 in every round', async () => {
    const { model } = await run('addcommon', { rounds: 1, order: 'left-to-right', commonWords: commonWords() });
    const visited = model.calls.slice(1).map((call) => {
      const cands = distractors([call]);
      return cands[0]!.findIndex((_, i) => new Set(cands.map((c) => c[i])).size > 1);
    });
    expect(visited).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('cross-example batching', () => {
  const examples: QaExample[] = [0, 1, 2].map((k) => ({
    ...example,
    id: `q${k}`,
    question: `Which city hosted the final match number ${k}?`,
  }));

  it('one model call per step for all questions in flight; one per question per step without; same outcomes', async () => {
    const outcomes: AddAnyOutcome[][] = [];
    const calls: number[] = [];
    for (const concurrency of [3, 1]) {
      const model = counting(mockQaModel(examples));
      outcomes.push(
        await runAddAny(examples, new QueryEngine(model), {
          variant: 'addcommon',
          commonWords: commonWords(),
          rounds: 2,
          stopAtZero: false,
          concurrency,
        }),
      );
      calls.push(model.calls.length);
    }
    // 1 call for the clean + initial queries, then 2 rounds × 10 steps.
    expect(calls).toEqual([1 + 2 * 10, 3 * (1 + 2 * 10)]);
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]!.map((o) => (o as AddAnyResult).requests)).toEqual([2 + 2 * 10 * 20, 2 + 2 * 10 * 20, 2 + 2 * 10 * 20]);
  });
});

describe('runAddAny errors', () => {
  it('a failing example source or model stops the run with its error', async () => {
    async function* source(): AsyncGenerator<QaExample> {
      yield example;
      throw new Error('source broke');
    }
    const opts = { variant: 'addany', commonWords: POOL, rounds: 0 } as const;
    await expect(runAddAny(source(), new QueryEngine(mockQaModel([example])), opts)).rejects.toThrow('source broke');
    const down = createFunctionModel(() => Promise.reject(new Error('down')), { id: 'down', task: 'question-answering' });
    await expect(runAddAny([example, example], new QueryEngine(down), opts)).rejects.toThrow(
      'the model function function:down failed: down',
    );
  });
});

describe('questions the generator cannot use', () => {
  const model = () => counting(mockQaModel([example]));

  it.each([
    ['an empty context', { context: '', answers: [] }, 'the context has no words'],
    ['a context of punctuation only', { context: '— … —', answers: [] }, 'the context has no words'],
    ['no gold answer', { answers: [] }, 'the question has no gold answer'],
  ])('%s is a counted skip with its reason, and no query', async (_, change, reason) => {
    const m = model();
    const out = await runAddAny([{ ...example, ...change }, example], new QueryEngine(m), {
      variant: 'addany',
      commonWords: POOL,
      rounds: 0,
    });
    expect(out[0]).toEqual({ status: 'skipped', id: 'q1', variant: 'addany', skipReason: reason });
    expect(m.calls.flat().length).toBe(2);
    const s = summarizeAddAny(out);
    expect([s.questions, s.attacked, s.skipped, s.skipReasons]).toEqual([2, 1, 1, { [reason]: 1 }]);
  });

  it('all skipped: the EM/F1 means are null, not 0', () => {
    const s = summarizeAddAny([{ status: 'skipped', id: 'x', variant: 'addcommon', skipReason: 'the context has no words' }]);
    expect([s.original, s.adversarial, s.queriesPerQuestion]).toEqual([null, null, null]);
  });

  it('an answer not at its offset is an error naming the example', async () => {
    const bad = { ...example, answers: [{ text: 'Geneva', start: 31 }] };
    const err = await addAnyExample(bad, new QueryEngine(model()).session(), { variant: 'addcommon', commonWords: POOL }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TextstressError);
    expect((err as TextstressError).describe()).toBe(
      'QA example q1: answer 1 is "Geneva" but the context at offset 31 reads "eneva,". Fix the answer offset ' +
        '(answer_start) in the data; the AddCommon test needs each gold answer at its offset.',
    );
  });

  it('options are checked: a pool smaller than a step, a word with a space, a bad count', async () => {
    const session = new QueryEngine(model()).session();
    const msg = (opts: object) => addAnyExample(example, session, { variant: 'addany', ...opts }).catch((e: TextstressError) => e.message);
    expect(await msg({ commonWords: POOL.slice(0, 12) })).toBe(
      'the common words must be distinct and at least 20 (the larger of words and candidates), got 12 (12 distinct).',
    );
    expect(await msg({ commonWords: [...POOL, 'two words'] })).toBe('the common word "two words" is not one word.');
    expect(await msg({ rounds: -1 })).toBe('rounds must be an integer of at least 0, got -1.');
  });
});
