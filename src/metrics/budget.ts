/**
 * The query-budget view of an attack run (issue 33): attack success as a function of a per-example query budget, and
 * what a successful attack costs in queries. "A query" is what the user pays for: a distinct model input of one
 * example (its `queries` in results.jsonl, the clean query included); an input the example asks for again is
 * answered from its own session and never sent twice.
 *
 * success_by_budget(b) = (attacked examples whose attack succeeded with queries ≤ b) / (attacked examples), attacked
 * = succeeded + failed (the examples the model got right; skipped ones are out, as in attack_success_rate). A search
 * whose success comes in its last model batch (every greedy search) reaches the same outcome under `--max-queries b`
 * whenever it succeeded with ≤ b queries, and fails otherwise: the curve is then what a run with that budget would
 * report. An example the run's own `--max-queries` stopped (`query_budget_exhausted`) is a failed attack at every
 * budget: its search did not finish, and what it would have needed is unknown, so the curve ends at the run's budget.
 */
import { bootstrapMean, quantileInterval, wilson, type Interval } from '../stats/index.ts';

/** One point of the curve. */
export interface BudgetPoint {
  /** At most this many queries per example (distinct model inputs, the clean query included). */
  budget: number;
  /** Attacked examples whose attack succeeded within the budget. */
  succeeded: number;
  /** succeeded / attacked; null over zero attacked examples. */
  rate: number | null;
}

/** The budgets of the curve below `max`: 1, 2, 3, 5, 7 times each power of ten (about six a decade). */
export function budgetGrid(max: number): number[] {
  const out: number[] = [];
  for (let decade = 1; decade < max; decade *= 10) {
    for (const m of [1, 2, 3, 5, 7]) {
      const b = m * decade;
      if (b < max) out.push(b);
    }
  }
  return out;
}

/** What the summary adds for query budgets, with the intervals of its figures. */
export interface BudgetMetrics {
  success_by_budget: BudgetPoint[];
  queries_per_success: number | null;
  queries_per_success_median: number | null;
  /** Absent when not asked for. */
  intervals?: { success_by_budget: Interval[]; queries_per_success: Interval; queries_per_success_median: Interval };
}

/**
 * Counts the queries of successful attacks, one result at a time (bounded memory: one counter per distinct query
 * count), and the largest query count of an attacked example.
 */
export class BudgetTally {
  /** Successful attacks by the queries they took. */
  private readonly successes = new Map<number, number>();
  private attacked = 0;
  private most = 0;

  /** One attacked example (succeeded or failed; skipped examples are not counted). */
  add(succeeded: boolean, queries: number): void {
    this.attacked++;
    this.most = Math.max(this.most, queries);
    if (succeeded) this.successes.set(queries, (this.successes.get(queries) ?? 0) + 1);
  }

  /**
   * The curve on the grid up to the run's maximum — its own `--max-queries` when it had one, else the most queries
   * an attacked example took — and at that maximum; the mean and median queries per successful attack with their
   * intervals (a seeded bootstrap over the successful examples for the mean, order statistics for the median).
   */
  finish(opts: { seed: string; maxQueries?: number; intervals?: boolean }): BudgetMetrics {
    const values = [...this.successes].sort((a, b) => a[0] - b[0]);
    const succeeded = values.reduce((n, [, c]) => n + c, 0);
    const top = opts.maxQueries ?? this.most;
    const budgets = this.attacked ? [...budgetGrid(top), top] : [];
    const points: BudgetPoint[] = [];
    let k = 0;
    let within = 0;
    for (const budget of budgets) {
      while (k < values.length && values[k]![0] <= budget) within += values[k++]![1];
      points.push({ budget, succeeded: within, rate: this.attacked ? within / this.attacked : null });
    }
    // Each success's query count, in ascending order (the bootstrap's resamples depend on the order: this one is fixed).
    const each: number[] = [];
    for (const [q, c] of values) for (let i = 0; i < c; i++) each.push(q);
    const median = medianOf(each);
    return {
      success_by_budget: points,
      queries_per_success: succeeded ? each.reduce((a, b) => a + b, 0) / succeeded : null,
      queries_per_success_median: median,
      ...(opts.intervals === false ? {} : { intervals: this.intervals(points, each, median, top, opts.seed) }),
    };
  }

  /** Wilson's interval at each budget (n = the attacked examples); the mean's bootstrap, the median's order statistics. */
  private intervals(
    points: readonly BudgetPoint[],
    each: readonly number[],
    median: number | null,
    top: number,
    seed: string,
  ): NonNullable<BudgetMetrics['intervals']> {
    return {
      success_by_budget: points.map((p) => wilson(p.succeeded, this.attacked)),
      queries_per_success: bootstrapMean(each, { seed: `${seed}\u0001queries_per_success`, range: [1, Math.max(1, top)] }),
      // A query count is at least 1; no upper end is known beyond the data (null).
      queries_per_success_median: finiteBounds(quantileInterval(each, 0.5, median ?? 0, [1, Infinity])),
    };
  }
}

/** The median of ascending values (the mean of the middle two for an even count); null over none. */
function medianOf(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  return n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** An interval with an infinite bound written as null (no bound known), as JSON would write it anyway. */
function finiteBounds(iv: Interval): Interval {
  const f = (x: number | null): number | null => (x === null || Number.isFinite(x) ? x : null);
  return { ...iv, ...(iv.n === 0 ? { value: null } : {}), low: f(iv.low), high: f(iv.high) };
}

/**
 * The curve in one terminal line: success within each power-of-ten budget the curve holds and within its last (the
 * run's maximum), e.g. `≤10: 0.0% · ≤100: 71.7% · ≤137: 91.3%`; n/a when nothing was attacked.
 */
export function budgetLine(points: readonly BudgetPoint[]): string {
  if (points.length === 0 || points[0]!.rate === null) return 'n/a (no example attacked)';
  const last = points[points.length - 1]!;
  const shown = points.filter(
    (p, i) => i === points.length - 1 || (p.budget >= 10 && Number.isInteger(Math.log10(p.budget)) && p !== last),
  );
  return shown.map((p) => `≤${p.budget.toLocaleString('en-US')}: ${(100 * p.rate!).toFixed(1)}%`).join(' · ');
}
