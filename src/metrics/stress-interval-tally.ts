/**
 * 95% intervals for a stress run's figures, read from the results in the same pass as the tallies. One example
 * yields several cases (numerical reasoning: up to seven; the tautology sweep: ten), and the cases of one example
 * are not independent, so every bootstrap resamples whole examples:
 *  - accuracy: Wilson over the cases where each example gave at most one case to the row, else a bootstrap of
 *    Σ correct / Σ cases over the examples the row applied to;
 *  - reduction ((original − accuracy) / original on the same examples): a bootstrap over those examples;
 *  - accuracy per gold label (tests listed in `byGold`), and accuracy − majority-class rate (`overMajority`)
 *    likewise.
 * Seeds derive from the run's seed and the row's name, so the same run gives the same intervals.
 */
import type { StressResult } from '../attack/stress.ts';
import { bootstrap, wilson, type Interval } from '../stats/index.ts';
import type { StressCell, StressMetrics } from './stress.ts';

/** What {@link StressIntervalTally} is told about the suite. */
export interface StressIntervalOptions {
  /** The run's seed. */
  seed: number | string;
  /** Tests whose accuracy is also given per gold label. */
  byGold?: readonly string[];
  /** Tests compared with the majority class of their golds (one case per example). */
  overMajority?: readonly string[];
  /** Tests without a reduction (StressSuite.noReduction): no reduction interval. */
  noReduction?: readonly string[];
  resamples?: number;
}

/** Accuracy on the cases of one gold label, with its interval. */
export interface GoldAccuracy {
  n: number;
  correct: number;
  accuracy: number | null;
  accuracy_interval: Interval;
}

/** Per example (unit) counts of one row. */
class Units {
  readonly cases: number[] = [];
  readonly correct: number[] = [];
  /** The example's original answer right (1) or not (0). */
  readonly orig: number[] = [];
  add(cases: number, correct: number, orig: number): void {
    this.cases.push(cases);
    this.correct.push(correct);
    this.orig.push(orig);
  }
  get length(): number {
    return this.cases.length;
  }
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Σ num / Σ den over the resampled units; null over no case. */
function ratio(num: readonly number[], den: readonly number[], idx: Uint32Array): number | null {
  let a = 0;
  let b = 0;
  for (let i = 0; i < idx.length; i++) {
    a += num[idx[i]!]!;
    b += den[idx[i]!]!;
  }
  return b === 0 ? null : a / b;
}

/** The accuracy interval of a row: Wilson over cases when no example gave it two, else a bootstrap over examples. */
function accuracyInterval(u: Units, seed: string, resamples?: number): Interval {
  if (u.cases.every((c) => c <= 1)) return wilson(sum(u.correct), sum(u.cases));
  return bootstrap(u.length, (idx) => ratio(u.correct, u.cases, idx), { seed, ...(resamples ? { resamples } : {}) });
}

/** The reduction interval of a row: a bootstrap over its examples. */
function reductionInterval(u: Units, seed: string, resamples?: number): Interval {
  return bootstrap(
    u.length,
    (idx) => {
      let cases = 0;
      let correct = 0;
      let orig = 0;
      for (let i = 0; i < idx.length; i++) {
        const k = idx[i]!;
        cases += u.cases[k]!;
        correct += u.correct[k]!;
        orig += u.cases[k]! * u.orig[k]!;
      }
      if (cases === 0 || orig === 0) return null;
      return (orig - correct) / orig;
    },
    { seed, ...(resamples ? { resamples } : {}) },
  );
}

/** Reads a stress run's results, one line at a time, and adds intervals to its tallies. */
export class StressIntervalTally {
  private readonly original = new Units();
  /** Row key (test, or test + "\u0000" + variant) → units. */
  private readonly rows = new Map<string, Units>();
  private readonly golds = new Map<string, Map<string, Units>>();
  /** Per over-majority test: each example's gold and whether its case was right. */
  private readonly majority = new Map<string, { gold: string; correct: number }[]>();

  constructor(private readonly opts: StressIntervalOptions) {}

  private units<K>(map: Map<K, Units>, key: K): Units {
    let u = map.get(key);
    if (!u) map.set(key, (u = new Units()));
    return u;
  }

