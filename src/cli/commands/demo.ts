import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { formatGrid } from '../../report/terminal.ts';
import { int } from '../options.ts';
import { runRecipe } from '../run-recipe.ts';
import { PACKAGE_ROOT } from '../setup.ts';
import { attackBuilder, type AttackCliOptions } from './attack.ts';

/** SST-2 dev beside the checkout when it is there; otherwise the project's own small review set. */
export function demoDataPath(): string {
  const sst2 = join(PACKAGE_ROOT, '..', 'shared', 'data', 'sst2', 'dev.tsv');
  return existsSync(sst2) ? sst2 : join(PACKAGE_ROOT, 'demo', 'reviews.tsv');
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('run the built-in typo attack on the built-in demo model (demo-sst2) and data')
    .option('-o, --out <dir>', 'output folder', 'textstress-demo')
    .option('-k, --k <n>', 'typo budget per sentence', int('--k', 1), 3)
    .option('-n, --limit <n>', 'use only the first n sentences', int('--limit', 1))
    .option('-s, --seed <n>', 'seed', int('--seed'), 0)
    .option('--no-progress', 'no progress bar')
    .action(async (opts: { out: string; k: number; limit?: number; seed: number; progress: boolean }) => {
      const data = demoDataPath();
      const runOpts: AttackCliOptions = {
        model: join(PACKAGE_ROOT, 'models', 'demo-sst2'),
        data,
        out: join(opts.out, `typos-max-k${opts.k}`),
        seed: opts.seed,
        limit: opts.limit,
        overwrite: true,
        progress: opts.progress,
        target: 'max',
        k: opts.k,
        noise: 'swap',
        minLength: 2,
        concurrency: 32,
      };
      process.stdout.write(`textstress demo: typos (K ≤ ${opts.k}, max-importance words) on demo-sst2 over ${relative(process.cwd(), data) || data}\n`);
      const { summary } = await runRecipe(runOpts, attackBuilder('typos', runOpts));
      const header = summary.accuracy_by_edits.map((_, k) => `K=${k}`);
      process.stdout.write(
        '\nAccuracy as the typo budget grows:\n' +
          formatGrid(['', ...header], [['accuracy', ...summary.accuracy_by_edits.map((a) => `${(100 * a).toFixed(1)}%`)]]) +
          '\n',
      );
    });
}
