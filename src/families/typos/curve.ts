/**
 * Adv-BERT's Table 1 (accuracy for K = 0..k_max typos in max / min / random words) and Figure 2 (accuracy by
 * typo source) as one experiment: one greedy typo run with budget k_max per setting; each run's search trace
 * gives the accuracy for every K ≤ k_max.
 */
import { z } from 'zod';
import { TYPO_SOURCE_NAMES } from '../../perturb/index.ts';
import { formatGrid } from '../../util/table.ts';
import { defineExperiment, type SubRun } from '../../recipes/registry/define.ts';
import { minLengthSetting } from '../../recipes/shared.ts';
import type { ExampleResult } from '../../core/result.ts';
import { typoSearchSettings } from './settings.ts';
import { curvePairTests, curvePairText, outcomesByK, type CurvePairTest } from './curve-paired.ts';

/** One row of the curve: accuracy (0–1) for K = 0..k_max; `std` is across the random-target seeds (random row only). */
export interface CurveRow {
  name: string;
  accuracy: number[];
  std?: number[];
}

/** The `typos-curve` experiment's output (curve.json). */
export interface TyposCurve {
  model: string;
  dataset: string;
  k_max: number;
  /** Adv-BERT Table 1: accuracy for K = 0..k_max with typos in max / min / random words. */
  by_target: CurveRow[];
  /** Adv-BERT Figure 2: accuracy for K = 0..k_max per typo source (typos in max-importance words). */
  by_source: CurveRow[];
  /** max vs random vs min at each K on the same examples (exact McNemar, Holm); absent in older curves. */
  paired?: CurvePairTest[];
}

/** The `typos-curve` experiment: Adv-BERT's Table 1 and Figure 2 from one typo run per target and source. */
export const typosCurveRecipe = defineExperiment({
  name: 'typos-curve',
  summary: "reproduces Adv-BERT's Table 1 (accuracy vs K typos in max / min / random words) and Figure 2 (accuracy by typo source)",
  paper: 'Sun et al. 2020, Adv-BERT, Table 1 and Figure 2',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  settings: z.strictObject({
    kMax: z.number().int().min(1).default(10).describe('largest K'),
    randomSeeds: z.number().int().min(1).default(5).describe('seeds for random targeting (mean ± std)'),
    sources: z
      .array(z.enum(TYPO_SOURCE_NAMES))
      .min(1)
      .default([...TYPO_SOURCE_NAMES])
      .describe('typo sources combined for the target rows'),
    bySource: z.boolean().default(true).describe('also run one curve per typo source (Figure 2)'),
    minLength: minLengthSetting,
    ...typoSearchSettings,
  }),
  build(s, ctx) {
    // Only non-default switches are passed on, so default runs keep their settings (and run.json) as before.
    const search = {
      ...(s.exhaustive ? { exhaustive: true } : {}),
      ...(s.skipUneditable ? {} : { skipUneditable: false }),
    };
    const typos = (dir: string, target: string, seed: number, sources: readonly string[]): SubRun => ({
      dir,
      recipe: 'typos',
      seed,
      settings: { target, k: s.kMax, sources: [...sources], minLength: s.minLength, ...search },
      // Top-K mode reads the accuracy after each visited word from the traces, which compact results drop.
      ...(s.skipUneditable ? {} : { needsTraces: true }),
    });
    const runs: SubRun[] = [typos('target-max', 'max', ctx.seed, s.sources), typos('target-min', 'min', ctx.seed, s.sources)];
    for (let k = 0; k < s.randomSeeds; k++) runs.push(typos(`target-random-seed${ctx.seed + k}`, 'random', ctx.seed + k, s.sources));
    if (s.bySource) for (const source of TYPO_SOURCE_NAMES) runs.push(typos(`source-${source}`, 'max', ctx.seed, [source]));
    return {
      runs,
      async combine(c) {
        const byDir = new Map<string, number[]>();
        const firstRandom = runs.find((r) => r.dir.startsWith('target-random-'))!.dir;
        const paired = new Map<string, Map<string, boolean[]>>();
        for (const outcome of c.runs) {
          const row = { 'target-max': 'max', [firstRandom]: 'random', 'target-min': 'min' }[outcome.run.dir];
          if (row) paired.set(row, await outcomesByK(c.results(outcome), s.kMax, !s.skipUneditable));
          // Top-K mode: a word without typos uses up a K, so K counts visited words (trace points), not edits.
          const acc = s.skipUneditable ? (outcome.summary.accuracy_by_edits ?? []) : await accuracyByWords(c.results(outcome), s.kMax);
          byDir.set(outcome.run.dir, acc);
        }
        const accuracy = (dir: string): number[] => padTo(byDir.get(dir)!, s.kMax + 1);
        const randoms = runs.filter((r) => r.dir.startsWith('target-random-')).map((r) => accuracy(r.dir));
        const curve: TyposCurve = {
          model: c.model,
          dataset: c.dataset,
          k_max: s.kMax,
          by_target: [
            { name: 'max', accuracy: accuracy('target-max') },
            { name: 'min', accuracy: accuracy('target-min') },
            { name: 'random', ...meanStd(randoms) },
          ],
          by_source: s.bySource ? TYPO_SOURCE_NAMES.map((source) => ({ name: source, accuracy: accuracy(`source-${source}`) })) : [],
          paired: curvePairTests(new Map(['max', 'random', 'min'].map((n) => [n, paired.get(n)!])), s.kMax),
        };
        const text = [curveTables(curve), '', curvePairText(curve.paired!)].join('\n');
        return { files: { 'curve.json': curve }, json: curve, text, headline: 'target-max' };
      },
    };
  },
});

