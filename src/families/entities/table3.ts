/**
 * The entity probe's numbers, summed from its results in one pass: the paper's Table 3 (Original / Worst / Best /
 * Stability) and its analyses by replacement name — the metric against the name's frequency in the training file
 * (Figure 1) and against the subword pieces the model's tokenizer makes of it (Figure 2).
 *
 * Table 3 is over D, the examples that mention the type (the probed ones), as the paper's is (its D: the 218 MRPC
 * pairs, the 328 GEC sentences that name an organisation): Original, Worst and Best over D, so D_worst restricted to
 * D scored by `eval` gives the Worst row. `all_examples` has Original / Worst / Best over every example of the run,
 * an example with no mention counting with its own answer in all three (what the whole d_worst / d_best files
 * score), labelled as that. Stability is the share of probed examples whose prediction never changed within the
 * budget. Every figure carries its n and a 95% interval: Wilson for the shares (accuracy, exact match, stability), a
 * seeded bootstrap over examples for entity F1 (corpus F1 of the resampled examples' counts), answer F1 and the
 * Best − Worst gap — with a cautious bound where every example gave one value (the bootstrap then has no spread).
 */
import type { Prediction } from '../../core/goals/index.ts';
import { addCounts, f1, type EntityCounts } from '../../data/entities.ts';
import type { ResultsDigest } from '../../recipes/registry/define.ts';
import { bootstrap, mean, pairedBootstrap, sameValueBounds, wilson, type Interval } from '../../stats/index.ts';
import { FREQUENCY_BINS, frequencyBin, SUBWORD_BINS, subwordBin, type TrainCounts } from './train.ts';

/** Which measure the table holds: accuracy (classifiers), corpus entity F1 (taggers), EM and F1 (QA). */
export type ProbeMeasure = 'accuracy' | 'entity F1' | 'EM/F1';

/**
 * One row of Table 3: the measure (accuracy, entity F1, or answer F1 for QA) and, for QA, exact match; n the
 * examples it is over, and the 95% interval of each.
 */
export interface Table3Row {
  value: number | null;
  em?: number | null;
  n: number;
  interval: Interval;
  em_interval?: Interval;
}

/** Table 3 over D (the headline). */
export interface Table3 {
  /** |D|: the examples that mention the type (probed). */
  n: number;
  original: Table3Row;
  worst: Table3Row;
  best: Table3Row;
  /** Share of D whose prediction never changed within the budget. */
  stability: number | null;
  stability_interval: Interval;
  /** Best − Worst over D. */
  gap: number | null;
  /** Paired bootstrap over the examples of D. */
  gap_interval: Interval;
}

/** One bin of an analysis: (variant, name) pairs in it and their mean variant metric. */
export interface BinRow {
  bin: string;
  n: number;
  metric: number | null;
}

/** What the entity probe adds to summary.json (`details`). */
export interface EntityDetails {
  type: string;
  budget: number;
  annotator: string;
  measure: ProbeMeasure;
  n: number;
  probed: number;
  not_applicable: number;
  not_applicable_reasons: Record<string, number>;
  /** The paper's Table 3, over D (the examples that mention the type). */
  table3: Table3;
  /** Original / Worst / Best over every example of the run (those not probed at their own answer): NOT the paper's Table 3. */
  all_examples: { n: number; original: Table3Row; worst: Table3Row; best: Table3Row };
  /** Figure 1: null without --train-data (or with compact results, which keep no per-variant names). */
  by_frequency: BinRow[] | null;
  /** Figure 2: null when the model cannot tokenize (or compact results). */
  by_subwords: BinRow[] | null;
  /** Names most often in the worst variant of an example (each example counted once per name), with how often in the best. */
  worst_names: { name: string; worst: number; best: number }[];
  train_data: string | null;
}

/** One Table 3 cell set (original, worst or best) over some examples, kept per example for the intervals. */
class Cell {
  private readonly correct: boolean[] = [];
  private readonly counts: EntityCounts[] = [];
  private readonly em: number[] = [];
  private readonly f1: number[] = [];

