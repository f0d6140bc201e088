/**
 * 95% intervals of a stress run's per-test figures (issues 27, 34). One example (or one premise) yields several cases
 * of a test, and its cases are not independent, so the units are the clusters the cases come in:
 *  - accuracy (Σ correct / Σ cases, a share): Wilson's interval at the clusters' effective sample size
 *    (clusteredWilson; plain Wilson over the cases where no cluster gave two);
 *  - reduction ((original − accuracy) / original on the same cases, a ratio): a bootstrap that resamples whole
 *    clusters; where every resample gives one value (every case wrong, say) the reduction the accuracy's Wilson
 *    interval allows, the original held fixed, instead of a zero-width interval.
 * Per cluster three small integers are kept (cases, correct cases, cases whose example's original answer was right),
 * never the results.
 */
import { bootstrap, clusteredWilson, wilson, type Interval } from '../stats/index.ts';

/** The intervals a test's row carries beside its figures (see StressTestSummary). */
export interface StressIntervals {
  accuracy_interval: Interval;
  reduction_interval: Interval;
}

/** Per cluster (an example, or the premise its cases were made from) of one row: cases, correct, original right. */
export class ClusterCounts {
  private data = new Uint32Array(48);
  private len = 0;

  /** A new cluster's counts; returns its index (to add more cases to it). */
  add(cases: number, correct: number, originalCorrectCases: number): number {
    if (this.len + 3 > this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.len++] = cases;
    this.data[this.len++] = correct;
    this.data[this.len++] = originalCorrectCases;
    return this.len / 3 - 1;
  }

  /** More cases of an existing cluster. */
  addTo(cluster: number, cases: number, correct: number, originalCorrectCases: number): void {
    const o = cluster * 3;
    this.data[o] = this.data[o]! + cases;
    this.data[o + 1] = this.data[o + 1]! + correct;
    this.data[o + 2] = this.data[o + 2]! + originalCorrectCases;
  }

  get clusters(): number {
    return this.len / 3;
  }

  /** Cases and correct cases over every cluster. */
  totals(): { cases: number; correct: number } {
    return { cases: this.sum(0), correct: this.sum(1) };
  }

  /** Σ over the clusters at idx of column k (0 cases, 1 correct, 2 original-correct cases). */
  private sum(k: number, idx?: Uint32Array): number {
    let s = 0;
    const n = idx ? idx.length : this.clusters;
    for (let i = 0; i < n; i++) s += this.data[(idx ? idx[i]! : i) * 3 + k]!;
    return s;
  }

  /** The share's interval: Wilson at the clusters' effective sample size (n = clusters; `cases` when more). */
  accuracy(): Interval {
    const m = this.clusters;
    const correct = new Uint32Array(m);
    const cases = new Uint32Array(m);
    for (let i = 0; i < m; i++) {
      cases[i] = this.data[i * 3]!;
      correct[i] = this.data[i * 3 + 1]!;
    }
    return clusteredWilson(correct, cases);
  }

  /** The reduction's interval: a cluster bootstrap, with the accuracy's Wilson interval where it has no spread. */
  reduction(seed: string, resamples?: number, accuracy = this.accuracy()): Interval {
    const stat = (idx: Uint32Array): number | null => {
      const cases = this.sum(0, idx);
      const orig = this.sum(2, idx);
      return cases && orig ? (orig - this.sum(1, idx)) / orig : null;
    };
    const original = this.sum(0) ? this.sum(2) / this.sum(0) : 0;
    return bootstrap(this.clusters, stat, {
      seed,
      ...(resamples ? { resamples } : {}),
      degenerate: () => reductionBounds(accuracy, original),
    });
  }
}

/**
 * The reduction (o − a) / o that an accuracy interval allows with the original accuracy o held fixed: what stands in
 * for a cluster bootstrap that saw no spread (every case right, or every case wrong).
 */
export function reductionBounds(accuracy: Interval, original: number): { low: number; high: number; method: 'wilson' } | null {
  if (!(original > 0) || accuracy.low === null || accuracy.high === null) return null;
  return { low: 1 - accuracy.high / original, high: 1 - accuracy.low / original, method: 'wilson' };
}

/** Per-example counts of one test, for its intervals (each example one cluster). */
export class TestColumns {
  private readonly counts = new ClusterCounts();

  /** One example's cases of this test: how many, how many correct, and whether its original answer was right. */
  add(cases: number, correct: number, originalCorrect: boolean): void {
    this.counts.add(cases, correct, originalCorrect ? cases : 0);
  }

  /** The test's accuracy and reduction intervals over its examples, seeded by the run's seed and the test's name. */
  finish(seed: number | string, test: string): StressIntervals {
    const accuracy = this.counts.accuracy();
    return {
      accuracy_interval: accuracy,
      reduction_interval: this.counts.reduction(`${String(seed)}\u0001stress\u0001${test}\u0001reduction`, undefined, accuracy),
    };
  }
}

/** The original examples' accuracy: one case per example, so a Wilson interval. */
export const originalInterval = (correct: number, n: number): Interval => wilson(correct, n);
