/**
 * The numbers of a stress run, tallied one result line at a time (nothing but counts is kept, so a run of any
 * size is summarised in bounded memory): per test, and per variant within a test, the accuracy, the original
 * accuracy on the same examples and the reduction from it, extra metric means, and for classifiers the gold ×
 * prediction counts. A metric over zero cases is null ("n/a"), never 0.
 */
import type { StressCaseResult, StressResult } from '../core/stress-suite.ts';
import type { Interval } from '../stats/index.ts';
import { originalInterval, TestColumns } from './stress-cluster-counts.ts';

/** The numbers of one test, one variant of a test, or the original examples. */
export interface StressCell {
  /** Cases counted (for the original: examples). */
  n: number;
  correct: number;
  accuracy: number | null;
  /** The original accuracy on the same examples: each case counts its source example's original answer. */
  original_accuracy: number | null;
  /** (original_accuracy − accuracy) / original_accuracy: the share of the original accuracy lost; negative = gained. */
  reduction: number | null;
  /** Means of the per-case metrics (QA: em, f1), with their originals on the same examples and reductions. */
  metrics?: Record<string, { mean: number | null; original: number | null; reduction: number | null }>;
  /** Classifiers: by gold label, its cases and the share predicted as each label (the error confusion). */
  confusion?: Record<string, { n: number; predicted: Record<string, number> }>;
  /** Classifiers: the most frequent gold label among these cases and its share (the majority-class baseline). */
  majority?: { label: string; rate: number } | null;
  /**
   * Where cases of different examples were made from the same text (the NLI competence tests: from one premise that
   * several pairs share): the distinct texts, i.e. the clusters the intervals resample (absent: each example is one).
   */
  clusters?: number;
  /** 95% interval of `accuracy`, where the suite computes one (see src/metrics/stress-cluster-counts.ts). */
  accuracy_interval?: Interval;
  /** 95% interval of `reduction` (bootstrap over whole examples), where the suite computes one. */
  reduction_interval?: Interval;
}

/** The numbers of one test: its cell, where it applied, and its variants. */
export interface StressTestSummary extends StressCell {
  /** Examples it made at least one case for. */
  examples: number;
  /** Examples it did not apply to, and why (reason → examples). */
  not_applicable: number;
  not_applicable_reasons: Record<string, number>;
  /** Per variant (e.g. "tautology-premise-3"), in the order first seen; absent when the test has no variants of its own. */
  variants?: Record<string, StressCell>;
  /** 95% intervals of `accuracy` (Wilson, at the clusters' effective size) and `reduction` (a bootstrap over clusters). */
  accuracy_interval?: Interval;
  reduction_interval?: Interval;
}

/** What a {@link StressTally} gives when every result is in. */
export interface StressMetrics {
  /** Examples. */
  n: number;
  /** Cases over every test. */
  cases: number;
  /** The unmodified examples (n = examples; original_accuracy and reduction are not theirs: null). */
  original: StressCell & { accuracy_interval?: Interval };
  /** By test, in the suite's order (a test that never applied has n = 0 and null metrics). */
  tests: Record<string, StressTestSummary>;
  /** The test with the lowest accuracy (tests in `notInWorst` aside), and the one with the largest reduction. */
  worst: { test: string; accuracy: number } | null;
  max_reduction: { test: string; reduction: number } | null;
  /** Mean distinct model inputs per example. */
  mean_queries: number | null;
  /** 95% intervals of the run-level figures (`worst_accuracy`, `max_reduction`), where the suite computes them. */
  intervals?: Record<string, Interval>;
}

class Cell {
  n = 0;
  correct = 0;
  originalCorrect = 0;
  readonly sums = new Map<string, { sum: number; orig: number }>();
  readonly confusion = new Map<string, Map<string, number>>();

  constructor(private readonly withConfusion: boolean) {}

