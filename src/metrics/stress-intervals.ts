/**
 * 95% intervals of a stress run's per-test figures (issue 27): one example yields several cases of a test, so the
 * bootstrap resamples whole examples (with all their cases) and recomputes the test's accuracy (Σ correct / Σ cases)
 * and its reduction from the original accuracy on the same cases. Per example and test, three small integers are
 * kept (cases, correct cases, the example's original answer right), never the results.
 */
import { bootstrap, wilson, type Interval } from '../stats/index.ts';

/** The intervals a test's row carries beside its figures (see StressTestSummary). */
export interface StressIntervals {
  accuracy_interval: Interval;
  reduction_interval: Interval;
}

/** Per-example counts of one test, for its bootstrap. */
export class TestColumns {
  private data = new Uint32Array(48);
  private len = 0;

  /** One example's cases of this test: how many, how many correct, and whether its original answer was right. */
  add(cases: number, correct: number, originalCorrect: boolean): void {
    if (this.len + 3 > this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.len++] = cases;
    this.data[this.len++] = correct;
    this.data[this.len++] = originalCorrect ? 1 : 0;
  }

  /** The test's accuracy and reduction intervals over its examples, seeded by the run's seed and the test's name. */
  finish(seed: number | string, test: string): StressIntervals {
    const d = this.data;
    const m = this.len / 3;
    const sums = (idx: Uint32Array): [number, number, number] => {
      let cases = 0;
      let correct = 0;
      let orig = 0;
      for (let i = 0; i < idx.length; i++) {
        const o = idx[i]! * 3;
        cases += d[o]!;
        correct += d[o + 1]!;
        orig += d[o]! * d[o + 2]!;
      }
      return [cases, correct, orig];
    };
    const accuracy = (idx: Uint32Array): number | null => {
      const [cases, correct] = sums(idx);
      return cases ? correct / cases : null;
    };
    const reduction = (idx: Uint32Array): number | null => {
      const [cases, correct, orig] = sums(idx);
      return cases && orig ? (orig - correct) / orig : null;
    };
    const base = `${String(seed)}\u0001stress\u0001${test}`;
    return {
      accuracy_interval: bootstrap(m, accuracy, { seed: `${base}\u0001accuracy` }),
      reduction_interval: bootstrap(m, reduction, { seed: `${base}\u0001reduction` }),
    };
  }
}

/** The original examples' accuracy: one case per example, so a Wilson interval. */
export const originalInterval = (correct: number, n: number): Interval => wilson(correct, n);
