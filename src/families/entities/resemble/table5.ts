/**
 * The paper's Table 5: accuracy on the original texts, on D_worst / D_best (per example, the worst / best of B
 * random replacements, chosen against the UNDEFENDED model: Algorithm 1) and on random replacements (mean ± std
 * over R seeded random-replacement datasets), without and with RESEMBLE. The defended model is scored on the very
 * same texts. Examples without a mention of the type are not applicable (counted), so every row is over D, the
 * examples that mention the type, as Table 3 of `probe entities` is. Worst/Best follow Table 3's rule
 * ({@link pickWorstBest}). Each figure has a 95% interval: Wilson for the accuracies, a seeded bootstrap over
 * examples for the Random mean and the Best−Worst gap.
 */
import type { ModelInput } from '../../../models/types.ts';
import { bootstrapMean, mean, pairedBootstrap, sameValueBounds, wilson, type Interval } from '../../../stats/index.ts';
import { applyPlan, planReplacement } from '../../../entities/replace.ts';
import type { NameDictionaries } from '../../../entities/dictionaries.ts';
import type { QueryEngine } from '../../../query/engine.ts';
import { Rng } from '../../../util/rng.ts';
import { formatGrid } from '../../../util/table.ts';
import { correct, inputOf, notApplicableReason, probsOf, share, type Applicable, type Prepared } from './data.ts';

/** Options of {@link table5}. */
export interface Table5Options {
  /** Random replacements per example (Algorithm 1's B). */
  budget: number;
  /** Random-replacement datasets for the Random column. */
  randomSets: number;
  seed: number;
}

/** Accuracies of one model (shares in 0..1; null over no example), each with its 95% interval and n. */
export interface Table5Row {
  /** Examples the row is over (those that mention the type). */
  n: number;
  original: number | null;
  worst: number | null;
  best: number | null;
  randomMean: number | null;
  randomStd: number | null;
  /** Each random dataset's accuracy. */
  random: (number | null)[];
  /** Best − Worst (null over no example). */
  gap: number | null;
  original_interval: Interval;
  worst_interval: Interval;
  best_interval: Interval;
  /** Bootstrap over examples of the mean accuracy over the R random sets. */
  randomMean_interval: Interval;
  /** Paired bootstrap over examples of Best − Worst. */
  gap_interval: Interval;
}

/** Table 5 for one dataset. */
export interface Table5 {
  examples: number;
  applicable: number;
  notApplicable: { count: number; reason: string };
  without: Table5Row;
  with: Table5Row;
}

/** One example's texts: its original, its B draws, and the picks. */
interface Drawn {
  item: Applicable;
  draws: ModelInput[];
  worst: number;
  best: number;
}

/** Mean and sample standard deviation of the non-null values; null when there are none (std: fewer than two). */
export function meanStd(xs: readonly (number | null)[]): { mean: number | null; std: number | null } {
  const v = xs.filter((x): x is number => x !== null);
  if (v.length === 0) return { mean: null, std: null };
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const std = v.length < 2 ? null : Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { mean, std };
}

/** The draws of one example: max(B, R) random plans from its own seeded stream. */
function drawsOf(item: Applicable, type: Prepared['type'], dicts: NameDictionaries, n: number, seed: number): ModelInput[] {
  const rng = Rng.derive(seed, 'resemble-table5', item.example.id);
  return Array.from({ length: n }, () =>
    inputOf(applyPlan(item.example, item.mentions, planReplacement(item.mentions, type, dicts, rng)).example as Applicable['example']),
  );
}

/**
 * Table 3's worst/best rule (probeExample with the classification goal, whose per-variant metric is 1 when the
 * top class is gold, else 0, and whose score is 1 − P(gold)): worst = the lowest metric (a wrong answer before a
 * right one), then the lowest gold-class probability, then the first drawn; best = the highest metric, then the
 * highest gold-class probability, then the first drawn. Returns the draws' indices.
 */
export function pickWorstBest(draws: readonly (readonly number[])[], gold: number): { worst: number; best: number } {
  const metric = (p: readonly number[]): number => (correct(p, gold) ? 1 : 0);
  let worst = 0;
  let best = 0;
  draws.forEach((p, k) => {
    const m = metric(p);
    const g = p[gold]!;
    const w = draws[worst]!;
    const b = draws[best]!;
    if (m < metric(w) || (m === metric(w) && g < w[gold]!)) worst = k;
    if (m > metric(b) || (m === metric(b) && g > b[gold]!)) best = k;
  });
  return { worst, best };
}

const count = (xs: readonly boolean[]): number => xs.filter(Boolean).length;

