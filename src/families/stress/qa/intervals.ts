/**
 * 95% intervals of Table 4's figures, from the result lines (src/stats). Exact match is right or wrong per question:
 * Wilson's interval over the questions (for an AddAny / AddCommon row, over the worst set's questions). F1 and the
 * reductions from the original on the same questions: a seeded percentile bootstrap over whole questions (each
 * question's case, or its case in every alternative set, resampled together with its original answer); the AddAny /
 * AddCommon rows' statistic is the worst set, so each resample picks its worst set again. Where a bootstrap has no
 * spread (every question F1 0, say) a cautious bound stands in, never [v, v]. Seeds derive from the run's seed.
 */
import type { StressResult } from '../../../core/stress-suite.ts';
import { reductionBounds } from '../../../metrics/stress-cluster-counts.ts';
import { bootstrap, sameValueBounds, wilson, type Interval } from '../../../stats/index.ts';

/** The intervals of one row of Table 4 (CONTRACT: `<figure>_interval` beside the figure). */
export interface QaRowIntervals {
  em_interval: Interval;
  f1_interval: Interval;
  em_reduction_interval: Interval;
  f1_reduction_interval: Interval;
}

/** What the digest gives: the original row's and each test's intervals. */
export interface QaIntervals {
  original: { em_interval: Interval; f1_interval: Interval };
  tests: Record<string, QaRowIntervals>;
}

/** Per-question values of one test (or one set of a test): the question's index in the run, its EM and F1. */
interface Column {
  q: number[];
  em: number[];
  f1: number[];
}

const column = (): Column => ({ q: [], em: [], f1: [] });

/** Reads the result lines of a QA stress run; `worstOf` names the tests whose row is the worst of their variants. */
export class QaIntervalDigest {
  private n = 0;
  private readonly orig = column();
  private readonly tests = new Map<string, Map<string, Column>>();

  constructor(
    private readonly seed: number,
    private readonly worstOf: ReadonlySet<string>,
  ) {}

  add(r: StressResult): void {
    const q = this.n++;
    this.orig.q.push(q);
    this.orig.em.push(r.original.metrics?.em ?? 0);
    this.orig.f1.push(r.original.metrics?.f1 ?? 0);
    for (const c of r.cases) {
      let byVariant = this.tests.get(c.test);
      if (!byVariant) this.tests.set(c.test, (byVariant = new Map()));
      // Tests other than the worst-of rows have one case per question: their variants are pooled.
      const key = this.worstOf.has(c.test) ? c.variant : c.test;
      let col = byVariant.get(key);
      if (!col) byVariant.set(key, (col = column()));
      col.q.push(q);
      col.em.push(c.metrics?.em ?? 0);
      col.f1.push(c.metrics?.f1 ?? 0);
    }
  }

  finish(): QaIntervals {
    const all = Uint32Array.from(this.orig.q);
    const o = this.orig;
    const mean = (xs: readonly number[], idx: Uint32Array): number | null => {
      if (idx.length === 0) return null;
      let s = 0;
      for (let i = 0; i < idx.length; i++) s += xs[idx[i]!]!;
      return s / idx.length;
    };
    const boot = (
      name: string,
      n: number,
      stat: (idx: Uint32Array) => number | null,
      degenerate: (v: number) => { low: number; high: number; method: Interval['method'] } | null,
    ): Interval => {
      const v = n ? stat(Uint32Array.from({ length: n }, (_, i) => i)) : null;
      return bootstrap(n, stat, {
        seed: `${this.seed}\u0001stress-qa\u0001${name}`,
        ...(v === null ? {} : { degenerate: () => degenerate(v) }),
      });
    };
    const sum = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0);
    // EM is 1 or 0 per question: a share, so Wilson; F1 lies in [0, 1] (a bound where every question gave one value).
    const emShare = (em: readonly number[]): Interval => wilson(Math.round(sum(em)), em.length);
    const f1Of = (name: string, n: number, stat: (idx: Uint32Array) => number | null): Interval =>
      boot(name, n, stat, (v) => sameValueBounds(v, n, [0, 1]));
    const tests: Record<string, QaRowIntervals> = {};
    for (const [test, byVariant] of this.tests) {
      const cols = [...byVariant.values()];
      // Every set of a worst-of row covers the same questions (suite.ts): the units are the first set's questions.
      const units = cols[0]!.q;
      const pick = (idx: Uint32Array): Column => {
        if (cols.length === 1) return cols[0]!;
        let best = cols[0]!;
        let bestF1 = mean(best.f1, idx)!;
        let bestEm = mean(best.em, idx)!;
        for (const c of cols.slice(1)) {
          const f1 = mean(c.f1, idx)!;
          const em = mean(c.em, idx)!;
          if (f1 < bestF1 || (f1 === bestF1 && em < bestEm)) [best, bestF1, bestEm] = [c, f1, em];
        }
        return best;
      };
      const origAt = (xs: readonly number[], idx: Uint32Array): number | null => {
        const at = new Uint32Array(idx.length);
        for (let i = 0; i < idx.length; i++) at[i] = units[idx[i]!]!;
        return mean(xs, at);
      };
      const red = (orig: number | null, now: number | null): number | null =>
        orig === null || now === null || orig === 0 ? null : (orig - now) / orig;
      const every = Uint32Array.from(units, (_, i) => i);
      const em = emShare(pick(every).em);
      const f1 = f1Of(`${test}\u0001f1`, units.length, (idx) => mean(pick(idx).f1, idx));
      // A reduction with no spread: the one its EM (F1) interval allows, the original on the same questions held fixed.
      const reduction = (name: string, key: 'em' | 'f1', iv: Interval): Interval =>
        boot(
          name,
          units.length,
          (idx) => red(origAt(o[key], idx), mean(pick(idx)[key], idx)),
          () => reductionBounds(iv, origAt(o[key], every) ?? 0),
        );
      tests[test] = {
        em_interval: em,
        f1_interval: f1,
        em_reduction_interval: reduction(`${test}\u0001em_reduction`, 'em', em),
        f1_reduction_interval: reduction(`${test}\u0001f1_reduction`, 'f1', f1),
      };
    }
    return {
      original: {
        em_interval: emShare(o.em),
        f1_interval: f1Of('original\u0001f1', all.length, (idx) => mean(o.f1, idx)),
      },
      tests,
    };
  }
}