/**
 * Accuracy after the top K words, K = 0..kMax, from top-K traces (one point per visited word): the state
 * after word K is trace[K − 1], or the last point when the search stopped earlier (flip or no more words).
 */
export async function accuracyByWords(results: AsyncIterable<ExampleResult>, kMax: number): Promise<number[]> {
  const correct = new Array<number>(kMax + 1).fill(0);
  let n = 0;
  for await (const r of results) {
    n++;
    if (!r.original_correct) continue;
    for (let k = 0; k <= kMax; k++) {
      const t = k === 0 ? undefined : r.trace[Math.min(k, r.trace.length) - 1];
      if (t === undefined || t.correct) correct[k]!++;
    }
  }
  return correct.map((c) => (n ? c / n : 0));
}

function padTo(xs: readonly number[], n: number): number[] {
  const out = xs.slice(0, n);
  while (out.length < n) out.push(out[out.length - 1] ?? 0);
  return out;
}

function meanStd(rows: number[][]): { accuracy: number[]; std: number[] } {
  const n = rows.length;
  const width = rows[0]?.length ?? 0;
  const accuracy: number[] = [];
  const std: number[] = [];
  for (let k = 0; k < width; k++) {
    const xs = rows.map((r) => r[k]!);
    const m = xs.reduce((sum, x) => sum + x, 0) / n;
    accuracy.push(m);
    std.push(Math.sqrt(xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / n));
  }
  return { accuracy, std };
}

/** The curve as terminal tables, in percent. */
export function curveTables(curve: TyposCurve): string {
  const header = ['words', ...Array.from({ length: curve.k_max + 1 }, (_, k) => `K=${k}`)];
  const cell = (row: CurveRow, k: number): string =>
    `${(100 * row.accuracy[k]!).toFixed(1)}${row.std ? `±${(100 * row.std[k]!).toFixed(1)}` : ''}`;
  const fmt = (rows: CurveRow[]): string[][] => rows.map((r) => [r.name, ...r.accuracy.map((_, k) => cell(r, k))]);
  const parts = [
    `Accuracy (%) under K typos — ${curve.model} on ${curve.dataset} (Adv-BERT Table 1)`,
    formatGrid(header, fmt(curve.by_target)),
  ];
  if (curve.by_source.length) {
    parts.push('', 'Accuracy (%) by typo source, typos in max-importance words (Adv-BERT Figure 2)');
    parts.push(formatGrid(['source', ...header.slice(1)], fmt(curve.by_source)));
  }
  return parts.join('\n');
}
