/**
 * A stress run's per-test intervals treat each example's cases as one cluster: on a small fixed set, the test's
 * accuracy interval equals Korn & Graubard's clustered Wilson interval written out here, its reduction interval a
 * cluster bootstrap written out with the same seed; the original accuracy gets a Wilson interval, and a test that
 * never applied is n/a with n = 0.
 */
import { describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import { StressTally } from '../../src/metrics/stress-summary.ts';
import { studentQuantile, wilson, Z95 } from '../../src/stats/index.ts';
import { Rng } from '../../src/util/rng.ts';

/** Example i: original right unless i % 4 = 3; `negation` makes 1–3 cases, the first (i % 3) of them wrong. */
function result(i: number): StressResult {
  const k = 1 + (i % 3);
  const wrong = i % 3;
  const cases = Array.from({ length: k }, (_, j) => ({
    test: 'negation',
    variant: 'negation',
    text: { text: `case ${j}` },
    gold: 'positive',
    prediction: j < wrong ? 'negative' : 'positive',
    correct: j >= wrong,
  }));
  return {
    id: `ex${i}`,
    original: { text: { text: 'x' }, gold: 'positive', prediction: 'positive', correct: i % 4 !== 3 },
    cases,
    not_applicable: { typos: 'too short' },
    queries: k + 1,
    requests: k + 1,
  };
}

describe('stress intervals', () => {
  const results = Array.from({ length: 12 }, (_, i) => result(i));
  const tally = new StressTally(['negation', 'typos'], { seed: 9 });
  for (const r of results) tally.add(r);
  const m = tally.finish();

  it('a test over whole examples (all their cases together): clustered Wilson for accuracy, cluster bootstrap for reduction', () => {
    const t = m.tests.negation!;
    expect(t.accuracy_interval!.value).toBe(t.accuracy);
    expect(t.accuracy_interval).toMatchObject({ n: 12, cases: 24, method: 'wilson' });
    expect(t.reduction_interval!.value).toBeCloseTo(t.reduction!, 12);
    const per = results.map((r) => ({
      cases: r.cases.length,
      correct: r.cases.filter((c) => c.correct).length,
      orig: r.original.correct ? r.cases.length : 0,
    }));
    const boot = (stat: (s: { cases: number; correct: number; orig: number }) => number | null, name: string): [number, number] => {
      const rng = new Rng(`bootstrap\u00019\u0001stress\u0001negation\u0001${name}`);
      const xs: number[] = [];
      for (let b = 0; b < 1000; b++) {
        const s = { cases: 0, correct: 0, orig: 0 };
        for (let i = 0; i < 12; i++) {
          const p = per[rng.int(12)]!;
          s.cases += p.cases;
          s.correct += p.correct;
          s.orig += p.orig;
        }
        const v = stat(s);
        if (v !== null) xs.push(v);
      }
      xs.sort((a, b) => a - b);
      const at = (q: number): number => {
        const pos = q * (xs.length - 1);
        return xs[Math.floor(pos)]! + (xs[Math.ceil(pos)]! - xs[Math.floor(pos)]!) * (pos - Math.floor(pos));
      };
      return [at(0.025), at(0.975)];
    };
    // Korn & Graubard: Wilson at n_eff = M / deff · (z / t_11)², deff = cluster-robust variance / binomial variance.
    const M = per.reduce((a, x) => a + x.cases, 0);
    const p = per.reduce((a, x) => a + x.correct, 0) / M;
    const vClu = ((12 / 11) * per.reduce((a, x) => a + (x.correct - p * x.cases) ** 2, 0)) / M ** 2;
    const nEff = (M / Math.max(1, vClu / ((p * (1 - p)) / M))) * (Z95 / studentQuantile(0.975, 11)) ** 2;
    const z2 = Z95 ** 2;
    const centre = (p + z2 / (2 * nEff)) / (1 + z2 / nEff);
    const half = (Z95 * Math.sqrt((p * (1 - p)) / nEff + z2 / (4 * nEff * nEff))) / (1 + z2 / nEff);
    expect(t.accuracy_interval!.n_eff).toBeCloseTo(nEff, 12);
    expect(t.accuracy_interval!.low).toBeCloseTo(centre - half, 12);
    expect(t.accuracy_interval!.high).toBeCloseTo(centre + half, 12);
    const [rl, rh] = boot((s) => (s.cases && s.orig ? (s.orig - s.correct) / s.orig : null), 'reduction');
    expect(t.reduction_interval!.low).toBeCloseTo(rl, 12);
    expect(t.reduction_interval!.high).toBeCloseTo(rh, 12);
  });

  it('give the original accuracy a Wilson interval and a test that never applied n/a', () => {
    expect(m.original.accuracy_interval).toEqual(wilson(9, 12));
    expect(m.tests.typos!.accuracy_interval).toEqual({ value: null, low: null, high: null, n: 0, method: 'wilson' });
  });
});
