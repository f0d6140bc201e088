/** EFSG's operators (src/families/fooling/efsg): exact expectations with fixed seeds, and a statistical check of selection. */
import { describe, expect, it } from 'vitest';
import {
  buildVocabulary,
  crossover,
  drawWord,
  initPopulation,
  mutate,
  nextGeneration,
  ParentSelector,
  quantile,
  targetClass,
  thresholdAt,
  wordsOf,
} from '../../src/families/fooling/efsg/index.ts';
import { Rng } from '../../src/util/rng.ts';

const vocab = buildVocabulary(['the film is good .', 'the plot , the cast -- and the end !', 'a dull film']);

describe('D_task', () => {
  it('counts words with punctuation removed, most frequent first, ties in code-point order', () => {
    expect(wordsOf('it \'s a "charming" , funny film ... (really)')).toEqual(['it', 's', 'a', 'charming', 'funny', 'film', 'really']);
    expect(vocab.words).toEqual(['the', 'film', 'a', 'and', 'cast', 'dull', 'end', 'good', 'is', 'plot']);
    expect(vocab.counts).toEqual([4, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(vocab.total).toBe(14);
  });

  it('draws in proportion to frequency', () => {
    const rng = new Rng(1);
    let the = 0;
    for (let i = 0; i < 30_000; i++) if (drawWord(vocab, rng) === 'the') the++;
    expect(Math.abs(the / 30_000 - 4 / 14)).toBeLessThan(0.01);
  });
});

describe('mutation', () => {
  it('keeps the length and changes exactly one position, for many seeds', () => {
    const parent = ['the', 'film', 'is', 'good', 'the', 'end'];
    for (let seed = 0; seed < 500; seed++) {
      const child = mutate(parent, vocab, new Rng(seed));
      expect(child).toHaveLength(parent.length);
      expect(child.filter((w, i) => w !== parent[i])).toHaveLength(1);
    }
    expect(parent).toEqual(['the', 'film', 'is', 'good', 'the', 'end']);
  });

  it('is reproducible from the seed', () => {
    expect(mutate(['the', 'film', 'is', 'good'], vocab, new Rng(7))).toEqual(mutate(['the', 'film', 'is', 'good'], vocab, new Rng(7)));
  });
});

describe('crossover', () => {
  it('takes every position from one of the two parents, and both parents contribute', () => {
    const a = Array.from({ length: 40 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 40 }, (_, i) => `b${i}`);
    const child = crossover(a, b, new Rng(3));
    expect(child).toHaveLength(40);
    child.forEach((w, i) => expect([a[i], b[i]]).toContain(w));
    const fromA = child.filter((w, i) => w === a[i]).length;
    expect(fromA).toBeGreaterThan(10);
    expect(fromA).toBeLessThan(30);
  });

  it('takes each position from parent 1 with probability ½', () => {
    const rng = new Rng(11);
    let fromA = 0;
    for (let i = 0; i < 20_000; i++) if (crossover(['x'], ['y'], rng)[0] === 'x') fromA++;
    expect(Math.abs(fromA / 20_000 - 0.5)).toBeLessThan(0.01);
  });
});

describe('selection', () => {
  it('draws parents in proportion to their scores (100k draws, seed 0)', () => {
    const select = new ParentSelector([1, 2, 3, 4]);
    const rng = new Rng(0);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 100_000; i++) counts[select.draw(rng)]!++;
    counts.forEach((c, i) => expect(Math.abs(c / 100_000 - (i + 1) / 10)).toBeLessThan(0.01));
  });

  it('never picks a zero-score parent while another scores, and is uniform when all score 0', () => {
    const rng = new Rng(5);
    const select = new ParentSelector([0, 0.5, 0]);
    for (let i = 0; i < 1000; i++) expect(select.draw(rng)).toBe(1);
    const flat = new ParentSelector([0, 0, 0, 0]);
    const seen = new Set(Array.from({ length: 200 }, () => flat.draw(rng)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('populations', () => {
  it('starts from N mutants of one random sentence', () => {
    const pop = initPopulation(vocab, 50, 6, new Rng(2));
    expect(pop).toHaveLength(50);
    // Every pair of mutants of one ancestor differs in at most two positions.
    for (const p of pop) for (const q of pop) expect(p.filter((w, i) => w !== q[i]).length).toBeLessThanOrEqual(2);
  });

  it('breeds N children of the same length; without crossover each child is one parent with one word changed', () => {
    const pop = [
      ['the', 'film', 'is', 'good'],
      ['a', 'dull', 'plot', 'end'],
    ];
    const next = nextGeneration(pop, [0, 1], vocab, false, new Rng(4));
    expect(next).toHaveLength(2);
    // Only the second member scores, so every child is it with one word changed.
    for (const c of next) expect(c.filter((w, i) => w !== pop[1]![i])).toHaveLength(1);
    const mixed = nextGeneration(pop, [1, 1], vocab, true, new Rng(4));
    for (const c of mixed) expect(c).toHaveLength(4);
  });
});

describe('T_task', () => {
  it('is the 25th percentile of the positive scores with share 0.75 (linear interpolation)', () => {
    const scores = [0.9, 0.1, 0.5, 0.7, 0.3];
    // Sorted 0.1 0.3 0.5 0.7 0.9: h = 4 × 0.25 = 1 → 0.3.
    expect(thresholdAt(scores, 0.75)).toBeCloseTo(0.3, 12);
    expect(thresholdAt([0.2, 0.4, 0.6, 0.8], 0.75)).toBeCloseTo(0.35, 12); // h = 0.75 → 0.2 + 0.75 × 0.2
    expect(thresholdAt([0.2, 0.4, 0.6, 0.8], 0.5)).toBeCloseTo(0.5, 12);
    expect(quantile([3], 0.25)).toBe(3);
    const t = thresholdAt(scores, 0.75);
    expect(scores.filter((s) => s > t).length / scores.length).toBeCloseTo(0.6, 12); // 3 of 5 strictly above
  });

  it('refuses no scores and shares outside (0, 1)', () => {
    expect(() => thresholdAt([], 0.75)).toThrow(/no values/);
    expect(() => thresholdAt([0.5], 1)).toThrow(/\(0, 1\)/);
  });
});

describe('target class', () => {
  it('picks the positive class of binary models and needs --target otherwise', () => {
    expect(targetClass(['negative', 'positive'], null, 'm')).toEqual({ index: 1, label: 'positive' });
    expect(targetClass(['entailment', 'not_entailment'], null, 'm')).toEqual({ index: 0, label: 'entailment' });
    expect(targetClass(['unacceptable', 'acceptable'], null, 'm')).toEqual({ index: 1, label: 'acceptable' });
    expect(targetClass(['LABEL_0', 'LABEL_1'], null, 'm')).toEqual({ index: 1, label: 'LABEL_1' });
    expect(targetClass(['entailment', 'neutral', 'contradiction'], 'Neutral', 'm')).toEqual({ index: 1, label: 'neutral' });
    expect(() => targetClass(['entailment', 'neutral', 'contradiction'], null, 'm')).toThrow(/3 classes/);
    expect(() => targetClass(['negative', 'positive'], 'happy', 'm')).toThrow(/no class "happy"/);
  });
});

describe('target score', () => {
  it('reads the target class by name from the answer, whatever order its labels come in', async () => {
    const { targetScore } = await import('../../src/families/fooling/generator.ts');
    const target = { index: 1, label: 'positive' };
    expect(targetScore({ kind: 'classes', labels: ['negative', 'positive'], probs: [0.2, 0.8] }, target)).toBe(0.8);
    expect(targetScore({ kind: 'classes', labels: ['positive', 'negative'], probs: [0.7, 0.3] }, target)).toBe(0.7);
    expect(() => targetScore({ kind: 'tags', tags: ['O'], scores: [1] }, target)).toThrow(/needs class probabilities/);
  });
});
