import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/util/rng.ts';

describe('Rng', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xs);
    expect(new Rng(43).nextUint32()).not.toBe(xs[0]);
  });

  it('derives independent streams per label', () => {
    expect(Rng.derive(0, 'ex-1').next()).toBe(Rng.derive(0, 'ex-1').next());
    expect(Rng.derive(0, 'ex-1').next()).not.toBe(Rng.derive(0, 'ex-2').next());
  });

  it('shuffles, samples and picks by weight within range', () => {
    const r = new Rng('s');
    const shuffled = r.shuffle([1, 2, 3, 4, 5]);
    expect([...shuffled].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(r.sample([1, 2, 3], 2)).toHaveLength(2);
    for (let i = 0; i < 50; i++) expect(r.weighted([0, 1, 0])).toBe(1);
    for (let i = 0; i < 50; i++) expect(r.int(3)).toBeLessThan(3);
  });
});
