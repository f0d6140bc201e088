/**
 * The query-budget view of a run summary (issue 33) on hand-made results: success_by_budget on its grid with exact
 * counts and Wilson intervals (closed form), queries per successful attack (mean with a bootstrap written out here,
 * median with its order-statistic interval), a run's own --max-queries ending the curve with its budget-stopped
 * example counted as failed, and no curve for probes or over zero attacked examples.
 */
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { budgetGrid, budgetLine } from '../../src/metrics/budget.ts';
import { summarize } from '../../src/metrics/summary.ts';
import { Rng } from '../../src/util/rng.ts';
import { fakeResult } from '../report/fixtures.ts';

const Z = 1.959963984540054;
/** Wilson bounds as the roots of the score test's quadratic. */
function wilsonRoots(k: number, n: number): [number, number] {
  const ph = k / n;
  const a = 1 + (Z * Z) / n;
  const b = -(2 * ph + (Z * Z) / n);
  const d = Math.sqrt(b * b - 4 * a * ph * ph);
  return [(-b - d) / (2 * a), (-b + d) / (2 * a)];
}

const TEXT = 'a warm and quietly funny study of grief';
const EDIT = [{ type: 'typo:swap', field: 'text', wordIndex: 1, start: 2, before: 'warm', after: 'wram' }];
const result = (
  i: number,
  status: 'skipped' | 'failed' | 'succeeded',
  queries: number,
  extra: Partial<ExampleResult> = {},
): ExampleResult => ({
  ...fakeResult(i, { text: TEXT, status, ...(status === 'succeeded' ? { edits: EDIT } : {}) }),
  queries,
  ...extra,
});

/** 2 skipped (1 query each), 5 successes at 12, 30, 30, 55 and 90 queries, 3 failures at 40, 120 and 200. */
const RESULTS: ExampleResult[] = [
  result(0, 'skipped', 1),
  result(1, 'succeeded', 55),
  result(2, 'failed', 40),
  result(3, 'succeeded', 30),
  result(4, 'skipped', 1),
  result(5, 'succeeded', 12),
  result(6, 'failed', 200),
  result(7, 'succeeded', 90),
  result(8, 'succeeded', 30),
  result(9, 'failed', 120),
];

describe('success_by_budget and queries_per_success', () => {
  it('the grid: 1, 2, 3, 5, 7 times each power of ten below the maximum', () => {
    expect(budgetGrid(200)).toEqual([1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100]);
    expect(budgetGrid(1)).toEqual([]);
    expect(budgetGrid(7)).toEqual([1, 2, 3, 5]);
  });

  it('counts the attacked examples that succeeded within each budget, up to the most queries an attacked example took', () => {
    const m = summarize(RESULTS, { seed: 3 });
    expect(m.attacked).toBe(8);
    const within: Record<number, number> = { 1: 0, 2: 0, 3: 0, 5: 0, 7: 0, 10: 0, 20: 1, 30: 3, 50: 3, 70: 4, 100: 5, 200: 5 };
    expect(m.success_by_budget).toEqual(Object.entries(within).map(([b, k]) => ({ budget: Number(b), succeeded: k, rate: k / 8 })));
    // The last point is the run's attack success rate.
    expect(m.success_by_budget!.at(-1)!.rate).toBe(m.attack_success_rate);
    m.intervals!.success_by_budget!.forEach((iv, i) => {
      const k = m.success_by_budget![i]!.succeeded;
      const [lo, hi] = wilsonRoots(k, 8);
      expect(iv).toMatchObject({ value: k / 8, n: 8, method: 'wilson' });
      expect(iv.low!).toBeCloseTo(k === 0 ? 0 : lo, 12);
      expect(iv.high!).toBeCloseTo(hi, 12);
    });
  });

  it('queries per success: the mean with a seeded bootstrap over the successes, the median with order statistics', () => {
    const m = summarize(RESULTS, { seed: 3 });
    expect(m.queries_per_success).toBe((12 + 30 + 30 + 55 + 90) / 5);
    expect(m.queries_per_success_median).toBe(30);
    // The bootstrap written out: the successes' counts in ascending order, B = 1000 resamples, percentiles 2.5 / 97.5.
    const xs = [12, 30, 30, 55, 90];
    const rng = new Rng('bootstrap\u00013\u0001queries_per_success');
    const means: number[] = [];
    for (let b = 0; b < 1000; b++) {
      let s = 0;
      for (let i = 0; i < 5; i++) s += xs[rng.int(5)]!;
      means.push(s / 5);
    }
    means.sort((a, b) => a - b);
    const at = (q: number): number => {
      const pos = q * 999;
      const lo = Math.floor(pos);
      return means[lo]! + (means[Math.ceil(pos)]! - means[lo]!) * (pos - lo);
    };
    expect(m.intervals!.queries_per_success).toEqual({ value: 43.4, low: at(0.025), high: at(0.975), n: 5, method: 'bootstrap' });
    // Five values: P(B ≤ 0) = P(B ≥ 5) = 1/32 > 2.5%, so the median's interval reaches past the data on both sides
    // (1 query at least; no upper end known).
    expect(m.intervals!.queries_per_success_median).toEqual({ value: 30, low: 1, high: null, n: 5, method: 'exact' });
  });

  it("with --max-queries the curve ends at the run's budget, and a budget-stopped example is a failed attack", () => {
    // The same run under a budget of 150: the 200-query failure was stopped at 147 queries, marked.
    const cut = RESULTS.map((r) => (r.queries === 200 ? { ...r, queries: 147, query_budget_exhausted: true as const } : r));
    const m = summarize(cut, { seed: 3, maxQueries: 150 });
    expect(m.query_budget_exhausted).toBe(1);
    expect(m.success_by_budget!.map((p) => p.budget)).toEqual([1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100, 150]);
    expect(m.success_by_budget!.at(-1)).toEqual({ budget: 150, succeeded: 5, rate: 5 / 8 });
    expect(m.attack_success_rate).toBe(5 / 8);
  });

  it('over zero attacked examples the curve is empty and queries per success n/a; probes have no curve', () => {
    const none = summarize([result(0, 'skipped', 1), result(1, 'skipped', 1)]);
    expect(none.success_by_budget).toEqual([]);
    expect(none.queries_per_success).toBeNull();
    expect(none.queries_per_success_median).toBeNull();
    expect(none.intervals!.queries_per_success).toMatchObject({ value: null, n: 0 });
    expect(budgetLine(none.success_by_budget!)).toBe('n/a (no example attacked)');
    const probe = {
      variants: 3,
      changed: 1,
      original_metric: 1,
      worst_metric: 0,
      best_metric: 1,
      best: {},
    } as unknown as ExampleResult['probe'];
    const probed = summarize([result(0, 'succeeded', 4, { probe }), result(1, 'failed', 4, { probe })]);
    expect(probed.success_by_budget).toBeUndefined();
    expect(probed.queries_per_success).toBeUndefined();
  });

  it('the terminal line: each power of ten on the grid and the maximum', () => {
    const m = summarize(RESULTS);
    expect(budgetLine(m.success_by_budget!)).toBe('≤10: 0.0% · ≤100: 62.5% · ≤200: 62.5%');
  });
});
