/**
 * The entity probe's numbers, summed from its results in one pass: the paper's Table 3 (Original / Worst / Best /
 * Stability) and its analyses by replacement name — the metric against the name's frequency in the training file
 * (Figure 1) and against the subword pieces the model's tokenizer makes of it (Figure 2).
 *
 * Original, Worst and Best are measured over every example of the run, as the paper does on D_worst and D_best (an
 * example with no entity of the type counts with its own answer in all three rows), so they are the numbers the
 * written d_worst / d_best files give; `probed_only` has them over the probed examples. Stability is the share of
 * probed examples whose prediction never changed within the budget; an example not probed is never stable.
 */
import type { Prediction } from '../../attack/goals/index.ts';
import { addCounts, f1, type EntityCounts } from '../../data/entities.ts';
import type { ResultsDigest } from '../../recipes/registry/define.ts';
import { FREQUENCY_BINS, frequencyBin, SUBWORD_BINS, subwordBin, type TrainCounts } from './train.ts';

/** Which measure the table holds: accuracy (classifiers), corpus entity F1 (taggers), EM and F1 (QA). */
export type ProbeMeasure = 'accuracy' | 'entity F1' | 'EM/F1';

/** One row of Table 3: the measure (accuracy, entity F1, or answer F1 for QA) and, for QA, exact match. */
export interface Table3Row {
  value: number | null;
  em?: number | null;
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
  table3: { original: Table3Row; worst: Table3Row; best: Table3Row; stability: number | null; gap: number | null };
  probed_only: { original: Table3Row; worst: Table3Row; best: Table3Row };
  /** Figure 1: null without --train-data (or with compact results, which keep no per-variant names). */
  by_frequency: BinRow[] | null;
  /** Figure 2: null when the model cannot tokenize (or compact results). */
  by_subwords: BinRow[] | null;
  /** Names most often in the worst variant of an example (each example counted once per name), with how often in the best. */
  worst_names: { name: string; worst: number; best: number }[];
  train_data: string | null;
}

/** Running sums of one Table 3 cell set (original, worst or best) over some examples. */
class Cell {
  private n = 0;
  private correct = 0;
  private em = 0;
  private f1 = 0;
  private counts: EntityCounts = { tp: 0, fp: 0, fn: 0 };

  add(p: Prediction, correct: boolean): void {
    this.n++;
    if (correct) this.correct++;
    if (p.entities) this.counts = addCounts(this.counts, p.entities);
    this.em += p.em ?? 0;
    this.f1 += p.f1 ?? 0;
  }

  row(measure: ProbeMeasure): Table3Row {
    if (measure === 'entity F1') return { value: this.n ? f1(this.counts) : null };
    if (measure === 'EM/F1') return { value: this.n ? this.f1 / this.n : null, em: this.n ? this.em / this.n : null };
    return { value: this.n ? this.correct / this.n : null };
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

/** Settings the details echo. */
export interface DigestOptions {
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
      const rows = (c: typeof all) => ({ original: c.original.row(m), worst: c.worst.row(m), best: c.best.row(m) });
      const table = rows(all);
      const gap = table.best.value !== null && table.worst.value !== null ? table.best.value - table.worst.value : null;
      return {
        type: opts.type,
        budget: opts.budget,
        annotator: opts.annotator,
        measure: m,
        n,
        probed: probedN,
        not_applicable: n - probedN,
        not_applicable_reasons: reasons,
        table3: { ...table, stability: probedN ? stable / probedN : null, gap },
        probed_only: rows(probed),
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

/** The names a variant put in: the new text of its entity edits. */
function insertedNames(edits: readonly { type: string; after: string }[]): string[] {
  return edits.filter((e) => e.type.startsWith('entity:') && e.after).map((e) => e.after);
}
