/**
 * The 95% intervals of Table 4 (QaIntervalDigest): bootstrap over whole questions, the worst set picked again in
 * every resample for the AddAny/AddCommon rows, reductions against the original on the same questions, seeded.
 * The result lines are written by hand: the digest only reads numbers.
 */
import { describe, expect, it } from 'vitest';
import type { StressCaseResult, StressResult } from '../../../src/core/stress-suite.ts';
import { QaIntervalDigest } from '../../../src/families/stress/qa/intervals.ts';
import { WORST_OF_SETS } from '../../../src/families/stress/qa/tables.ts';

const kase = (test: string, variant: string, f1: number): StressCaseResult => ({
  test,
  variant,
  text: {},
  gold: [],
  prediction: '',
  correct: f1 === 1,
  metrics: { em: f1 === 1 ? 1 : 0, f1 },
});

/** Question i: original F1 orig[i]; noise F1 noise[i]; AddAny sets A and B with F1 a[i], b[i]; AddSent only on even i. */
function results(orig: number[], noise: number[], a: number[], b: number[]): StressResult[] {
  return orig.map((o, i) => ({
    id: `q${i}`,
    original: { text: {}, gold: [], prediction: '', correct: o === 1, metrics: { em: o === 1 ? 1 : 0, f1: o } },
    cases: [
      kase('noise-swap', 'noise-swap', noise[i]!),
      kase('addany', 'A', a[i]!),
      kase('addany', 'B', b[i]!),
      ...(i % 2 === 0 ? [kase('addsent', 'addsent', 0.5)] : []),
    ],
    not_applicable: {},
    queries: 1,
    requests: 1,
  }));
}

const digest = (rs: StressResult[], seed = 3): ReturnType<QaIntervalDigest['finish']> => {
  const d = new QaIntervalDigest(seed, WORST_OF_SETS);
  for (const r of rs) d.add(r);
  return d.finish();
};

const orig = [1, 0.5, 1, 0.8, 0.2, 1, 0.6, 0.4, 1, 0.9];
const noise = [0.5, 0.5, 1, 0.2, 0, 1, 0.1, 0.4, 0.5, 0.3];

describe('Table 4 intervals (bootstrap over questions)', () => {
  it('each interval is over its row’s questions, holds its value, and is the same for the same seed', () => {
    const rs = results(
      orig,
      noise,
      orig.map(() => 0.3),
      orig.map(() => 0.6),
    );
    const iv = digest(rs);
    expect(iv.original.f1_interval.n).toBe(10);
    expect(iv.original.f1_interval.value).toBeCloseTo(orig.reduce((s, x) => s + x, 0) / 10, 12);
    const swap = iv.tests['noise-swap']!;
    expect(swap.f1_interval.value).toBeCloseTo(noise.reduce((s, x) => s + x, 0) / 10, 12);
    expect(swap.f1_interval.low! < swap.f1_interval.value! && swap.f1_interval.value! < swap.f1_interval.high!).toBe(true);
    const red = (orig.reduce((s, x) => s + x, 0) - noise.reduce((s, x) => s + x, 0)) / orig.reduce((s, x) => s + x, 0);
    expect(swap.f1_reduction_interval.value).toBeCloseTo(red, 12);
    // AddSent applied to the 5 even questions: its reduction compares with their originals only.
    const addsent = iv.tests.addsent!;
    expect(addsent.f1_interval.n).toBe(5);
    const evenOrig = [1, 1, 0.2, 0.6, 1].reduce((s, x) => s + x, 0) / 5;
    expect(addsent.f1_reduction_interval.value).toBeCloseTo((evenOrig - 0.5) / evenOrig, 12);
    expect(digest(rs)).toEqual(iv);
    expect(digest(rs, 4).tests['noise-swap']!.f1_interval).not.toEqual(swap.f1_interval);
  });

  it('AddAny: the worst set in every resample; a set worse on every question gives exactly its own interval', () => {
    const a = [0.1, 0, 0.2, 0.1, 0, 0.3, 0, 0.1, 0.2, 0];
    const worse = digest(
      results(
        orig,
        noise,
        a,
        a.map((x) => x + 0.5),
      ),
    ).tests.addany!;
    const alone = digest(results(orig, noise, a, a)).tests.addany!;
    expect(worse.f1_interval.value).toBeCloseTo(a.reduce((s, x) => s + x, 0) / 10, 12);
    expect(worse).toEqual(alone);
    // Two sets that cross: the worst of the two is below each set's own mean in some resamples.
    const b = [0.3, 0.3, 0, 0, 0.3, 0, 0.3, 0, 0, 0.3];
    const crossing = digest(results(orig, noise, a, b)).tests.addany!;
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(crossing.f1_interval.value).toBeCloseTo(Math.min(mean(a), mean(b)), 12);
    expect(crossing.f1_interval.high!).toBeLessThanOrEqual(alone.f1_interval.high! + 1e-12);
  });

  it('a row over no question has null bounds and n = 0', () => {
    const d = new QaIntervalDigest(0, WORST_OF_SETS);
    const iv = d.finish();
    // EM is a share of questions: Wilson (issue 34), n/a over none
    expect(iv.original.em_interval).toEqual({ value: null, low: null, high: null, n: 0, method: 'wilson' });
    expect(iv.tests).toEqual({});
  });
});
