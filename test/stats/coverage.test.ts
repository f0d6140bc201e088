/**
 * Binary per-example rates get Wilson's interval, never the percentile bootstrap (issue 34, item 3): coverage by
 * simulation and by exact binomial sums, the clustered form when cases come in clusters, and the places that used
 * to bootstrap a share (QA exact match in attack runs) or show a zero-width interval as exact.
 */
import { describe, expect, it } from 'vitest';
import { IntervalTally } from '../../src/metrics/intervals.ts';
import { bootstrapMean, clusteredWilson, wilson } from '../../src/stats/index.ts';
import { Rng } from '../../src/util/rng.ts';

const covers = (iv: { low: number | null; high: number | null }, p: number): boolean => iv.low !== null && iv.low <= p && p <= iv.high!;

/** P(X = k) for X ~ Binomial(n, p). */
function binomial(n: number, p: number, k: number): number {
  let logC = 0;
  for (let i = 1; i <= k; i++) logC += Math.log(n - i + 1) - Math.log(i);
  return Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p));
}

describe('Wilson covers a rare rate; the percentile bootstrap does not', () => {
  it('p = 0.02, n = 50: exact coverage 92.2%, and ≥ 90% in 2,000 simulated runs; the bootstrap covers far less', () => {
    // Exact: sum P(k) over the k whose interval holds 0.02 (k = 0, 1, 2; from k = 3 the low bound is 0.0206).
    let exact = 0;
    for (let k = 0; k <= 50; k++) if (covers(wilson(k, 50), 0.02)) exact += binomial(50, 0.02, k);
    expect(exact).toBeCloseTo(0.9216, 4);
    const rng = new Rng('coverage');
    const runs = Array.from({ length: 2000 }, () => Array.from({ length: 50 }, () => (rng.next() < 0.02 ? 1 : 0)));
    const wilsonCovers =
      runs.filter((xs) =>
        covers(
          wilson(
            xs.reduce((a: number, x) => a + x, 0),
            50,
          ),
          0.02,
        ),
      ).length / runs.length;
    expect(wilsonCovers).toBeGreaterThanOrEqual(0.9);
    // The numbers: the percentile bootstrap of the same 0/1 values ([0, 0] whenever no success was drawn).
    const boot = runs.slice(0, 200).filter((xs, r) => covers(bootstrapMean(xs, { seed: r, resamples: 400, degenerate: 'keep' }), 0.02));
    expect(boot.length / 200).toBeLessThan(0.75);
  });
});

describe('clustered cases (several per premise or example): Wilson at the effective sample size', () => {
  it('covers ≥ 92% where Wilson over the cases, counted as independent, covers < 85%', () => {
    // 20 clusters of 1–9 cases; a cluster's cases are right with probability 0 or 0.6 (half each): the rate is 0.3.
    const rng = new Rng('clusters');
    let clustered = 0;
    let naive = 0;
    const runs = 1000;
    for (let r = 0; r < runs; r++) {
      const k: number[] = [];
      const m: number[] = [];
      for (let i = 0; i < 20; i++) {
        const size = 1 + rng.int(9);
        const p = rng.next() < 0.5 ? 0 : 0.6;
        let right = 0;
        for (let j = 0; j < size; j++) if (rng.next() < p) right++;
        k.push(right);
        m.push(size);
      }
      if (covers(clusteredWilson(k, m), 0.3)) clustered++;
      if (
        covers(
          wilson(
            k.reduce((a, x) => a + x, 0),
            m.reduce((a, x) => a + x, 0),
          ),
          0.3,
        )
      )
        naive++;
    }
    expect(clustered / runs).toBeGreaterThanOrEqual(0.92);
    expect(naive / runs).toBeLessThan(0.85);
  });

  it('every case wrong: each cluster counts once, never [0, 0] (numerical contradiction: 0 of 90 cases, 18 premises)', () => {
    const m = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5];
    const iv = clusteredWilson(
      m.map(() => 0),
      m,
    );
    expect(iv).toMatchObject({ value: 0, low: 0, n: 18, cases: 90, method: 'wilson' });
    // At least as wide as Wilson over the 18 premises (a case per premise), not over 90 independent cases.
    expect(iv.high!).toBeGreaterThanOrEqual(wilson(0, 18).high!);
    // One case per cluster: exactly Wilson over the cases.
    expect(clusteredWilson([1, 0, 1, 1], [1, 1, 1, 1])).toEqual(wilson(3, 4));
  });
});

describe("a run's exact match is a share: Wilson, not a bootstrap", () => {
  it('QA attack runs: clean and attacked EM get Wilson over the questions; F1 the bootstrap, bounded where it has no spread', () => {
    const t = new IntervalTally(0);
    // Three questions, none answered exactly, whatever their F1: EM 0 of 3.
    for (const f1 of [0, 0.4, 0]) {
      t.add({
        cleanCorrect: f1 > 0,
        attackedCorrect: false,
        succeeded: f1 > 0,
        skipped: f1 === 0,
        perturbedPct: 0,
        queries: 1,
        answers: { cleanEm: 0, cleanF1: f1, attackedEm: 0, attackedF1: 0 },
      });
    }
    const iv = t.finish({
      n: 3,
      cleanCorrect: 1,
      attackedCorrect: 0,
      succeeded: 1,
      attacked: 1,
      stableSame: 0,
      stableN: 1,
      probed: 0,
      probeNeverChanged: 0,
      correctAtK: null,
      qa: true,
    });
    expect(iv.clean_em).toEqual(wilson(0, 3));
    expect(iv.attacked_em).toEqual(wilson(0, 3));
    // Attacked F1 is 0 on every question: the bootstrap has no spread, so the bound, not [0, 0].
    expect(iv.attacked_f1).toMatchObject({ value: 0, low: 0, high: wilson(0, 3).high, method: 'bound' });
    expect(iv.clean_f1!.method).toBe('bootstrap');
  });
});
