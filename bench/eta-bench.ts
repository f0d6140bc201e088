/**
 * Time to a useful answer (issue 33): what `--dry-run` predicts of a run's wall time against what the run then takes.
 * For each round: the dry run (its own duration, its request bound, the expected wall time from its pilot, the model
 * time at most), then the real run in this process (wall time from opening the model to summary.json; model
 * inferences). Rounds alternate dry and real so that a change in the machine's load touches both alike.
 *
 * Usage: npx tsx bench/eta-bench.ts [--model models/demo-sst2] [--data ../shared/data/sst2/dev.tsv] [--recipe typos]
 *          [--settings '{"k":1}'] [--limit N (default: the whole file)] [--rounds 1] [--json FILE]
 * The goal (issue 33): on a BERT-base model over SST-2 dev, the expected time within ±25% of the real one. Figures
 * taken on a loaded machine are noisy (the load average is printed): rerun on an idle one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { builtinRegistry } from '../src/families/index.ts';
import { dryRun, expectedSeconds } from '../src/kinds/dry-run-time.ts';
import { duration } from '../src/util/format.ts';
import { runRecipe } from '../src/kinds/run.ts';
import type { RunSummary } from '../src/metrics/summary.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/demo-sst2' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
    recipe: { type: 'string', default: 'typos' },
    settings: { type: 'string', default: '{}' },
    limit: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});

const registry = builtinRegistry();
const req = {
  registry,
  recipe: values.recipe!,
  settings: JSON.parse(values.settings!) as Record<string, unknown>,
  model: values.model!,
  data: values.data!,
  seed: 0,
  ...(values.limit ? { limit: Number(values.limit) } : {}),
};

interface Round {
  load: number;
  dry_seconds: number;
  bound_requests: number;
  expected_seconds: number | null;
  model_seconds_at_most: number | null;
  real_seconds: number;
  real_inferences: number;
  n: number;
}
const rounds: Round[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const load = loadavg()[0]!;
  let t0 = performance.now();
  const { time } = await dryRun(req, { time: true });
  const drySeconds = (performance.now() - t0) / 1000;
  const out = join(tmpdir(), `eta-bench-${process.pid}-${r}`);
  t0 = performance.now();
  await runRecipe({ ...req, out, overwrite: true });
  const realSeconds = (performance.now() - t0) / 1000;
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
  const row: Round = {
    load,
    dry_seconds: drySeconds,
    bound_requests: time!.requests,
    expected_seconds: expectedSeconds(time!),
    model_seconds_at_most: time!.perInput ? time!.requests * time!.perInput.seconds : null,
    real_seconds: realSeconds,
    real_inferences: summary.process.model_inferences,
    n: summary.n,
  };
  rounds.push(row);
  process.stderr.write(`round ${r + 1}: ${JSON.stringify(row)}\n`);
}

const f = (x: number | null): string => (x === null ? 'n/a' : duration(x));
const ratio = (x: number | null, y: number): string => (x === null ? 'n/a' : `${(x / y).toFixed(2)}×`);
const lines = [
  `${values.recipe} ${values.settings} on ${values.model} over ${values.data}${values.limit ? ` (--limit ${values.limit})` : ''}`,
  '| round | load (1 min) | n | dry run took | expected | real | expected ÷ real | model time at most | requests ≤ | real inferences |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rounds.map(
    (x, i) =>
      `| ${i + 1} | ${x.load.toFixed(1)} | ${x.n} | ${f(x.dry_seconds)} | ${f(x.expected_seconds)} | ${f(x.real_seconds)} | ` +
      `${ratio(x.expected_seconds, x.real_seconds)} | ${f(x.model_seconds_at_most)} | ${x.bound_requests} | ${x.real_inferences} |`,
  ),
];
process.stdout.write(lines.join('\n') + '\n');
if (values.json) writeFileSync(values.json, JSON.stringify({ ...values, rounds }, null, 1));
