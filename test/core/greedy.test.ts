import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { editZone, maxEdits, minWordLength, noRepeatEdits, protectWords } from '../../src/core/constraints.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { GreedyWordSearch } from '../../src/core/search/greedy-word.ts';
import type { WordTarget } from '../../src/core/search/word-importance.ts';
import type { TextExample } from '../../src/data/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { Rng } from '../../src/util/rng.ts';
import type { Transformation } from '../../src/core/transformation.ts';
import { lexiconModel, twoTypos } from './helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));

function attack(
  target: WordTarget,
  k: number,
  protect: string[] = [],
  opts: { words?: number; transformation?: Transformation } = {},
): Attack {
  return {
    name: 'test',
    transformation: opts.transformation ?? twoTypos,
    constraints: [editZone(), noRepeatEdits, maxEdits(k), minWordLength(2), protectWords(protect)],
    goal,
    search: new GreedyWordSearch(target, opts.words === undefined ? {} : { words: opts.words }),
  };
}

/** twoTypos, except that "good" gets no candidates (as a word a typo source has nothing for). */
const noTyposForGood: Transformation = {
  name: 'two-typos-but-good',
  candidates: (state, indices, rng) =>
    twoTypos.candidates(
      state,
      indices.filter((i) => state.seq.words[i] !== 'good'),
      rng,
    ),
};

const example: TextExample = { kind: 'text', id: 'e1', text: 'a good and nice film', label: 'positive' };

