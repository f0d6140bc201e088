// What the 95% intervals (issue 27) cost a 10,000-example run.
//   nice -n 10 npx tsx bench/intervals-bench.ts [--n 10000] [--recipe noise]
// 1. End to end: `textstress attack <recipe>` of demo-sst2 over the first n sentences of SST-2 train (a real run;
//    `noise` is the cheapest recipe, two model queries per example, so the intervals' share is at its largest).
// 2. The run's summary pass over its results.jsonl, with intervals and without (SummaryAccumulator's
//    `intervals: false`), 5 times each, alternating; the median difference is what intervals add to the run.
// Goal: intervals add under 5% to the run's wall time. Raw figures: bench/.out/intervals-bench.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { ExampleResult } from '../src/core/result.ts';
import { SummaryAccumulator } from '../src/metrics/summary.ts';
import { readResults } from '../src/runner/checkpoint.ts';

const arg = (name: string, d: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : d;
};
const N = Number(arg('--n', '10000'));
const RECIPE = arg('--recipe', 'noise');
const ROOT = join(import.meta.dirname, '..');
const OUT = join(import.meta.dirname, '.out', 'intervals-bench');
mkdirSync(OUT, { recursive: true });

// The data: the first N sentences of SST-2 train (shared data), or the demo reviews repeated where it is absent.
const data = join(OUT, `sst2-${N}.tsv`);
const train = join(ROOT, '..', 'shared', 'data', 'sst2', 'train.tsv');
if (!existsSync(train)) throw new Error(`needs ${train} (SST-2 train)`);
const lines = readFileSync(train, 'utf8').split('\n');
writeFileSync(data, [lines[0], ...lines.slice(1, N + 1)].join('\n') + '\n');

const runDir = join(OUT, `run-${RECIPE}`);
const t0 = performance.now();
const r = spawnSync(
  process.execPath,
  [
    'bin/textstress.mjs',
    'attack',
    RECIPE,
    '--model',
    'models/demo-sst2',
    '--data',
    data,
    '--out',
    runDir,
    '--overwrite',
    '--seed',
    '1',
    '--no-progress',
  ],
  { cwd: ROOT, encoding: 'utf8' },
);
const endToEnd = (performance.now() - t0) / 1000;
if (r.status !== 0) throw new Error(`the run failed: ${r.stderr}`);
const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as { n: number; wall_seconds: number };

async function pass(intervals: boolean): Promise<number> {
  const t = performance.now();
  const acc = new SummaryAccumulator({ seed: 1, intervals });
  for await (const x of readResults<ExampleResult>(join(runDir, 'results.jsonl'))) acc.add(x);
  acc.finish();
  return (performance.now() - t) / 1000;
}
await pass(true); // warm-up (JIT, file cache)
const withIv: number[] = [];
const without: number[] = [];
for (let i = 0; i < 5; i++) {
  without.push(await pass(false));
  withIv.push(await pass(true));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const added = median(withIv) - median(without);
const share = added / endToEnd;
const out = {
  date: new Date().toISOString(),
  cores: cpus().length,
  node: process.version,
  recipe: RECIPE,
  n: summary.n,
  end_to_end_s: endToEnd,
  run_wall_seconds: summary.wall_seconds,
  summary_pass_without_intervals_s: without,
  summary_pass_with_intervals_s: withIv,
  added_s: added,
  added_share_of_run: share,
};
writeFileSync(join(import.meta.dirname, '.out', 'intervals-bench.json'), JSON.stringify(out, null, 2));
process.stdout.write(
  [
    `intervals-bench: ${summary.n} examples, recipe ${RECIPE}, demo-sst2, ${cpus().length} cores, node ${process.version}`,
    `  end to end (process): ${endToEnd.toFixed(2)} s (summary.json wall_seconds ${summary.wall_seconds.toFixed(2)} s)`,
    `  summary pass, median of 5: ${median(without).toFixed(3)} s without intervals, ${median(withIv).toFixed(3)} s with`,
    `  intervals add ${added.toFixed(3)} s = ${(100 * share).toFixed(2)}% of the run   goal < 5%  ${share < 0.05 ? 'OK' : 'MISSED'}`,
  ].join('\n') + '\n',
);
