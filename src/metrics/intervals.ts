/**
 * The 95% intervals of a run's headline metrics (issue 27). Proportions of examples (accuracy, success, stability,
 * exact match, a classifier probe's per-example accuracy) get Wilson intervals from their counts; means, F1 and
 * differences a seeded percentile bootstrap that resamples whole examples — and where every example gave the same
 * value (the bootstrap then has no spread) a cautious bound instead of a zero-width interval (issue 34). The
 * bootstrap needs each example's own values, so they are kept as compact typed columns (a few bytes per example:
 * 10⁶ examples fit in tens of MB), never the results themselves.
 */
import type { ExampleResult } from '../core/result.ts';
import { f1, type EntityCounts } from '../data/entities.ts';
import { bootstrap, bootstrapMean, pairedBootstrap, sameValueBounds, wilson, type Interval } from '../stats/index.ts';

/**
 * Figures of RunMetrics that carry an interval, keyed by the figure's own name (probe figures by their path,
 * e.g. `probe.worst_metric`). `clean_metric`, `attacked_metric` and `metric_drop` are the gate's names for the
 * headline metric (accuracy, or entity F1 for taggers, or answer F1 for QA) and its drop under attack.
 */
export type IntervalMetric =
  | 'clean_accuracy'
  | 'attacked_accuracy'
  | 'attack_success_rate'
  | 'stability'
  | 'mean_perturbed_word_pct'
  | 'mean_perturbed_word_pct_all'
  | 'mean_queries'
  | 'queries_per_success'
  | 'queries_per_success_median'
  | 'clean_f1'
  | 'attacked_f1'
  | 'clean_em'
  | 'attacked_em'
  | 'clean_metric'
  | 'attacked_metric'
  | 'metric_drop'
  | 'probe.original_metric'
  | 'probe.worst_metric'
  | 'probe.best_metric'
  | 'probe.stability';

/**
 * `RunMetrics.intervals`: each figure's interval beside it, in the figure's own units (rates 0–1;
 * `mean_perturbed_word_pct` in percent, as its figure). `accuracy_by_edits`: one Wilson interval per k;
 * `success_by_budget`: one Wilson interval per budget point (n = the attacked examples).
 */
export type RunIntervals = Partial<Record<IntervalMetric, Interval>> & { accuracy_by_edits?: Interval[]; success_by_budget?: Interval[] };

/** A growable typed column (doubling), so per-example values cost 8 bytes (or 4) each and no object. */
class Column<T extends Float64Array | Uint32Array> {
  length = 0;
  constructor(
    private data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  at(i: number): number {
    return this.data[i]!;
  }
  /** The values pushed, as plain numbers (for the stats module's mean). */
  values(): number[] {
    return Array.from(this.data.subarray(0, this.length));
  }
}
const floats = (): Column<Float64Array> => new Column(new Float64Array(16), (n) => new Float64Array(n));
const uints = (): Column<Uint32Array> => new Column(new Uint32Array(16), (n) => new Uint32Array(n));

/** What the tally needs of one example (the accumulator already derived it from the result). */
export interface ExampleValues {
  cleanCorrect: boolean;
  attackedCorrect: boolean;
  succeeded: boolean;
  skipped: boolean;
  perturbedPct: number;
  queries: number;
  entities?: { clean: EntityCounts; attacked: EntityCounts };
  answers?: { cleanEm: number; cleanF1: number; attackedEm: number; attackedF1: number };
  probe?: { original: number; worst: number; best: number };
}

/** What the tally keeps of one result. */
export function exampleValues(r: ExampleResult): ExampleValues {
  const [b, a] = [r.original_prediction, r.perturbed_prediction];
  const v: ExampleValues = {
    cleanCorrect: r.original_correct,
    attackedCorrect: r.perturbed_correct,
    succeeded: r.status === 'succeeded',
    skipped: r.status === 'skipped',
    perturbedPct: r.perturbed_word_pct,
    queries: r.queries,
  };
  if (b.entities && a.entities) v.entities = { clean: b.entities, attacked: a.entities };
  if (b.f1 !== undefined && a.f1 !== undefined) v.answers = { cleanEm: b.em ?? 0, cleanF1: b.f1, attackedEm: a.em ?? 0, attackedF1: a.f1 };
  if (r.probe) v.probe = { original: r.probe.original_metric, worst: r.probe.worst_metric, best: r.probe.best_metric };
  return v;
}

/** Per-example columns for the bootstrap intervals; the Wilson ones come from the accumulator's counts. */
export class IntervalTally {
  private readonly queries = floats();
  private readonly pctSuccess = floats();
  private readonly pctAll = floats();
  /** Per example: bit 0 clean correct, bit 1 attacked correct (the paired accuracy drop). */
  private readonly correct = uints();
  /** Taggers: tp, fp, fn before and after, six per example with entities. */
  private readonly entities = uints();
  /** QA: clean EM, clean F1, attacked EM, attacked F1, four per example. */
  private readonly answers = floats();
  /** Probes: original, worst, best metric, three per probed example. */
  private readonly probes = floats();

