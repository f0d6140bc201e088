import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { minWordLength, noRepeatEdits, type Constraint } from '../../src/core/constraints.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { GreedyWordSwapWIR, rankByWir, softmax, type WirOptions } from '../../src/core/search/greedy-wir.ts';
import type { SearchContext, SearchMethod } from '../../src/core/search/types.ts';
import { applyCandidate, initialState } from '../../src/core/state.ts';
import { composite, type Transformation } from '../../src/core/transformation.ts';
import type { TextExample } from '../../src/data/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel, twoTypos } from './helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));
const example: TextExample = { kind: 'text', id: 'e1', text: 'a good and nice film', label: 'positive' };

// lexiconModel: P(positive) = (1 + 2g) / (2 + 2g + 0.1·words), g = #good + 0.5·#nice; the goal score is 1 − P(positive).
const p = (g: number, words: number): number => (1 + 2 * g) / (2 + 2 * g + 0.1 * words);
const score = (g: number, words = 5): number => 1 - p(g, words);

function attack(search: SearchMethod, transformation: Transformation = twoTypos, constraints: Constraint[] = []): Attack {
  return { name: 'test', transformation, constraints: [noRepeatEdits, minWordLength(2), ...constraints], goal, search };
}

/** Runs `rankByWir` inside a real attack (the search is the ranking), returning what it saw. */
async function rank(opts: WirOptions, seed = 0): Promise<{ order: string[]; importance: Map<string, number> }> {
  let out: { order: string[]; importance: Map<string, number> } | undefined;
  const probe: SearchMethod = {
    name: 'rank-only',
    async search(ctx: SearchContext) {
      const r = await rankByWir(ctx, opts);
      const w = (i: number): string => ctx.initial.state.seq.words[i]!;
      out = { order: r.order.map(w), importance: new Map([...r.importance].map(([i, v]) => [w(i), v])) };
      return { final: ctx.initial, trace: [] };
    },
  };
  await attackExample(attack(probe), example, new QueryEngine(lexiconModel).session(), new Rng(seed));
  return out!;
}

