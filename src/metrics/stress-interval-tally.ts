/**
 * 95% intervals for a stress run's figures, read from the results in the same pass as the tallies (issues 27, 34).
 * One example yields several cases (numerical reasoning: up to seven; the tautology sweep: ten), and a case made from
 * one text of the pair alone (the competence tests: antonymy and numerical hypotheses made from the premise, its
 * `from`) is the same case for every pair that shares that text — SICK reuses its premises — so the cases of a row
 * come in clusters: the example, or for such cases the text they were made from (the premise). Every interval treats
 * a cluster as the unit:
 *  - accuracy (a share): Wilson's interval at the clusters' effective sample size (clusteredWilson), n = clusters;
 *  - reduction ((original − accuracy) / original on the same cases): a bootstrap that resamples whole clusters;
 *  - accuracy per gold label (tests listed in `byGold`) likewise, and accuracy − majority-class rate
 *    (`overMajority`) by a bootstrap over its examples.
 * Where a bootstrap has no spread the interval the accuracy's Wilson interval allows stands in (never [v, v]).
 * Seeds derive from the run's seed and the row's name, so the same run gives the same intervals.
 */
import { createHash } from 'node:crypto';
import type { StressCaseResult, StressResult } from '../core/stress-suite.ts';
import { bootstrap, wilson, type Interval } from '../stats/index.ts';
import type { StressCell, StressMetrics } from './stress-summary.ts';
import { ClusterCounts } from './stress-cluster-counts.ts';

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

/** Accuracy on the cases of one gold label, with its interval (n: its clusters). */
export interface GoldAccuracy {
  n: number;
  correct: number;
  accuracy: number | null;
  /** The distinct texts these cases were made from (premises), where cases share them (see StressCell.clusters). */
  clusters?: number;
  accuracy_interval: Interval;
}

/** One row's clusters: their counts, and which cluster a source text is (texts hashed: bounded memory). */
class Row {
  readonly counts = new ClusterCounts();
  private readonly bySource = new Map<string, number>();
  /** Whether some cluster holds the cases of more than one example (cases shared a source text). */
  shared = false;

  add(source: string | undefined, cases: number, correct: number, originalCorrectCases: number): void {
    const at = source === undefined ? undefined : this.bySource.get(source);
    if (at !== undefined) {
      this.counts.addTo(at, cases, correct, originalCorrectCases);
      this.shared = true;
      return;
    }
    const i = this.counts.add(cases, correct, originalCorrectCases);
    if (source !== undefined) this.bySource.set(source, i);
  }
}

/**
 * The cluster of a case: the texts of the original it was made from when it was made from one field of it alone
 * (`from`: the fields rewritten from another), hashed; undefined (its own example) otherwise.
 */
function sourceOf(c: StressCaseResult, original: Record<string, string> | undefined): string | undefined {
  if (!c.from || !original || typeof original !== 'object') return undefined;
  const kept = Object.keys(original)
    .filter((k) => !(k in c.from!))
    .sort();
  if (kept.length === Object.keys(original).length) return undefined;
  return createHash('sha1')
    .update(JSON.stringify(kept.map((k) => [k, original[k]])))
    .digest('base64')
    .slice(0, 16);
}

/** Reads a stress run's results, one line at a time, and adds intervals to its tallies. */
export class StressIntervalTally {
  private readonly original = { n: 0, correct: 0 };
  /** Row key (test, or test + "\u0000" + variant) → its clusters. */
  private readonly rows = new Map<string, Row>();
  private readonly golds = new Map<string, Map<string, Row>>();
  /** Per over-majority test: each example's gold and whether its case was right. */
  private readonly majority = new Map<string, { gold: string; correct: number }[]>();

  constructor(private readonly opts: StressIntervalOptions) {}

  private row<K>(map: Map<K, Row>, key: K): Row {
    let u = map.get(key);
    if (!u) map.set(key, (u = new Row()));
    return u;
  }

  add(r: StressResult): void {
    const orig = r.original.correct ? 1 : 0;
    this.original.n++;
    this.original.correct += orig;
    // This example's counts per (row, cluster): its cases of a row share one cluster (the example, or their source).
    const counts = new Map<string, { row: string; gold?: string; source: string | undefined; n: number; k: number }>();
    const bump = (row: string, source: string | undefined, right: boolean, gold?: string): void => {
      const key = `${row}\u0000${gold ?? ''}\u0000${source ?? ''}`;
      const c = counts.get(key) ?? { row, ...(gold === undefined ? {} : { gold }), source, n: 0, k: 0 };
      c.n++;
      if (right) c.k++;
      counts.set(key, c);
    };
    for (const c of r.cases) {
      const source = sourceOf(c, r.original.text);
      bump(c.test, source, c.correct);
      bump(`${c.test}\u0000${c.variant}`, source, c.correct);
      if (this.opts.byGold?.includes(c.test)) bump(c.test, source, c.correct, String(c.gold));
      if (this.opts.overMajority?.includes(c.test)) {
        const list = this.majority.get(c.test) ?? [];
        list.push({ gold: String(c.gold), correct: c.correct ? 1 : 0 });
        this.majority.set(c.test, list);
      }
    }
    for (const c of counts.values()) {
      const row =
        c.gold === undefined
          ? this.row(this.rows, c.row)
          : this.row(this.golds.get(c.row) ?? this.golds.set(c.row, new Map()).get(c.row)!, c.gold);
      row.add(c.source, c.n, c.k, c.n * orig);
    }
  }

  private seed(...parts: string[]): string {
    return [String(this.opts.seed), ...parts].join('\u0001');
  }

  private withIntervals(cell: StressCell, key: string, test: string): StressCell {
    const u = this.rows.get(key) ?? new Row();
    // The interval's value is the row's own figure (the same sums, added in another order).
    const accuracy = { ...u.counts.accuracy(), value: cell.accuracy };
    const out: StressCell = { ...cell, ...(u.shared ? { clusters: u.counts.clusters } : {}), accuracy_interval: accuracy };
    if (!this.opts.noReduction?.includes(test))
      out.reduction_interval = { ...u.counts.reduction(this.seed(key, 'reduction'), this.opts.resamples, accuracy), value: cell.reduction };
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
      original: { ...m.original, accuracy_interval: wilson(this.original.correct, this.original.n) },
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
        [...(m ?? new Map<string, Row>())]
          .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
          .map(([gold, u]) => {
            const { cases: n, correct } = u.counts.totals();
            return [
              gold,
              {
                n,
                correct,
                accuracy: n ? correct / n : null,
                ...(u.shared ? { clusters: u.counts.clusters } : {}),
                accuracy_interval: u.counts.accuracy(),
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
      {
        seed: this.seed(test, 'over_majority'),
        ...(this.opts.resamples ? { resamples: this.opts.resamples } : {}),
        // No spread (every case right, one gold): the accuracy's Wilson interval less the majority rate.
        degenerate: () => {
          const right = list.reduce((a, x) => a + x.correct, 0);
          const share = wilson(right, list.length);
          const top = Math.max(...labels.map((l) => list.filter((x) => x.gold === l).length)) / list.length;
          return share.low === null ? null : { low: share.low - top, high: share.high! - top, method: 'wilson' };
        },
      },
    );
  }
}