  constructor(private readonly seed: number | string) {}

  add(v: ExampleValues): void {
    this.queries.push(v.queries);
    if (v.succeeded) this.pctSuccess.push(v.perturbedPct);
    if (!v.skipped) this.pctAll.push(v.perturbedPct);
    this.correct.push((v.cleanCorrect ? 1 : 0) | (v.attackedCorrect ? 2 : 0));
    if (v.entities) {
      const { clean: c, attacked: a } = v.entities;
      for (const x of [c.tp, c.fp, c.fn, a.tp, a.fp, a.fn]) this.entities.push(x);
    }
    if (v.answers) for (const x of [v.answers.cleanEm, v.answers.cleanF1, v.answers.attackedEm, v.answers.attackedF1]) this.answers.push(x);
    if (v.probe) for (const x of [v.probe.original, v.probe.worst, v.probe.best]) this.probes.push(x);
  }

  /**
   * The intervals, given the counts the accumulator kept. `correctAtK[k]`: examples still right when the attack
   * may make at most k edits (null: the run has no such curve). `byF1`: the headline metric is F1 (taggers, QA).
   */
  finish(counts: {
    n: number;
    cleanCorrect: number;
    attackedCorrect: number;
    succeeded: number;
    attacked: number;
    stableSame: number;
    stableN: number;
    probed: number;
    probeNeverChanged: number;
    correctAtK: number[] | null;
    /** An extractive QA run: EM/F1 intervals even over zero examples (n/a). */
    qa: boolean;
  }): RunIntervals {
    const opts = (name: string): { seed: string } => ({ seed: `${String(this.seed)}\u0001${name}` });
    // F1 lies in [0, 1]: where every example gave one value, a cautious bound (sameValueBounds).
    const share = (name: string, n: number, stat: (idx: Uint32Array) => number | null): Interval => {
      const v = n ? stat(identity(n)) : null;
      return bootstrap(n, stat, { ...opts(name), ...(v === null ? {} : { degenerate: () => sameValueBounds(v, n, [0, 1]) }) });
    };
    const out: RunIntervals = {
      clean_accuracy: wilson(counts.cleanCorrect, counts.n),
      attacked_accuracy: wilson(counts.attackedCorrect, counts.n),
      attack_success_rate: wilson(counts.succeeded, counts.attacked),
      stability: wilson(counts.stableSame, counts.stableN),
      mean_perturbed_word_pct: bootstrapMean(this.pctSuccess.values(), { ...opts('mean_perturbed_word_pct'), range: [0, 100] }),
      mean_perturbed_word_pct_all: bootstrapMean(this.pctAll.values(), { ...opts('mean_perturbed_word_pct_all'), range: [0, 100] }),
      mean_queries: bootstrapMean(this.queries.values(), opts('mean_queries')),
    };
    if (counts.correctAtK) out.accuracy_by_edits = counts.correctAtK.map((k) => wilson(k, counts.n));

    // The headline metric, before and after, as a statistic of a resample of example indices.
    let clean: (idx: Uint32Array) => number | null;
    let attacked: (idx: Uint32Array) => number | null;
    let units = counts.n;
    if (this.answers.length || counts.qa) {
      // QA: mean EM and F1 over every example.
      const col = (k: number) => (idx: Uint32Array) => sumAt(this.answers, 4, k, idx) / idx.length;
      units = this.answers.length / 4;
      // Exact match is right or wrong per question: Wilson over the questions.
      const all = identity(units);
      out.clean_em = wilson(Math.round(sumAt(this.answers, 4, 0, all)), units);
      out.clean_f1 = share('clean_f1', units, col(1));
      out.attacked_em = wilson(Math.round(sumAt(this.answers, 4, 2, all)), units);
      out.attacked_f1 = share('attacked_f1', units, col(3));
      clean = col(1);
      attacked = col(3);
    } else if (this.entities.length) {
      // Taggers: corpus entity F1 of the resampled sentences' summed counts (null when nothing to score).
      const corpus = (o: number) => (idx: Uint32Array) =>
        f1({ tp: sumAt(this.entities, 6, o, idx), fp: sumAt(this.entities, 6, o + 1, idx), fn: sumAt(this.entities, 6, o + 2, idx) });
      units = this.entities.length / 6;
      out.clean_f1 = share('clean_f1', units, corpus(0));
      out.attacked_f1 = share('attacked_f1', units, corpus(3));
      clean = corpus(0);
      attacked = corpus(3);
    } else {
      const bit = (b: number) => (idx: Uint32Array) => {
        let k = 0;
        for (let i = 0; i < idx.length; i++) k += this.correct.at(idx[i]!) & b ? 1 : 0;
        return idx.length ? k / idx.length : null;
      };
      clean = bit(1);
      attacked = bit(2);
    }
    const byF1 = this.answers.length > 0 || counts.qa || this.entities.length > 0;
    out.clean_metric = byF1 ? out.clean_f1! : out.clean_accuracy;
    out.attacked_metric = byF1 ? out.attacked_f1! : out.attacked_accuracy;
    // clean − attacked, both on the same resample of examples; each example's difference lies in [−1, 1].
    const dropValue = units ? diffOf(clean, attacked, identity(units)) : null;
    const { p: _p, ...drop } = pairedBootstrap(units, attacked, clean, {
      ...opts('metric_drop'),
      ...(dropValue === null ? {} : { degenerate: () => sameValueBounds(dropValue, units, [-1, 1]) }),
    });
    out.metric_drop = drop;

    if (counts.probed) {
      const col = (k: number) => (idx: Uint32Array) => sumAt(this.probes, 3, k, idx) / idx.length;
      const m = this.probes.length / 3;
      // A classifier's per-example metric is 1 or 0 (right or wrong): a share, so Wilson; F1 and EM/F1: the bootstrap.
      const probeIv = (k: number, name: string): Interval =>
        byF1 ? share(name, m, col(k)) : wilson(Math.round(sumAt(this.probes, 3, k, identity(m))), m);
      out['probe.original_metric'] = probeIv(0, 'probe.original_metric');
      out['probe.worst_metric'] = probeIv(1, 'probe.worst_metric');
      out['probe.best_metric'] = probeIv(2, 'probe.best_metric');
      out['probe.stability'] = wilson(counts.probeNeverChanged, counts.probed);
    }
    return out;
  }
}

/** The indices 0…n−1 (the whole sample, as a resample the statistics take). */
function identity(n: number): Uint32Array {
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  return all;
}

/** clean − attacked on the examples at idx; null where either is undefined. */
function diffOf(
  clean: (idx: Uint32Array) => number | null,
  attacked: (idx: Uint32Array) => number | null,
  idx: Uint32Array,
): number | null {
  const c = clean(idx);
  const a = attacked(idx);
  return c === null || a === null ? null : c - a;
}

/** Σ over idx of column `k` of a row-major table with `width` values per example. */
function sumAt(c: Column<Float64Array | Uint32Array>, width: number, k: number, idx: Uint32Array): number {
  let s = 0;
  for (let i = 0; i < idx.length; i++) s += c.at(idx[i]! * width + k);
  return s;
}
