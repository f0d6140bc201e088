/**
 * The paper's Table 5: accuracy on the original texts, on D_worst / D_best (per example, the worst / best of B
 * random replacements, chosen against the UNDEFENDED model: Algorithm 1) and on random replacements (mean ± std
 * over R seeded random-replacement datasets), without and with RESEMBLE. The defended model is scored on the very
 * same texts. Examples without a mention of the type are not applicable (counted).
 */
import type { ModelInput } from '../../../models/types.ts';
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

/** Accuracies of one model (shares in 0..1; null over no example). */
export interface Table5Row {
  original: number | null;
  worst: number | null;
  best: number | null;
  randomMean: number | null;
  randomStd: number | null;
  /** Each random dataset's accuracy. */
  random: (number | null)[];
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

/** A model's row over the drawn texts. */
async function rowOf(engine: QueryEngine, drawn: readonly Drawn[], randomSets: number): Promise<Table5Row> {
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
  const { mean, std } = meanStd(random);
  return {
    original: share(answers.map((a) => a[0]!)),
    worst: share(at((d) => d.worst)),
    best: share(at((d) => d.best)),
    randomMean: mean,
    randomStd: std,
    random,
  };
}

/**
 * Table 5 over prepared test data: `plain` answers the undefended model (Worst/Best are picked by its gold-class
 * probability, lowest / highest, first on ties), `defended` the RESEMBLE model (best share the cache of `plain`).
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
      const gold = (await plain.query(draws.slice(0, opts.budget))).map((o) => probsOf(o)[item.gold]!);
      let worst = 0;
      let best = 0;
      gold.forEach((g, k) => {
        if (g < gold[worst]!) worst = k;
        if (g > gold[best]!) best = k;
      });
      return { item, draws, worst, best };
    }),
  );
  return {
    examples: p.examples,
    applicable: p.items.length,
    notApplicable: { count: p.notApplicable, reason: notApplicableReason(p.type) },
    without: await rowOf(plain, drawn, opts.randomSets),
    with: await rowOf(defended, drawn, opts.randomSets),
  };
}

const pct = (x: number | null): string => (x === null ? 'n/a' : (100 * x).toFixed(2));

/** Table 5 as text: one row per model, the paper's columns, and the Worst–Best gap. */
export function formatTable5(t: Table5, title: string): string {
  const row = (name: string, r: Table5Row): string[] => {
    const gap = r.worst === null || r.best === null ? 'n/a' : (100 * (r.best - r.worst)).toFixed(2);
    const random =
      r.randomMean === null ? 'n/a' : `${pct(r.randomMean)} ± ${r.randomStd === null ? 'n/a' : (100 * r.randomStd).toFixed(2)}`;
    return [name, pct(r.original), pct(r.worst), pct(r.best), random, gap];
  };
  const header = ['', 'Original', 'Worst', 'Best', `Random (${t.without.random.length} sets)`, 'Best−Worst'];
  const grid = formatGrid(header, [row('without RESEMBLE', t.without), row('with RESEMBLE', t.with)]);
  return [
    title,
    `accuracy (%) on ${t.applicable} of ${t.examples} examples; ${t.notApplicable.count} not applicable (${t.notApplicable.reason})`,
    grid,
  ].join('\n');
}