  add(p: Prediction, correct: boolean): void {
    this.correct.push(correct);
    this.counts.push(p.entities ?? { tp: 0, fp: 0, fn: 0 });
    this.em.push(p.em ?? 0);
    this.f1.push(p.f1 ?? 0);
  }

  get n(): number {
    return this.correct.length;
  }

  /** The measure over the examples at `idx` (with repeats): what the row shows and what the bootstrap resamples. */
  stat(measure: ProbeMeasure): (idx: Uint32Array) => number | null {
    if (measure === 'entity F1')
      return (idx) => {
        let c: EntityCounts = { tp: 0, fp: 0, fn: 0 };
        for (const i of idx) c = addCounts(c, this.counts[i]!);
        return f1(c);
      };
    if (measure === 'EM/F1') return (idx) => mean(this.f1, idx);
    return (idx) => mean(Array.from(idx, (i) => (this.correct[i] ? 1 : 0)));
  }

  row(measure: ProbeMeasure, seed: string): Table3Row {
    const n = this.n;
    if (measure === 'accuracy') {
      const iv = wilson(this.correct.filter(Boolean).length, n);
      return { value: iv.value, n, interval: iv };
    }
    const stat = this.stat(measure);
    const v = n ? stat(everyIndex(n)) : null;
    const iv = bootstrap(n, stat, { seed, ...(v === null ? {} : { degenerate: () => sameValueBounds(v, n, [0, 1]) }) });
    if (measure === 'entity F1') return { value: iv.value, n, interval: iv };
    // Exact match is right or wrong per example: a share.
    const em = wilson(Math.round(this.em.reduce((a, x) => a + x, 0)), n);
    return { value: iv.value, em: em.value, n, interval: iv, em_interval: em };
  }
}

/** Mean per bin. */
class Bins {
  private readonly sums = new Map<string, { n: number; sum: number }>();
  add(bin: string, x: number): void {
    const s = this.sums.get(bin) ?? { n: 0, sum: 0 };
    s.n++;
    s.sum += x;
    this.sums.set(bin, s);
  }
  get empty(): boolean {
    return this.sums.size === 0;
  }
  rows(bins: readonly string[]): BinRow[] {
    return bins.map((bin) => {
      const s = this.sums.get(bin);
      return { bin, n: s?.n ?? 0, metric: s?.n ? s.sum / s.n : null };
    });
  }
}

/** Settings the details echo, and the run's seed (the bootstrap intervals' seeds derive from it). */
export interface DigestOptions {
  seed: number;
  type: string;
  budget: number;
  annotator: string;
  train?: { path: string; counts: TrainCounts };
}

