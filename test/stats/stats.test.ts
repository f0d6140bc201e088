import { describe, expect, it } from 'vitest';
import {
  bootstrap,
  bootstrapMean,
  holm,
  mcnemarExact,
  mean,
  pairedBootstrap,
  pairedCounts,
  sameValueBounds,
  tooWide,
  wilson,
} from '../../src/stats/index.ts';

describe('wilson', () => {
  it('matches the closed form on hand-computed values', () => {
    // 8/10: centre (0.8 + 1.92/10)/(1 + 3.8415/10), half 1.96·sqrt(0.016 + 0.0096)/1.3841 (Newcombe 1998, Table I: 0.4902–0.9433)
    const iv = wilson(8, 10);
    expect(iv.value).toBe(0.8);
    expect(iv.low).toBeCloseTo(0.4902, 4);
    expect(iv.high).toBeCloseTo(0.9433, 4);
    expect(iv.n).toBe(10);
    // 0/10 and 10/10 touch the ends exactly
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilson(10, 10).high).toBe(1);
    expect(wilson(10, 10).low).toBeCloseTo(0.7225, 4);
  });
  it('is n/a over zero examples and refuses nonsense', () => {
    expect(wilson(0, 0)).toEqual({ value: null, low: null, high: null, n: 0, method: 'wilson' });
    expect(() => wilson(3, 2)).toThrow(/0 <= k <= n/);
  });
  it('marks 15 examples as too few and 1,000 as enough', () => {
    expect(tooWide(wilson(10, 15))).toBe(true);
    expect(tooWide(wilson(600, 1000))).toBe(false);
  });
});

describe('mcnemarExact', () => {
  it('equals the binomial tail by hand', () => {
    // b = 1, c = 6: 2·(C(7,0) + C(7,1))/2^7 = 16/128
    expect(mcnemarExact(1, 6)).toBeCloseTo(0.125, 12);
    expect(mcnemarExact(6, 1)).toBeCloseTo(0.125, 12);
    // b = c: p capped at 1; no discordant pair: 1
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    // b = 0, c = 10: 2/1024
    expect(mcnemarExact(0, 10)).toBeCloseTo(2 / 1024, 12);
  });
  it('stays finite for tens of thousands of discordant pairs', () => {
    const p = mcnemarExact(10000, 10300);
    expect(p).toBeGreaterThan(0.03);
    expect(p).toBeLessThan(0.04);
  });
  it('counts the paired cells', () => {
    expect(pairedCounts([true, true, false, false, true], [true, false, true, false, false])).toEqual({
      both: 1,
      onlyA: 2,
      onlyB: 1,
      neither: 1,
    });
    expect(() => pairedCounts([true], [])).toThrow(/length/);
  });
});

describe('holm', () => {
  it('adjusts step-down with a running maximum, keeping order and nulls', () => {
    // sorted 0.01, 0.02, 0.04 → 0.03, 0.04, 0.04
    const adj = holm([0.04, 0.01, null, 0.02]);
    expect(adj[0]).toBeCloseTo(0.04, 12);
    expect(adj[1]).toBeCloseTo(0.03, 12);
    expect(adj[2]).toBeNull();
    expect(adj[3]).toBeCloseTo(0.04, 12);
    expect(holm([0.6, 0.5])).toEqual([1, 1]);
  });
});

describe('bootstrap', () => {
  const xs = [0.13, 0.91, 0.42, 0.77, 0.35, 0.84, 0.5, 0.21, 0.66, 0.71];
  it('is deterministic by seed and brackets the mean', () => {
    const a = bootstrapMean(xs, { seed: 7 });
    const b = bootstrapMean(xs, { seed: 7 });
    const c = bootstrapMean(xs, { seed: 8 });
    expect(a).toEqual(b);
    expect(a.value).toBeCloseTo(0.55, 12);
    expect(a.low!).toBeLessThan(0.55);
    expect(a.high!).toBeGreaterThan(0.55);
    expect([c.low, c.high]).not.toEqual([a.low, a.high]);
    expect(a.n).toBe(10);
  });
  it('is n/a over nothing; a constant statistic gets no zero-width interval unless told to keep it', () => {
    expect(bootstrapMean([], { seed: 1 }).value).toBeNull();
    // Every resample gives 0.5: [0.5, 0.5] would read as exact, so the bounds are unknown ...
    const k = bootstrap(5, () => 0.5, { seed: 1 });
    expect([k.low, k.value, k.high]).toEqual([null, 0.5, null]);
    // ... or the caller's cautious interval: five units all at 0.5 in [0, 1] → 0.5 ± 0.5·u, u = Wilson's high of 0 in 5.
    const u = wilson(0, 5).high!;
    const b = bootstrap(5, () => 0.5, { seed: 1, degenerate: () => sameValueBounds(0.5, 5, [0, 1]) });
    expect([b.low, b.high, b.method]).toEqual([0.5 - 0.5 * u, 0.5 + 0.5 * u, 'bound']);
    expect(bootstrapMean([0, 0, 0, 0], { seed: 1, range: [0, 1] })).toMatchObject({
      value: 0,
      low: 0,
      high: wilson(0, 4).high,
      method: 'bound',
    });
    expect(bootstrap(5, () => 0.5, { seed: 1, degenerate: 'keep' })).toMatchObject({ low: 0.5, high: 0.5, method: 'bootstrap' });
  });
  it('a paired difference of a run with itself is 0 with p = 1 (kept at [0, 0] where asked: compare)', () => {
    const d = pairedBootstrap(
      xs.length,
      (i) => mean(xs, i),
      (i) => mean(xs, i),
      { seed: 3, degenerate: 'keep' },
    );
    expect([d.value, d.low, d.high, d.p]).toEqual([0, 0, 0, 1]);
    expect(
      pairedBootstrap(
        xs.length,
        (i) => mean(xs, i),
        (i) => mean(xs, i),
        { seed: 3 },
      ),
    ).toMatchObject({ low: null, high: null, p: 1 });
  });
  it('a paired difference that is always positive has a small p', () => {
    const ys = xs.map((x) => x + 0.125);
    const d = pairedBootstrap(
      xs.length,
      (i) => mean(xs, i),
      (i) => mean(ys, i),
      { seed: 3, degenerate: 'keep' },
    );
    expect(d.value).toBeCloseTo(0.125, 12);
    expect(d.low).toBeCloseTo(0.125, 12);
    expect(d.p).toBe(0);
  });
});
