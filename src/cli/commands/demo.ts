import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { formatGrid } from '../../util/table.ts';
import { headlineRun } from '../../report/html/load.ts';
import type { Suite } from '../../suite/schema.ts';
import { runSuite } from '../../suite/run.ts';
import { int } from '../options.ts';
import { PACKAGE_ROOT } from '../../util/package-root.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { printOutcome } from './suite.ts';

/** SST-2 dev beside the checkout when it is there; otherwise the project's own small review set. */
export function demoDataPath(): string {
  const sst2 = join(PACKAGE_ROOT, '..', 'shared', 'data', 'sst2', 'dev.tsv');
  return existsSync(sst2) ? sst2 : join(PACKAGE_ROOT, 'demo', 'reviews.tsv');
}

/** CoNLL-2003 testb beside the checkout (the NER test is skipped without it). */
export function demoNerDataPath(): string {
  return join(PACKAGE_ROOT, '..', 'shared', 'data', 'conll2003', 'eng.testb');
}

/** The built-in suite: typos and noise on demo-sst2, typos on demo-ner (over a CoNLL slice, when present). */
export function demoSuite(opts: { k: number; limit?: number; seed: number }): Suite {
  const nerLimit = Math.min(opts.limit ?? 150, 150);
  return {
    name: 'textstress demo: the built-in demo models',
    seed: opts.seed,
    models: { 'demo-sst2': join(PACKAGE_ROOT, 'models', 'demo-sst2'), 'demo-ner': join(PACKAGE_ROOT, 'models', 'demo-ner') },
    datasets: {
      sentiment: { path: demoDataPath(), ...(opts.limit ? { limit: opts.limit } : {}) },
      conll: { path: demoNerDataPath(), optional: true, limit: nerLimit },
    },
    gate: ['clean_metric > 0.5'],
    tests: [
      { name: `typos-max-k${opts.k}`, recipe: 'typos', model: 'demo-sst2', dataset: 'sentiment', settings: { target: 'max', k: opts.k } },
      { name: 'noise-middle-random', recipe: 'noise', model: 'demo-sst2', dataset: 'sentiment', settings: { noise: 'middle-random' } },
      { name: 'ner-typos-k2', recipe: 'typos', model: 'demo-ner', dataset: 'conll', settings: { target: 'max', k: 2 } },
    ],
  };
}

export function demoCommand(registry: Registry): Command {
  return new Command('demo')
    .description('run the built-in suite (typos and noise on demo-sst2, typos on demo-ner) and write its HTML report')
    .option('-o, --out <dir>', 'output folder', 'textstress-demo')
    .option('-k, --k <n>', 'typo budget per sentence', int('--k', 1), 3)
    .option('-n, --limit <n>', 'use only the first n sentences', int('--limit', 1))
    .option('-s, --seed <n>', 'seed', int('--seed'), 0)
    .option('--no-progress', 'no progress lines')
    .action(async (opts: { out: string; k: number; limit?: number; seed: number; progress: boolean }) => {
      const data = demoDataPath();
      process.stdout.write(`textstress demo: typos (K ≤ ${opts.k}) and noise on demo-sst2 over ${relative(process.cwd(), data) || data}; typos on demo-ner\n`);
      const t0 = performance.now();
      const suite = demoSuite(opts);
      const outcome = await runSuite({ file: '(built-in demo suite)', dir: PACKAGE_ROOT, suite }, { registry, out: opts.out, overwrite: true, progress: opts.progress });
      const typos = outcome.groups.find((g) => g.name === `typos-max-k${opts.k}`);
      if (typos) {
        const acc = headlineRun(typos).summary.accuracy_by_edits ?? [];
        process.stdout.write(
          '\nAccuracy under attack as the typo budget grows (demo-sst2):\n' +
            formatGrid(['', ...acc.map((_, k) => `K=${k}`)], [['accuracy', ...acc.map((a) => `${(100 * a).toFixed(1)}%`)]]) +
            '\n\n',
        );
      }
      printOutcome(outcome);
      process.stdout.write(`Done in ${((performance.now() - t0) / 1000).toFixed(0)} s. Open the report in a browser (it needs no network).\n`);
      if (!outcome.verdict.passed) process.exitCode = 1;
    });
}