/** The entity probe's ResultsDigest: feed results in file order, get {@link EntityDetails}. */
export function entityDigest(opts: DigestOptions): ResultsDigest & { finish(): EntityDetails } {
  const all = { original: new Cell(), worst: new Cell(), best: new Cell() };
  const probed = { original: new Cell(), worst: new Cell(), best: new Cell() };
  const byFrequency = new Bins();
  const bySubwords = new Bins();
  const reasons: Record<string, number> = {};
  const worstNames = new Map<string, { worst: number; best: number }>();
  let measure: ProbeMeasure | undefined;
  let n = 0;
  let probedN = 0;
  let stable = 0;
  // Names as inserted take the original's case (a headline's MARIA): counted case-insensitively, shown in the
  // first spelling that is not all capitals.
  const spelling = new Map<string, string>();
  const tally = (names: Iterable<string>, key: 'worst' | 'best'): void => {
    for (const name of new Set([...names].map((n) => n.toLowerCase()))) {
      const t = worstNames.get(name) ?? { worst: 0, best: 0 };
      t[key]++;
      worstNames.set(name, t);
    }
    for (const n of names)
      if (!spelling.has(n.toLowerCase()) || spelling.get(n.toLowerCase()) === n.toUpperCase()) spelling.set(n.toLowerCase(), n);
  };
  return {
    add(r) {
      n++;
      measure ??= r.original_prediction.entities ? 'entity F1' : r.original_prediction.f1 !== undefined ? 'EM/F1' : 'accuracy';
      const best = r.probe
        ? { p: r.probe.best.prediction, correct: r.probe.best.correct }
        : { p: r.original_prediction, correct: r.original_correct };
      for (const cells of r.probe ? [all, probed] : [all]) {
        cells.original.add(r.original_prediction, r.original_correct);
        cells.worst.add(r.perturbed_prediction, r.perturbed_correct);
        cells.best.add(best.p, best.correct);
      }
      if (!r.probe) {
        const why = r.skip_reason ?? 'unknown';
        reasons[why] = (reasons[why] ?? 0) + 1;
        return;
      }
      probedN++;
      if (r.probe.changed === 0) stable++;
      tally(insertedNames(r.edits), 'worst');
      tally(insertedNames(r.probe.best.edits), 'best');
      for (const s of r.probe.samples ?? []) {
        s.names.forEach((name, k) => {
          if (opts.train) byFrequency.add(frequencyBin(opts.train.counts.count(name)), s.metric);
          const pieces = s.pieces?.[k];
          if (pieces !== undefined) bySubwords.add(subwordBin(pieces), s.metric);
        });
      }
    },
    finish() {
      const m = measure ?? 'accuracy';
      const seed = `${opts.seed}/entities`;
      const rows = (c: typeof all, view: string) => ({
        original: c.original.row(m, `${seed}/${view}/original`),
        worst: c.worst.row(m, `${seed}/${view}/worst`),
        best: c.best.row(m, `${seed}/${view}/best`),
      });
      const table = rows(probed, 'D');
      const worstAll = probedN ? probed.worst.stat(m)(everyIndex(probedN)) : null;
      const bestAll = probedN ? probed.best.stat(m)(everyIndex(probedN)) : null;
      const gapValue = worstAll === null || bestAll === null ? null : bestAll - worstAll;
      const gap = stripP(
        pairedBootstrap(probedN, probed.worst.stat(m), probed.best.stat(m), {
          seed: `${seed}/D/gap`,
          // Best and worst the same on every example: a bound, never [0, 0] (each example's gap lies in [−1, 1]).
          ...(gapValue === null ? {} : { degenerate: () => sameValueBounds(gapValue, probedN, [-1, 1]) }),
        }),
      );
      const stability = wilson(stable, probedN);
      return {
        type: opts.type,
        budget: opts.budget,
        annotator: opts.annotator,
        measure: m,
        n,
        probed: probedN,
        not_applicable: n - probedN,
        not_applicable_reasons: reasons,
        table3: {
          n: probedN,
          ...table,
          stability: stability.value,
          stability_interval: stability,
          gap: gap.value,
          gap_interval: gap,
        },
        all_examples: { n, ...rows(all, 'all') },
        by_frequency: opts.train && !byFrequency.empty ? byFrequency.rows(FREQUENCY_BINS) : null,
        by_subwords: bySubwords.empty ? null : bySubwords.rows(SUBWORD_BINS),
        worst_names: [...worstNames]
          .map(([key, t]) => ({ name: spelling.get(key) ?? key, ...t }))
          .filter((x) => x.worst > 0)
          .sort((a, b) => b.worst - a.worst || a.best - b.best || a.name.localeCompare(b.name))
          .slice(0, 20),
        train_data: opts.train?.path ?? null,
      };
    },
  };
}

/** The indices 0…n−1: the whole sample, as the statistics take a resample. */
function everyIndex(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

/** An Interval without the paired test's p (summary.json keeps the {value, low, high, n, method} shape). */
function stripP(iv: Interval & { p: number | null }): Interval {
  const { p: _p, ...rest } = iv;
  return rest;
}

/** The names a variant put in: the new text of its entity edits. */
function insertedNames(edits: readonly { type: string; after: string }[]): string[] {
  return edits.filter((e) => e.type.startsWith('entity:') && e.after).map((e) => e.after);
}