  add(c: Pick<StressCaseResult, 'correct' | 'metrics' | 'gold' | 'prediction'>, original: StressResult['original']): void {
    this.n++;
    if (c.correct) this.correct++;
    if (original.correct) this.originalCorrect++;
    for (const [k, v] of Object.entries(c.metrics ?? {})) {
      const s = this.sums.get(k) ?? { sum: 0, orig: 0 };
      s.sum += v;
      s.orig += original.metrics?.[k] ?? 0;
      this.sums.set(k, s);
    }
    if (this.withConfusion) {
      const gold = String(c.gold);
      const row = this.confusion.get(gold) ?? new Map<string, number>();
      row.set(c.prediction, (row.get(c.prediction) ?? 0) + 1);
      this.confusion.set(gold, row);
    }
  }

  /** `withOriginal`: the cases are rewrites measured against their examples' original answers. */
  finish(withOriginal: boolean): StressCell {
    const rate = (k: number): number | null => (this.n ? k / this.n : null);
    const accuracy = rate(this.correct);
    const original = withOriginal ? rate(this.originalCorrect) : null;
    const cell: StressCell = {
      n: this.n,
      correct: this.correct,
      accuracy,
      original_accuracy: original,
      reduction: reduction(original, accuracy),
    };
    if (this.sums.size) {
      cell.metrics = Object.fromEntries(
        [...this.sums].map(([k, s]) => {
          const mean = rate(s.sum);
          const orig = withOriginal ? rate(s.orig) : null;
          return [k, { mean, original: orig, reduction: reduction(orig, mean) }];
        }),
      );
    }
    if (this.withConfusion) {
      const byName = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
      const rows = [...this.confusion].sort(byName).map(([gold, row]) => ({ gold, row, n: [...row.values()].reduce((a, b) => a + b, 0) }));
      cell.confusion = Object.fromEntries(
        rows.map((r) => [r.gold, { n: r.n, predicted: Object.fromEntries([...r.row].sort(byName).map(([p, k]) => [p, k / r.n])) }]),
      );
      // Ties go to the label first in name order.
      const top = rows.reduce<(typeof rows)[number] | undefined>((best, r) => (!best || r.n > best.n ? r : best), undefined);
      cell.majority = top ? { label: top.gold, rate: top.n / this.n } : null;
    }
    return cell;
  }
}

/** The share of the original lost; null when either is null or the original is 0 (nothing to lose). */
export function reduction(original: number | null, now: number | null): number | null {
  if (original === null || now === null || original === 0) return null;
  return (original - now) / original;
}

class TestTally {
  readonly all: Cell;
  readonly variants = new Map<string, Cell>();
  constructor(readonly confusion: boolean) {
    this.all = new Cell(confusion);
  }
  examples = 0;
  readonly reasons = new Map<string, number>();
  /** Per example with cases of this test: its counts, for the bootstrap intervals. */
  readonly columns = new TestColumns();
}

/**
 * Running counts of a stress run, added result by result (in file order, so a resumed run's summary equals an
 * uninterrupted one's). `tests` fixes the order; a test found in a result but not named is appended.
 */
export class StressTally {
  private n = 0;
  private cases = 0;
  private queries = 0;
  private readonly original: Cell;
  private readonly tests = new Map<string, TestTally>();

  constructor(
    tests: readonly string[],
    private readonly opts: { confusion?: boolean; notInWorst?: readonly string[]; noReduction?: readonly string[]; seed?: number } = {},
  ) {
    this.original = new Cell(opts.confusion === true);
    for (const t of tests) this.tests.set(t, new TestTally(opts.confusion === true));
  }

  private test(name: string): TestTally {
    let t = this.tests.get(name);
    if (!t) this.tests.set(name, (t = new TestTally(this.opts.confusion === true)));
    return t;
  }

  add(r: StressResult): void {
    this.n++;
    this.queries += r.queries;
    this.original.add(r.original, r.original);
    const seen = new Map<string, { cases: number; correct: number }>();
    for (const c of r.cases) {
      this.cases++;
      const t = this.test(c.test);
      let own = seen.get(c.test);
      if (!own) {
        seen.set(c.test, (own = { cases: 0, correct: 0 }));
        t.examples++;
      }
      own.cases++;
      if (c.correct) own.correct++;
      t.all.add(c, r.original);
      let v = t.variants.get(c.variant);
      if (!v) t.variants.set(c.variant, (v = new Cell(t.confusion)));
      v.add(c, r.original);
    }
    for (const [test, own] of seen) this.test(test).columns.add(own.cases, own.correct, r.original.correct);
    for (const [test, why] of Object.entries(r.not_applicable)) {
      const t = this.test(test);
      t.reasons.set(why, (t.reasons.get(why) ?? 0) + 1);
    }
  }

