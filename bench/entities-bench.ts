/**
 * The entity probe (Algorithm 1, B variants per example) with cross-example batching vs without: model queries per
 * example, model calls and examples per second.
 *
 * The two arms differ in one thing: examples worked on at once — `--concurrency` of them (default 32), whose
 * variant batches the query engine gathers into shared model calls ("cross-example"), or 1 ("within-example only":
 * each example's B variants are still one call). Same model, data, seed, settings and engine; the bench checks that
 * both arms write identical results and Table 3. Cases: in process, and over HTTP through `textstress serve
 * --latency-ms` (a remote model's round trip), unless `--latency 0`.
 *
 *   npx tsx bench/entities-bench.ts [--model models/demo-ner] [--data ../shared/data/conll2003/eng.testb] [--limit 300]
 *                                   [--budget 50] [--concurrency 32] [--latency 50] [--repeats 1]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHttpModel } from '../src/models/http-adapter.ts';
import { loadModel } from '../src/models/load.ts';
import type { ModelAdapter } from '../src/models/types.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { builtinRegistry } from '../src/families/index.ts';
import { runRecipe } from '../src/kinds/run.ts';
import { counting, median, startServer } from './support.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/demo-ner' },
    data: { type: 'string', default: '../shared/data/conll2003/eng.testb' },
    limit: { type: 'string', default: '300' },
    budget: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '32' },
    latency: { type: 'string', default: '50' },
    repeats: { type: 'string', default: '1' },
  },
});
const OUT = join('bench', '.out', 'entities');
const registry = builtinRegistry();

type Row = {
  seconds: number;
  examples_per_second: number;
  model_calls: number;
  rows_per_call: number;
  queries_per_example: number | null;
  identity: string;
};

async function arm(model: ModelAdapter, concurrency: number, dir: string): Promise<Row> {
  const counted = counting(model);
  const t0 = performance.now();
  const outcome = await runRecipe({
    registry,
    recipe: 'entities',
    settings: { budget: Number(values.budget) },
    model: values.model!,
    data: values.data!,
    limit: Number(values.limit),
    out: dir,
    seed: 0,
    overwrite: true,
    concurrency,
    shared: { model: counted, engine: new QueryEngine(counted) },
  });
  const seconds = (performance.now() - t0) / 1000;
  if (outcome.kind !== 'probe') throw new Error('expected a probe run');
  const n = outcome.summary.n;
  return {
    seconds: round(seconds, 2),
    examples_per_second: round(n / seconds, 1),
    model_calls: counted.calls,
    rows_per_call: round(counted.rows / Math.max(1, counted.calls), 1),
    queries_per_example: outcome.summary.mean_queries === null ? null : round(outcome.summary.mean_queries, 1),
    // What must not differ between the arms: every result line and Table 3.
    identity: readFileSync(join(dir, 'results.jsonl'), 'utf8') + JSON.stringify(outcome.summary.details),
  };
}

async function compare(label: string, model: ModelAdapter): Promise<Record<string, unknown>> {
  const cross: Row[] = [];
  const within: Row[] = [];
  for (let i = 0; i < Number(values.repeats); i++) {
    cross.push(await arm(model, Number(values.concurrency), join(OUT, `${label}-cross`)));
    within.push(await arm(model, 1, join(OUT, `${label}-within`)));
  }
  const [c, w] = [median(cross), median(within)];
  if (c.identity !== w.identity) throw new Error(`${label}: the two arms wrote different results`);
  const strip = ({ identity: _i, ...r }: Row): Omit<Row, 'identity'> => r;
  const row = { case: label, cross: strip(c), within: strip(w), speedup: round(w.seconds / c.seconds, 2) };
  process.stdout.write(JSON.stringify(row) + '\n');
  return row;
}

function round(x: number, digits: number): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

mkdirSync(OUT, { recursive: true });
const rows = [await compare('in-process', await loadModel(values.model!))];
const latency = Number(values.latency);
if (latency > 0) {
  const { url, child } = await startServer(values.model!, latency);
  try {
    rows.push(await compare(`http-${latency}ms`, await createHttpModel(url, { batchSize: 32, concurrency: 4 })));
  } finally {
    child.kill();
  }
}
writeFileSync(join('bench', '.out', `entities-bench-${Date.now()}.json`), JSON.stringify({ args: values, rows }, null, 2) + '\n');