/** A model's row over the drawn texts; bootstrap seeds derive from the run's seed and the row's name. */
async function rowOf(engine: QueryEngine, drawn: readonly Drawn[], randomSets: number, seed: string): Promise<Table5Row> {
  // Every example's queries at once: the engine gathers them into shared batches.
  const answers = await Promise.all(
    drawn.map(async (d) => {
      const inputs = [inputOf(d.item.example), ...d.draws];
      const outs = (await engine.query(inputs)).map(probsOf);
      return outs.map((o) => correct(o, d.item.gold));
    }),
  );
  const at = (k: (d: Drawn) => number): boolean[] => answers.map((a, i) => a[1 + k(drawn[i]!)]!);
  const random = Array.from({ length: randomSets }, (_, r) => share(at(() => r)));
  const { mean: randomMean, std } = meanStd(random);
  const original = answers.map((a) => a[0]!);
  const worst = at((d) => d.worst);
  const best = at((d) => d.best);
  const n = drawn.length;
  // Per example: its share of right answers over the R random sets (their mean is the Random column's mean).
  const perExample = answers.map((a) => count(a.slice(1, 1 + randomSets)) / randomSets);
  const shareAt = (xs: readonly boolean[]) => (idx: Uint32Array) => mean(Array.from(idx, (i) => (xs[i]! ? 1 : 0)));
  return {
    n,
    original: share(original),
    worst: share(worst),
    best: share(best),
    randomMean,
    randomStd: std,
    random,
    gap: n ? (count(best) - count(worst)) / n : null,
    original_interval: wilson(count(original), n),
    worst_interval: wilson(count(worst), n),
    best_interval: wilson(count(best), n),
    // Shares per example lie in [0, 1], each example's Best − Worst in [−1, 1]: a bound where all examples agree.
    randomMean_interval: bootstrapMean(perExample, { seed: `${seed}/random`, range: [0, 1] }),
    gap_interval: stripP(
      pairedBootstrap(n, shareAt(worst), shareAt(best), {
        seed: `${seed}/gap`,
        ...(n ? { degenerate: () => sameValueBounds((count(best) - count(worst)) / n, n, [-1, 1]) } : {}),
      }),
    ),
  };
}

/** An Interval without the paired test's p (summary.json keeps the {value, low, high, n, method} shape). */
function stripP(iv: Interval & { p: number | null }): Interval {
  const { p: _p, ...rest } = iv;
  return rest;
}

/**
 * Table 5 over prepared test data: `plain` answers the undefended model (Worst/Best are picked by it, with
 * {@link pickWorstBest}), `defended` the RESEMBLE model (best share the cache of `plain`).
 */
export async function table5(
  p: Prepared,
  plain: QueryEngine,
  defended: QueryEngine,
  dicts: NameDictionaries,
  opts: Table5Options,
): Promise<Table5> {
  const n = Math.max(opts.budget, opts.randomSets);
  const drawn: Drawn[] = await Promise.all(
    p.items.map(async (item) => {
      const draws = drawsOf(item, p.type, dicts, n, opts.seed);
      // Algorithm 1 searches the first B draws only.
      const probs = (await plain.query(draws.slice(0, opts.budget))).map(probsOf);
      return { item, draws, ...pickWorstBest(probs, item.gold) };
    }),
  );
  return {
    examples: p.examples,
    applicable: p.items.length,
    notApplicable: { count: p.notApplicable, reason: notApplicableReason(p.type) },
    without: await rowOf(plain, drawn, opts.randomSets, `${opts.seed}/table5/without`),
    with: await rowOf(defended, drawn, opts.randomSets, `${opts.seed}/table5/with`),
  };
}

const pct = (x: number | null): string => (x === null ? 'n/a' : (100 * x).toFixed(2));
/** A 95% interval compactly, in points: "[64.7, 91.1]". */
const range = (iv: Interval): string =>
  iv.low === null || iv.high === null ? '' : `[${(100 * iv.low).toFixed(1)}, ${(100 * iv.high).toFixed(1)}]`;

/** Table 5 as text: one row per model with n, the paper's columns, the Worst–Best gap, and a row of 95% intervals under each. */
export function formatTable5(t: Table5, title: string): string {
  const rows = (name: string, r: Table5Row): string[][] => {
    const random =
      r.randomMean === null ? 'n/a' : `${pct(r.randomMean)} ± ${r.randomStd === null ? 'n/a' : (100 * r.randomStd).toFixed(2)}`;
    return [
      [name, String(r.n), pct(r.original), pct(r.worst), pct(r.best), random, pct(r.gap)],
      [
        '  95% interval',
        '',
        range(r.original_interval),
        range(r.worst_interval),
        range(r.best_interval),
        range(r.randomMean_interval),
        range(r.gap_interval),
      ],
    ];
  };
  const header = ['', 'n', 'Original', 'Worst', 'Best', `Random (${t.without.random.length} sets)`, 'Best−Worst'];
  const grid = formatGrid(header, [...rows('without RESEMBLE', t.without), ...rows('with RESEMBLE', t.with)]);
  return [
    title,
    `accuracy (%) on the ${t.applicable} of ${t.examples} examples that mention the type (D); ${t.notApplicable.count} not applicable ` +
      `(${t.notApplicable.reason}). Worst/Best per example among the first B draws against the undefended model: a wrong answer ` +
      `before a right one, then the lowest (highest) gold-class probability, then the first drawn (Table 3's rule).`,
    grid,
    '95% intervals: Wilson for Original/Worst/Best; seeded bootstrap over examples for the Random mean and Best−Worst.',
  ].join('\n');
}
