/**
 * Algorithm 2's bandit on known cases: the paper's update (20% worse, 10% better on B = 50 sentences → α + 5,
 * β + 45), the clamp at zero net harm, seeded Thompson draws (same seed, same ranking), the ranking rule, and
 * metrics over zero examples (n/a, never 0).
 */
import { describe, expect, it } from 'vitest';
import { splitMetrics } from '../../../src/families/entities/universal-names/evaluate.ts';
import {
  netHarm,
  newArm,
  posteriorMean,
  rankArms,
  thompsonDraws,
  topK,
  updateArm,
  type Arm,
} from '../../../src/families/entities/universal-names/search.ts';
import { meanOf } from '../../../src/families/entities/universal-names/tables.ts';
import { Rng } from '../../../src/util/rng.ts';

describe('the Beta update', () => {
  it("moves Beta(1, 1) to Beta(6, 46) when 20% of B = 50 sentences get worse and 10% better (the paper's example)", () => {
    const arm = updateArm(newArm('Ada'), { n: 50, worse: 10, better: 5 });
    expect(netHarm({ n: 50, worse: 10, better: 5 })).toBe(0.1);
    expect(arm).toEqual({ name: 'Ada', alpha: 6, beta: 46, evaluated: 1, sentences: 50, worse: 10, better: 5 });
    expect(posteriorMean(arm)).toBe(6 / 52);
  });

  it('adds all B to β when a name helps more than it hurts (net clamped at 0), and accumulates over evaluations', () => {
    const once = updateArm(newArm('Bo'), { n: 50, worse: 5, better: 10 });
    expect(once).toMatchObject({ alpha: 1, beta: 51 });
    const twice = updateArm(once, { n: 20, worse: 10, better: 0 });
    expect(twice).toEqual({ name: 'Bo', alpha: 11, beta: 61, evaluated: 2, sentences: 70, worse: 15, better: 10 });
  });

  it('uses the sentences actually evaluated (a split smaller than B) and leaves the posterior alone over zero sentences', () => {
    expect(updateArm(newArm('Cy'), { n: 4, worse: 2, better: 1 })).toMatchObject({ alpha: 2, beta: 4 });
    expect(updateArm(newArm('Di'), { n: 0, worse: 0, better: 0 })).toMatchObject({ alpha: 1, beta: 1, evaluated: 1 });
  });
});

describe('Thompson sampling', () => {
  const arms: Arm[] = [
    { ...newArm('a'), alpha: 30, beta: 10, evaluated: 3 },
    { ...newArm('b'), alpha: 2, beta: 40, evaluated: 3 },
    newArm('c'),
    { ...newArm('d'), alpha: 10, beta: 10, evaluated: 1 },
  ];

  it('draws the same θ for the same seed, other θ for another seed', () => {
    const one = thompsonDraws(arms, Rng.derive(7, 'round'));
    expect(thompsonDraws(arms, Rng.derive(7, 'round'))).toEqual(one);
    expect(thompsonDraws(arms, Rng.derive(8, 'round'))).not.toEqual(one);
    for (const theta of one) {
      expect(theta).toBeGreaterThan(0);
      expect(theta).toBeLessThan(1);
    }
  });

  it('picks the top k by θ, largest first, ties to the earlier arm', () => {
    expect(topK([0.2, 0.9, 0.5, 0.9], 3)).toEqual([1, 3, 2]);
    expect(topK([0.2], 5)).toEqual([0]);
  });

  it('always picks, over 200 seeded rounds, the arm with the highest posterior (Beta(30, 10) against Beta(2, 40))', () => {
    let a = 0;
    for (let r = 0; r < 200; r++) if (topK(thompsonDraws(arms.slice(0, 2), Rng.derive(1, r)), 1)[0] === 0) a++;
    expect(a).toBe(200);
  });

  it('ranks evaluated names by posterior mean and never-evaluated names (prior 1/2) after them', () => {
    expect(rankArms(arms).map((x) => x.name)).toEqual(['a', 'd', 'b', 'c']);
  });
});

describe('metrics over zero examples', () => {
  it('are null (n/a), never 0 or 100%', () => {
    expect(splitMetrics([], 'text')).toEqual({ n: 0, metric: null, accuracy: null });
    expect(splitMetrics([], 'tokens')).toEqual({ n: 0, metric: null, accuracy: null });
    expect(splitMetrics([], 'qa')).toEqual({ n: 0, metric: null, accuracy: null, em: null });
    expect(meanOf([])).toBeNull();
    expect(meanOf([null, 0.5, null, 0.25])).toBe(0.375);
  });

  it('a tagger split scores corpus entity F1 from the summed counts', () => {
    const m = splitMetrics(
      [
        { metric: 1, correct: true, entities: { tp: 2, fp: 0, fn: 0 } },
        { metric: 0, correct: false, entities: { tp: 0, fp: 1, fn: 1 } },
      ],
      'tokens',
    );
    expect(m).toEqual({ n: 2, metric: 4 / 6, accuracy: 0.5 });
  });
});