  finish(): StressMetrics {
    const tests: Record<string, StressTestSummary> = {};
    // A test with golds of its own has no reduction (see StressSuite.noReduction).
    const cell = (name: string, c: Cell): StressCell => {
      const f = c.finish(true);
      return this.opts.noReduction?.includes(name) ? { ...f, reduction: null } : f;
    };
    for (const [name, t] of this.tests) {
      const reasons = Object.fromEntries([...t.reasons].sort((a, b) => b[1] - a[1]));
      tests[name] = {
        ...cell(name, t.all),
        examples: t.examples,
        not_applicable: [...t.reasons.values()].reduce((a, b) => a + b, 0),
        not_applicable_reasons: reasons,
        ...noReductionInterval(name, t.columns.finish(this.opts.seed ?? 0, name), this.opts.noReduction),
        ...([...t.variants.keys()].some((v) => v !== name)
          ? { variants: Object.fromEntries([...t.variants].map(([k, v]) => [k, cell(name, v)])) }
          : {}),
      };
    }
    const ranked = Object.entries(tests).filter(([name]) => !this.opts.notInWorst?.includes(name));
    let worst: StressMetrics['worst'] = null;
    let maxReduction: StressMetrics['max_reduction'] = null;
    for (const [test, s] of ranked) {
      if (s.accuracy !== null && (worst === null || s.accuracy < worst.accuracy)) worst = { test, accuracy: s.accuracy };
      if (s.reduction !== null && (maxReduction === null || s.reduction > maxReduction.reduction))
        maxReduction = { test, reduction: s.reduction };
    }
    // The run-level figures' intervals are their tests' (a suite's digest may replace them: see StressIntervalTally).
    const intervals: Record<string, Interval> = {};
    if (worst && tests[worst.test]!.accuracy_interval) intervals.worst_accuracy = tests[worst.test]!.accuracy_interval!;
    if (maxReduction && tests[maxReduction.test]!.reduction_interval)
      intervals.max_reduction = tests[maxReduction.test]!.reduction_interval!;
    return {
      n: this.n,
      cases: this.cases,
      original: { ...this.original.finish(false), accuracy_interval: originalInterval(this.original.correct, this.original.n) },
      tests,
      worst,
      max_reduction: maxReduction,
      mean_queries: this.n ? this.queries / this.n : null,
      intervals,
    };
  }
}

/** A test without a reduction (StressSuite.noReduction) has no reduction interval either. */
function noReductionInterval<T extends { reduction_interval?: unknown }>(
  name: string,
  iv: T,
  none?: readonly string[],
): Omit<T, 'reduction_interval'> | T {
  if (!none?.includes(name)) return iv;
  const { reduction_interval: _dropped, ...rest } = iv;
  return rest;
}

/** summary.json of a stress run: what identifies it, its tallies, and what its suite adds. */
export interface StressSummary extends StressMetrics {
  complete: true;
  kind: 'stress';
  /** A shard's summary (`--shard I/N`): over its examples only; `textstress merge` writes the whole run's. */
  shard?: { index: number; count: number };
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  settings: Record<string, unknown>;
  /** What the suite adds to its tallies (NLI: the label scheme and the tautology sweep). */
  details?: Record<string, unknown>;
  wall_seconds: number;
  /** Rows of the data file skipped as malformed (only with --skip-bad-rows). */
  skipped_rows: number;
  /** Examples whose text holds U+FFFD (invalid UTF-8 in the data file, most likely), and where the first is. */
  replacement_chars?: { rows: number; first?: string };
  /** This process's traffic with the model (see RunSummary.process). */
  process: { requests: number; cache_hits: number; cache_hit_rate: number | null; model_inferences: number };
}
