/**
 * Paired significance tests: the exact McNemar test on per-example binary outcomes and Holm's step-down
 * correction when several metrics are tested at once.
 */
import { wilson, type Interval } from './interval.ts';
import { studentCdf, studentQuantile } from './student.ts';

/** Per-example outcomes of two runs over the same examples, counted into the four cells of McNemar's table. */
export interface PairedCounts {
  /** Both true. */
  both: number;
  /** True in A only (held in A, broke in B when the outcome is "correct"). */
  onlyA: number;
  /** True in B only. */
  onlyB: number;
  /** Both false. */
  neither: number;
}

/** Counts the four cells from two equal-length outcome arrays (same example at the same index). */
export function pairedCounts(a: readonly boolean[], b: readonly boolean[]): PairedCounts {
  if (a.length !== b.length) throw new RangeError(`paired outcomes differ in length: ${a.length} vs ${b.length}`);
  const c: PairedCounts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) c.both++;
    else if (a[i]) c.onlyA++;
    else if (b[i]) c.onlyB++;
    else c.neither++;
  }
  return c;
}

/**
 * Exact two-sided McNemar test: under "no difference" the discordant pairs split Binomial(onlyA + onlyB, 1/2);
 * p = min(1, 2·P[X ≤ min(onlyA, onlyB)]). p = 1 when there is no discordant pair.
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  // Sum binomial probabilities in log space: n may be in the tens of thousands.
  const logHalfN = n * Math.log(0.5);
  let logC = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC + logHalfN);
  }
  return Math.min(1, 2 * tail);
}

/**
 * Holm's step-down adjusted p-values (same order as given): sort ascending, p_(i)·(m − i), running maximum,
 * capped at 1. Nulls (untested metrics) stay null and do not count in m.
 */
export function holm(ps: readonly (number | null)[]): (number | null)[] {
  const tested = ps.map((p, i) => ({ p, i })).filter((x): x is { p: number; i: number } => x.p !== null);
  tested.sort((x, y) => x.p - y.p || x.i - y.i);
  const m = tested.length;
  const out: (number | null)[] = ps.map(() => null);
  let running = 0;
  tested.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, p * (m - rank)));
    out[i] = running;
  });
  return out;
}

/** Two runs' per-example binary outcomes on the same examples, compared (see {@link pairedBinary}). */
export interface PairedBinary {
  n: number;
  /** Share of true outcomes in each run, with its Wilson interval. */
  a: Interval;
  b: Interval;
  onlyA: number;
  onlyB: number;
  /** Exact McNemar p (two-sided). */
  p: number;
}

/** Wilson intervals of both runs' shares and the exact McNemar test on their discordant examples. */
export function pairedBinary(a: readonly boolean[], b: readonly boolean[]): PairedBinary {
  const c = pairedCounts(a, b);
  return {
    n: a.length,
    a: wilson(c.both + c.onlyA, a.length),
    b: wilson(c.both + c.onlyB, a.length),
    onlyA: c.onlyA,
    onlyB: c.onlyB,
    p: mcnemarExact(c.onlyA, c.onlyB),
  };
}

/**
 * The mean of a few paired differences (one per seed, say) with Student's t interval over them and the paired t
 * test's two-sided p: what a bootstrap over a handful of units cannot give (its percentile interval of 5 values is
 * far too narrow). Fewer than two units, or no spread among them: no interval (bounds null), p null.
 */
export function pairedT(diffs: readonly number[]): Interval & { p: number | null } {
  const n = diffs.length;
  if (n === 0) return { value: null, low: null, high: null, n, method: 't', p: null };
  const m = diffs.reduce((a, x) => a + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(diffs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1)) : 0;
  if (!(sd > 0)) return { value: m, low: null, high: null, n, method: 't', p: null };
  const se = sd / Math.sqrt(n);
  const half = studentQuantile(0.975, n - 1) * se;
  const t = Math.abs(m) / se;
  return { value: m, low: m - half, high: m + half, n, method: 't', p: Math.min(1, 2 * (1 - studentCdf(t, n - 1))) };
}