describe('word-importance ranking (TextAttack WIR methods)', () => {
  it('unk: the goal score with the word replaced by [UNK] (word count kept), descending, ties in text order', async () => {
    const r = await rank({ method: 'unk' });
    expect(r.order).toEqual(['good', 'nice', 'and', 'film']);
    expect(r.importance.get('good')).toBeCloseTo(score(0.5), 12);
    expect(r.importance.get('nice')).toBeCloseTo(score(1), 12);
    expect(r.importance.get('and')).toBeCloseTo(score(1.5), 12);
  });

  it('delete: the goal score with the word removed (one word fewer)', async () => {
    const r = await rank({ method: 'delete' });
    expect(r.order).toEqual(['good', 'nice', 'and', 'film']);
    expect(r.importance.get('good')).toBeCloseTo(score(0.5, 4), 12);
    expect(r.importance.get('film')).toBeCloseTo(score(1.5, 4), 12);
  });

  it('weighted-saliency (PWWS): softmax of the [UNK] saliencies × the best swap’s ΔP', async () => {
    const gain = await rank({ method: 'weighted-saliency' });
    const sal = [score(0.5), score(1.5), score(1), score(1.5)]; // good, and, nice, film
    const w = softmax(sal);
    // good: both typos remove it (g 1.5 → 0.5); nice: g → 1; "and"/"film": no change, ΔP = 0.
    expect(gain.importance.get('good')).toBeCloseTo(w[0]! * (score(0.5) - score(1.5)), 12);
    expect(gain.importance.get('nice')).toBeCloseTo(w[2]! * (score(1) - score(1.5)), 12);
    expect(gain.importance.get('and')).toBe(0);
    expect(gain.order).toEqual(['good', 'nice', 'and', 'film']);
    // TextAttack's code multiplies by the best swap's score itself, not its gain.
    const ta = await rank({ method: 'weighted-saliency', deltaP: 'score' });
    expect(ta.importance.get('and')).toBeCloseTo(w[1]! * score(1.5), 12);
    expect(ta.importance.get('good')).toBeCloseTo(w[0]! * score(0.5), 12);
  });

  it('random: a seeded shuffle of the editable words', async () => {
    const a = await rank({ method: 'random' }, 3);
    expect(a.order).toEqual((await rank({ method: 'random' }, 3)).order);
    expect([...a.order].sort()).toEqual(['and', 'film', 'good', 'nice']);
    expect(a.importance.size).toBe(0);
  });

  it('softmax is max-shifted and sums to 1', () => {
    const s = softmax([1000, 1000, 999]);
    expect(s.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    expect(s[0]).toBeCloseTo(1 / (2 + Math.exp(-1)), 12);
    expect(softmax([])).toEqual([]);
  });
});

describe('GreedyWordSwapWIR (TextAttack’s greedy search)', () => {
  it('visits words in WIR order, keeps the best candidate and stops at the flip', async () => {
    const r = await attackExample(
      attack(new GreedyWordSwapWIR({ method: 'unk' })),
      example,
      new QueryEngine(lexiconModel).session(),
      new Rng(0),
    );
    expect(r.status).toBe('succeeded');
    expect(r.perturbed.text).toBe('a goo and nic film');
    expect(r.trace.map((t) => t.edits)).toEqual([1, 2]);
    // TextAttack counts every text asked for: 1 clean + 4 [UNK] copies + 2 candidates at each of 2 words.
    expect(r.requests).toBe(1 + 4 + 4);
  });

  it('does not take a step that would not raise the goal score', async () => {
    // At "nice" the only candidate is "good" (raises P(positive)); at "good" deleting a letter helps.
    const mixed: Transformation = {
      name: 'mixed',
      candidates: (state, indices) =>
        indices.flatMap((i) => {
          const w = state.seq.words[i]!;
          if (w === 'nice') return [{ wordIndex: i, after: 'good', type: 'toy:better' }];
          return w === 'good' ? [{ wordIndex: i, after: 'goo', type: 'toy:drop' }] : [];
        }),
    };
    const r = await attackExample(
      attack(new GreedyWordSwapWIR({ method: 'unk' }), mixed),
      example,
      new QueryEngine(lexiconModel).session(),
      new Rng(0),
    );
    expect(r.status).toBe('failed');
    expect(r.edits.map((e) => e.after)).toEqual(['goo']);
  });

  it('among successful candidates of the last step, takes the one a batched constraint finds most similar', async () => {
    const two: Transformation = {
      name: 'two',
      candidates: (state, indices) =>
        indices.flatMap((i) =>
          state.seq.words[i] === 'good'
            ? [
                { wordIndex: i, after: 'bad', type: 'toy:a' },
                { wordIndex: i, after: 'poor', type: 'toy:b' },
              ]
            : [],
        ),
    };
    const similar: Constraint = {
      name: 'similar',
      acceptsAll: async (states) => states.map((s) => ({ ok: true, similarity: s.seq.words.includes('poor') ? 0.9 : 0.5 })),
    };
    // With "nice" gone too both candidates flip the label; they score the same, "bad" comes first, "poor" is more similar.
    const ex: TextExample = { ...example, text: 'a good film' };
    const r = await attackExample(
      attack(new GreedyWordSwapWIR({ method: 'unk' }), two, [similar]),
      ex,
      new QueryEngine(lexiconModel).session(),
      new Rng(0),
    );
    expect(r.perturbed.text).toBe('a poor film');
  });

  it('a synchronous search refuses an attack with a batched constraint, naming both', async () => {
    const slow: Constraint = { name: 'encoder', acceptsAll: async (s) => s.map(() => ({ ok: true })) };
    const { GreedyWordSearch } = await import('../../src/core/search/greedy-word.ts');
    await expect(
      attackExample(attack(new GreedyWordSearch('max'), twoTypos, [slow]), example, new QueryEngine(lexiconModel).session(), new Rng(0)),
    ).rejects.toThrow(/encoder is asynchronous: attack test needs a search that awaits candidates \(greedy-word\(max\) does not\)/);
  });
});

describe('transformation hooks', () => {
  it('composite: parts in order; prepare binds each part to the example once; candidatesAsync is awaited', async () => {
    const prepared: string[] = [];
    const perExample: Transformation = {
      name: 'per-example',
      candidates: () => {
        throw new Error('not prepared');
      },
      prepare: async (subject) => {
        prepared.push(subject.original.toString());
        return { name: 'bound', candidates: (_s, indices) => indices.map((i) => ({ wordIndex: i, after: 'bound', type: 'toy:bound' })) };
      },
    };
    const later: Transformation = {
      name: 'async',
      candidates: () => [],
      candidatesAsync: async (_s, indices) => indices.map((i) => ({ wordIndex: i, after: 'later', type: 'toy:async' })),
    };
    const both = composite('both', [perExample, later]);
    const seen: string[][] = [];
    const search: SearchMethod = {
      name: 'peek',
      async search(ctx) {
        seen.push((await ctx.expandAsync(ctx.initial.state, [1])).map((x) => x.candidate.after));
        return { final: ctx.initial, trace: [] };
      },
    };
    await attackExample(attack(search, both), example, new QueryEngine(lexiconModel).session(), new Rng(0));
    expect(prepared).toEqual(['a good and nice film']);
    expect(seen).toEqual([['bound', 'later']]);
  });
});

describe('span replacements (CheckList: "do not" → "don\'t", "New York" → "Paris")', () => {
  it('replace words i … i + span − 1 by one text; later words move up; origin and modified follow', () => {
    const s0 = initialState(WordSeq.parse('I do not like New York, really.'));
    const s1 = applyCandidate(s0, { wordIndex: 1, after: "don't", type: 'checklist:contract', span: 2 }, 'text');
    expect(s1.seq.toString()).toBe("I don't like New York, really.");
    expect(s1.edits).toEqual([{ type: 'checklist:contract', field: 'text', wordIndex: 1, start: 2, before: 'do not', after: "don't" }]);
    expect([...s1.modified]).toEqual([1]);
    expect(s1.origin).toEqual([0, 1, 3, 4, 5, 6]);
    const s2 = applyCandidate(s1, { wordIndex: 3, after: 'Paris', type: 'checklist:location', span: 2 }, 'text');
    expect(s2.seq.toString()).toBe("I don't like Paris, really.");
    expect([...s2.modified].sort()).toEqual([1, 3]);
    expect(s2.origin).toEqual([0, 1, 3, 4, 6]);
    expect(s2.edits[1]).toMatchObject({ wordIndex: 3, start: 13, before: 'New York', after: 'Paris' });
    const s3 = applyCandidate(s2, { wordIndex: 1, after: 'do not', type: 'checklist:expand' }, 'text');
    expect(s3.seq.toString()).toBe('I do not like Paris, really.');
  });
});