  add(r: StressResult): void {
    const orig = r.original.correct ? 1 : 0;
    this.original.add(1, orig, orig);
    const counts = new Map<string, [number, number]>();
    const byGold = new Map<string, Map<string, [number, number]>>();
    const bump = (m: Map<string, [number, number]>, key: string, right: boolean): void => {
      const c = m.get(key) ?? [0, 0];
      c[0]++;
      if (right) c[1]++;
      m.set(key, c);
    };
    for (const c of r.cases) {
      bump(counts, c.test, c.correct);
      bump(counts, `${c.test}\u0000${c.variant}`, c.correct);
      if (this.opts.byGold?.includes(c.test)) {
        const g = byGold.get(c.test) ?? new Map<string, [number, number]>();
        bump(g, String(c.gold), c.correct);
        byGold.set(c.test, g);
      }
      if (this.opts.overMajority?.includes(c.test)) {
        const list = this.majority.get(c.test) ?? [];
        list.push({ gold: String(c.gold), correct: c.correct ? 1 : 0 });
        this.majority.set(c.test, list);
      }
    }
    for (const [key, [n, k]] of counts) this.units(this.rows, key).add(n, k, orig);
    for (const [test, g] of byGold) {
      const m = this.golds.get(test) ?? new Map<string, Units>();
      for (const [gold, [n, k]] of g) this.units(m, gold).add(n, k, orig);
      this.golds.set(test, m);
    }
  }

  private seed(...parts: string[]): string {
    return [String(this.opts.seed), ...parts].join('\u0001');
  }

  private withIntervals(cell: StressCell, key: string, test: string): StressCell {
    const u = this.rows.get(key) ?? new Units();
    // The interval's value is the row's own figure (the same sums, added in another order).
    const out: StressCell = {
      ...cell,
      accuracy_interval: { ...accuracyInterval(u, this.seed(key, 'accuracy'), this.opts.resamples), value: cell.accuracy },
    };
    if (!this.opts.noReduction?.includes(test))
      out.reduction_interval = { ...reductionInterval(u, this.seed(key, 'reduction'), this.opts.resamples), value: cell.reduction };
    return out;
  }

  /** The tallies with an interval beside every accuracy and reduction, and `intervals` for the run-level figures. */
  finish(m: StressMetrics): StressMetrics {
    const tests: StressMetrics['tests'] = {};
    for (const [test, t] of Object.entries(m.tests)) {
      const row = this.withIntervals(t, test, test) as typeof t;
      if (t.variants) {
        row.variants = Object.fromEntries(
          Object.entries(t.variants).map(([v, c]) => [v, this.withIntervals(c, `${test}\u0000${v}`, test)]),
        );
      }
      tests[test] = row;
    }
    const intervals: Record<string, Interval> = {};
    if (m.worst) intervals.worst_accuracy = tests[m.worst.test]!.accuracy_interval!;
    if (m.max_reduction) intervals.max_reduction = tests[m.max_reduction.test]!.reduction_interval!;
    return {
      ...m,
      original: { ...m.original, accuracy_interval: wilson(sum(this.original.correct), this.original.length) },
      tests,
      intervals,
    };
  }

  /** Accuracy per gold label of each `byGold` test, labels in name order. */
  byGold(): Record<string, Record<string, GoldAccuracy>> {
    const out: Record<string, Record<string, GoldAccuracy>> = {};
    for (const test of this.opts.byGold ?? []) {
      const m = this.golds.get(test);
      out[test] = Object.fromEntries(
        [...(m ?? new Map<string, Units>())]
          .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
          .map(([gold, u]) => {
            const n = sum(u.cases);
            const correct = sum(u.correct);
            return [
              gold,
              {
                n,
                correct,
                accuracy: n ? correct / n : null,
                accuracy_interval: accuracyInterval(u, this.seed(test, gold, 'accuracy'), this.opts.resamples),
              },
            ];
          }),
      );
    }
    return out;
  }

  /**
   * Accuracy minus the majority-class rate of the same cases, for an over-majority test: a bootstrap over its
   * examples, the majority class found anew in each resample (ties to the label first in name order).
   */
  overMajority(test: string): Interval {
    const list = this.majority.get(test) ?? [];
    const labels = [...new Set(list.map((x) => x.gold))].sort();
    const goldIx = list.map((x) => labels.indexOf(x.gold));
    return bootstrap(
      list.length,
      (idx) => {
        const counts = new Array<number>(labels.length).fill(0);
        let correct = 0;
        for (let i = 0; i < idx.length; i++) {
          counts[goldIx[idx[i]!]!]!++;
          correct += list[idx[i]!]!.correct;
        }
        return (correct - Math.max(...counts)) / idx.length;
      },
      { seed: this.seed(test, 'over_majority'), ...(this.opts.resamples ? { resamples: this.opts.resamples } : {}) },
    );
  }
}
