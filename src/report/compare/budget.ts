/**
 * The query-budget view of a paired comparison (issue 33): both runs' attack success within each query budget over
 * the joined examples, the paired difference where both runs attacked the example (exact McNemar per budget, Holm's
 * correction over the budgets of the curve — a family of its own, apart from the headline metrics), and queries per
 * successful attack in each run with the paired difference on the examples both runs broke. Budgets and the success
 * definition are those of summary.json's success_by_budget (src/metrics/budget.ts).
 */
import { budgetGrid } from '../../metrics/budget.ts';
import {
  bootstrapMean,
  holm,
  mcnemarExact,
  mean,
  pairedBootstrap,
  pairedCounts,
  wilson,
  type Interval,
  type PairedCounts,
} from '../../stats/index.ts';
import type { TopLevelSpec } from 'vega-lite';
import { BUDGET_AXES } from '../../recipes/report/charts.ts';
import type { ChartSpec } from '../../recipes/report/types.ts';
import type { Joined, Outcome, RunInfo } from './load.ts';

/** One budget of the compared curves. */
export interface BudgetComparison {
  budget: number;
  /** Each run's success within the budget over its attacked examples among the joined ones (Wilson). */
  a: Interval;
  b: Interval;
  /** B − A over the examples both runs attacked (paired bootstrap), with McNemar's table and p. */
  diff: Interval;
  counts: PairedCounts;
  p: number | null;
  /** p after Holm's correction over the budgets of the curve. */
  p_holm: number | null;
}

/** compare.json's `query_budget`: the curves side by side and queries per success. */
export interface QueryBudgetComparison {
  /** The budgets where both curves are known: up to the smaller of the runs' --max-queries (none: the larger maximum). */
  budgets: BudgetComparison[];
  queries_per_success: {
    /** Each run's mean queries per successful attack among the joined examples (bootstrap). */
    a: Interval;
    b: Interval;
    /** B − A on the examples both runs broke (paired bootstrap over them), with its p. */
    diff: Interval;
    p: number | null;
  };
}

const attacked = (o: Outcome): boolean => o.tried && o.queries !== undefined;
const within = (o: Outcome, b: number): boolean => o.succeeded && o.queries! <= b;

/**
 * The query-budget comparison of two joined attack runs; undefined when either run's results carry no query counts
 * per search (probes) or neither attacked an example.
 */
export function compareBudgets(
  j: Joined,
  info: { a: RunInfo; b: RunInfo },
  opts: { seed: number | string; resamples?: number },
): QueryBudgetComparison | undefined {
  if (j.a.some((o) => o.tried && o.queries === undefined) || j.b.some((o) => o.tried && o.queries === undefined)) return undefined;
  const most = (os: readonly Outcome[]): number => os.reduce((m, o) => (attacked(o) ? Math.max(m, o.queries!) : m), 0);
  const [ma, mb] = [most(j.a), most(j.b)];
  if (ma === 0 && mb === 0) return undefined;
  // Beyond a run's own --max-queries its curve is unknown; beyond its largest count it stays flat.
  const caps = [info.a.max_queries, info.b.max_queries].filter((x): x is number => x !== undefined);
  const top = caps.length ? Math.min(...caps, Math.max(ma, mb)) : Math.max(ma, mb);
  const grid = [...new Set([...budgetGrid(top), ...[ma, mb].filter((m) => m > 0 && m < top), top])].sort((x, y) => x - y);
  // Budgets below any success in either run say nothing: the table starts at the last of them (where both are 0).
  const first = Math.min(...[...j.a, ...j.b].filter((o) => attacked(o) && o.succeeded).map((o) => o.queries!), Infinity);
  const budgets = grid.filter((b, i) => b >= first || grid[i + 1] === undefined || grid[i + 1]! >= first);
  const boot = { ...(opts.resamples ? { resamples: opts.resamples } : {}), degenerate: 'keep' as const };
  const both = j.ids.map((_, i) => i).filter((i) => attacked(j.a[i]!) && attacked(j.b[i]!));
  const rows = budgets.map((budget) => {
    const share = (os: readonly Outcome[]): Interval => {
      const tried = os.filter(attacked);
      return wilson(tried.filter((o) => within(o, budget)).length, tried.length);
    };
    const xa = both.map((i) => within(j.a[i]!, budget));
    const xb = both.map((i) => within(j.b[i]!, budget));
    const counts = pairedCounts(xa, xb);
    const [va, vb] = [xa.map(Number), xb.map(Number)];
    const d = pairedBootstrap(
      both.length,
      (idx) => mean(va, idx),
      (idx) => mean(vb, idx),
      { ...boot, seed: `${String(opts.seed)}:success_by_budget:${budget}` },
    );
    return {
      budget,
      a: share(j.a),
      b: share(j.b),
      diff: { value: d.value, low: d.low, high: d.high, n: d.n, method: 'bootstrap' as const },
      counts,
      p: both.length ? mcnemarExact(counts.onlyA, counts.onlyB) : null,
    };
  });
  const adjusted = holm(rows.map((r) => r.p));
  const successes = (os: readonly Outcome[]): number[] => os.filter((o) => attacked(o) && o.succeeded).map((o) => o.queries!);
  const broke = both.filter((i) => j.a[i]!.succeeded && j.b[i]!.succeeded);
  const [qa, qb] = [broke.map((i) => j.a[i]!.queries!), broke.map((i) => j.b[i]!.queries!)];
  const d = pairedBootstrap(
    broke.length,
    (idx) => mean(qa, idx),
    (idx) => mean(qb, idx),
    { ...boot, seed: `${String(opts.seed)}:queries_per_success` },
  );
  const own = (xs: number[], side: string): Interval =>
    bootstrapMean(xs, { ...boot, degenerate: 'unknown', seed: `${String(opts.seed)}:queries_per_success:${side}` });
  return {
    budgets: rows.map((r, i) => ({ ...r, p_holm: adjusted[i] ?? null })),
    queries_per_success: {
      a: own(successes(j.a), 'a'),
      b: own(successes(j.b), 'b'),
      diff: { value: d.value, low: d.low, high: d.high, n: d.n, method: 'bootstrap' },
      p: d.p,
    },
  };
}

/** Both runs' curves on one chart (A and B, each with its 95% Wilson band), for compare.html and `textstress view`. */
export function budgetComparisonChart(q: QueryBudgetComparison): ChartSpec {
  const values = q.budgets.flatMap((r) =>
    (['a', 'b'] as const).map((side, order) => ({
      budget: r.budget,
      rate: r[side].value,
      series: side.toUpperCase(),
      order,
      ...(r[side].low !== null ? { lo: r[side].low, hi: r[side].high } : {}),
    })),
  );
  const { x, y, color } = BUDGET_AXES;
  return {
    title: 'Attack success by query budget, A and B',
    caption: 'Share of attacked examples broken within at most that many queries per example; band: 95% interval (Wilson).',
    spec: {
      width: 480,
      data: { values },
      layer: [
        {
          mark: { type: 'errorband', opacity: 0.16, interpolate: 'step-after' },
          encoding: { x, y: { field: 'lo', type: 'quantitative', title: y.title }, y2: { field: 'hi' }, color },
        },
        { mark: { type: 'line', point: { size: 30 }, strokeWidth: 2, interpolate: 'step-after' }, encoding: { x, y, color } },
      ],
    } as unknown as TopLevelSpec,
  };
}