describe('GreedyWordSearch (Adv-BERT Algorithm 1)', () => {
  it('puts typos into the most important words first and stops at the flip', async () => {
    const engine = new QueryEngine(lexiconModel);
    const r = await attackExample(attack('max', 5), example, engine.session(), new Rng(0));
    expect(r.status).toBe('succeeded');
    // "good" matters most, then "nice"; each typo removes the word's positive weight.
    // Both candidates remove the word's weight equally; ties keep the first proposed.
    expect(r.edits.map((e) => [e.before, e.after, e.type])).toEqual([
      ['good', 'goo', 'typo:drop-last'],
      ['nice', 'nic', 'typo:drop-last'],
    ]);
    expect(r.edits.map((e) => e.start)).toEqual([2, 10]);
    expect(r.perturbed.text).toBe('a goo and nic film');
    expect(r.perturbed_prediction.label).toBe('negative');
    expect(r.trace.map((t) => t.edits)).toEqual([1, 2]);
    expect(r.trace.map((t) => t.correct)).toEqual([true, false]);
    expect(r.words_perturbed).toBe(2);
    expect(r.perturbed_word_pct).toBe(40);
  });

  it('with min-importance targeting, edits unimportant words and fails within the budget', async () => {
    const engine = new QueryEngine(lexiconModel);
    const r = await attackExample(attack('min', 2), example, engine.session(), new Rng(0));
    expect(r.status).toBe('failed');
    expect(r.edits.map((e) => e.before)).toEqual(['and', 'film']);
    expect(r.perturbed_prediction.label).toBe('positive');
  });

  it('random targeting is reproducible per seed', async () => {
    const engine = new QueryEngine(lexiconModel);
    const run = async (seed: number): Promise<string[]> =>
      (await attackExample(attack('random', 3), example, engine.session(), new Rng(seed))).edits.map((e) => e.before);
    expect(await run(7)).toEqual(await run(7));
    const orders = new Set(await Promise.all([1, 2, 3, 4, 5, 6].map(async (s) => (await run(s)).join(' '))));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('never touches protected words and skips examples the model already gets wrong', async () => {
    const engine = new QueryEngine(lexiconModel);
    const r = await attackExample(attack('max', 5, ['good']), example, engine.session(), new Rng(0));
    expect(r.edits.map((e) => e.before)).not.toContain('good');
    const wrong = await attackExample(attack('max', 5), { ...example, label: 'negative' }, engine.session(), new Rng(0));
    expect(wrong.status).toBe('skipped');
    expect(wrong.edits).toEqual([]);
    expect(wrong.queries).toBe(1);
  });

  it('counts the queries of the attack: clean + occlusion + candidates per step', async () => {
    const engine = new QueryEngine(lexiconModel);
    const r = await attackExample(attack('max', 5), example, engine.session(), new Rng(0));
    // 1 clean + 4 occlusions (words of ≥ 2 letters) + 2 candidates × 2 steps
    expect(r.queries).toBe(1 + 4 + 4);
  });

  it('by default passes over a word without candidates: the K typos go to the first K words that take one', async () => {
    const engine = new QueryEngine(lexiconModel);
    const r = await attackExample(attack('max', 1, [], { transformation: noTyposForGood }), example, engine.session(), new Rng(0));
    // "good" is the most important word but has no typo, so its K goes to "nice"
    expect(r.edits.map((e) => [e.before, e.after])).toEqual([['nice', 'nic']]);
    expect(r.trace.map((t) => t.edits)).toEqual([1]);
  });

  it('top-K mode (words: K) visits only the K most important words; one without candidates uses up its place', async () => {
    const engine = new QueryEngine(lexiconModel);
    const top1 = await attackExample(
      attack('max', 1, [], { transformation: noTyposForGood, words: 1 }),
      example,
      engine.session(),
      new Rng(0),
    );
    expect(top1.status).toBe('failed');
    expect(top1.edits).toEqual([]);
    // one trace point per visited word, the unchanged state for "good"
    expect(top1.trace.map((t) => [t.edits, t.correct])).toEqual([[0, true]]);
    // 1 clean + 4 occlusions, no candidate queries
    expect(top1.queries).toBe(5);
    const top3 = await attackExample(
      attack('max', 3, [], { transformation: noTyposForGood, words: 3 }),
      example,
      engine.session(),
      new Rng(0),
    );
    // order: good (no typo), nice, then "and" (ties with "film" broken by text order)
    expect(top3.edits.map((e) => [e.before, e.after])).toEqual([
      ['nice', 'nic'],
      ['and', 'an'],
    ]);
    expect(top3.trace.map((t) => t.edits)).toEqual([0, 1, 2]);
    expect(new GreedyWordSearch('max', { words: 3 }).name).toBe('greedy-word(max, top 3)');
  });

  it('occludes a word only once it offers an edit, where the transformation draws nothing: same walk, fewer queries', async () => {
    // "good" offers typos only once "nice" is gone, "film" only when "nice" no longer precedes it, "and" never.
    const contextual: Transformation = {
      name: 'contextual',
      deterministic: true,
      candidates: (state, indices, rng) =>
        twoTypos.candidates(
          state,
          indices.filter((i) => {
            const w = state.seq.words;
            if (w[i] === 'nice') return true;
            if (w[i] === 'good') return !w.includes('nice');
            return w[i] === 'film' && w[i - 1] !== 'nice';
          }),
          rng,
        ),
    };
    const { deterministic: _d, ...drawing } = contextual;
    const engine = new QueryEngine(lexiconModel);
    const lazy = await attackExample(attack('max', 2, [], { transformation: contextual }), example, engine.session(), new Rng(0));
    const full = await attackExample(attack('max', 2, [], { transformation: drawing }), example, engine.session(), new Rng(0));
    // Order: good, nice, and, film. "good" is passed over (no typo while "nice" stands); "nice" takes one; then "film".
    expect(full.edits.map((e) => [e.before, e.after])).toEqual([
      ['nice', 'nic'],
      ['film', 'fil'],
    ]);
    expect({ ...lazy, queries: 0, requests: 0 }).toEqual({ ...full, queries: 0, requests: 0 });
    // Full: 1 clean + 4 occlusions + 2 × 2 candidates. Lazy: "nice" occluded first; "good" and "film" once "nice" is
    // edited ("good" then ranks before the walk's place: passed over, as in the full walk); "and" never.
    expect([full.queries, lazy.queries]).toEqual([9, 8]);
  });

  it('top-K mode equals the default when every word has candidates', async () => {
    const engine = new QueryEngine(lexiconModel);
    const a = await attackExample(attack('max', 2), example, engine.session(), new Rng(0));
    const b = await attackExample(attack('max', 2, [], { words: 2 }), example, engine.session(), new Rng(0));
    expect(b.edits).toEqual(a.edits);
    expect(b.trace).toEqual(a.trace);
  });
});
