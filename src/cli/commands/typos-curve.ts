import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { WordTarget } from '../../attack/search/word-importance.ts';
import { QueryEngine } from '../../query/engine.ts';
import { ALL_TYPO_SOURCES } from '../../recipes/typos.ts';
import { formatGrid } from '../../report/terminal.ts';
import type { TypoSourceName } from '../../perturb/index.ts';
import { addDataOptions, addModelOptions, addRunOptions, int, list } from '../options.ts';
import { runRecipe, type RunCliOptions } from '../run-recipe.ts';
import { openModel } from '../setup.ts';
import { attackBuilder, type AttackCliOptions } from './attack.ts';

interface CurveOptions extends RunCliOptions {
  kMax: number;
  randomSeeds: number;
  sources?: string[];
  bySource: boolean;
  minLength: number;
}

export interface CurveRow {
  name: string;
  accuracy: number[];
  std?: number[];
}

export interface TyposCurve {
  model: string;
  dataset: string;
  k_max: number;
  /** Adv-BERT Table 1: accuracy for K = 0..k_max with typos in max / min / random words. */
  by_target: CurveRow[];
  /** Adv-BERT Figure 2: accuracy for K = 0..k_max per typo source (typos in max-importance words). */
  by_source: CurveRow[];
}

export function typosCurveCommand(): Command {
  const cmd = new Command('typos-curve')
    .description("reproduce Adv-BERT's Table 1 (accuracy vs K typos in max/min/random words) and Figure 2 (accuracy by typo source)")
    .option('--k-max <n>', 'largest K', int('--k-max', 1), 10)
    .option('--random-seeds <n>', 'seeds for random targeting (mean ± std)', int('--random-seeds', 1), 5)
    .option('--sources <list>', 'typo sources to combine for the target rows', list)
    .option('--no-by-source', 'skip the per-source runs (Figure 2)')
    .option('--min-length <n>', 'shortest word that may get a typo', int('--min-length', 1), 2);
  addModelOptions(cmd);
  addDataOptions(cmd);
  addRunOptions(cmd);
  return cmd.action(async (opts: CurveOptions) => {
    const out = opts.out ?? 'runs/typos-curve';
    const curve = await typosCurve({ ...opts, out });
    if (opts.json) process.stdout.write(JSON.stringify(curve, null, 2) + '\n');
    else process.stdout.write(curveTables(curve) + '\n');
  });
}

/** One greedy run with budget k_max per setting; its trace gives the accuracy for every K ≤ k_max. */
export async function typosCurve(opts: CurveOptions & { out: string }): Promise<TyposCurve> {
  mkdirSync(opts.out, { recursive: true });
  const model = await openModel(opts);
  const engine = new QueryEngine(model);
  try {
    const run = async (
      dir: string,
      target: WordTarget,
      seed: number,
      sources: TypoSourceName[] | undefined,
    ): Promise<number[]> => {
      const attackOpts: AttackCliOptions = {
        ...opts,
        out: join(opts.out, dir),
        seed,
        target,
        k: opts.kMax,
        sources,
        noise: 'swap',
        quiet: true,
      };
      process.stderr.write(`textstress: typos-curve ${dir} …\n`);
      const { summary } = await runRecipe(attackOpts, attackBuilder('typos', attackOpts), { model, engine });
      return padTo(summary.accuracy_by_edits, opts.kMax + 1);
    };
    const sources = opts.sources as TypoSourceName[] | undefined;
    const byTarget: CurveRow[] = [
      { name: 'max', accuracy: await run('target-max', 'max', opts.seed, sources) },
      { name: 'min', accuracy: await run('target-min', 'min', opts.seed, sources) },
    ];
    const randoms: number[][] = [];
    for (let s = 0; s < opts.randomSeeds; s++) {
      randoms.push(await run(`target-random-seed${opts.seed + s}`, 'random', opts.seed + s, sources));
    }
    byTarget.push({ name: 'random', ...meanStd(randoms) });
    const bySource: CurveRow[] = [];
    if (opts.bySource) {
      for (const source of ALL_TYPO_SOURCES) {
        bySource.push({ name: source, accuracy: await run(`source-${source}`, 'max', opts.seed, [source]) });
      }
    }
    const curve: TyposCurve = {
      model: opts.model,
      dataset: opts.data,
      k_max: opts.kMax,
      by_target: byTarget,
      by_source: bySource,
    };
    writeFileSync(join(opts.out, 'curve.json'), JSON.stringify(curve, null, 2) + '\n');
    return curve;
  } finally {
    await model.close?.();
  }
}

function padTo(xs: number[], n: number): number[] {
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
    const m = xs.reduce((s, x) => s + x, 0) / n;
    accuracy.push(m);
    std.push(Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / n));
  }
  return { accuracy, std };
}

export function curveTables(curve: TyposCurve): string {
  const header = ['words', ...Array.from({ length: curve.k_max + 1 }, (_, k) => `K=${k}`)];
  const cell = (row: CurveRow, k: number): string =>
    `${(100 * row.accuracy[k]!).toFixed(1)}${row.std ? `±${(100 * row.std[k]!).toFixed(1)}` : ''}`;
  const fmt = (rows: CurveRow[]): string[][] =>
    rows.map((r) => [r.name, ...r.accuracy.map((_, k) => cell(r, k))]);
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
