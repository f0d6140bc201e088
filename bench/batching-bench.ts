/**
 * Cross-example batching, measured against within-example batching at the same concurrency (hardening issue).
 *
 * Both arms batch every query an example issues at once (a word's typo candidates, a beam's children) and use
 * the same cache and the same HTTP request concurrency. They differ in one thing: examples attacked at once —
 * 32, whose queries the engine gathers into shared batches ("cross-example"), or 1 ("within-example only").
 * A third arm, no batching at all (batch 1, no cache), is shown for reference.
 *
 * Cases: a local ONNX model (demo-sst2, typos K=3 — large batches per word; typos K=1; grammar greedy — small
 * batches), a small-batch tagger (demo-ner, typos), and an HTTP model served by `textstress serve --latency-ms 50`
 * (a remote model's round trip).
 *
 *   npx tsx bench/batching-bench.ts [--n 60] [--latency 50]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHttpModel } from '../src/models/http-adapter.ts';
import { loadModel } from '../src/models/load.ts';
import type { ModelAdapter } from '../src/models/types.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { builtinRegistry } from '../src/families/index.ts';
import { runRecipe } from '../src/kinds/run.ts';
import { counting, median, startServer } from './support.ts';

const { values } = parseArgs({ options: { n: { type: 'string', default: '60' }, latency: { type: 'string', default: '50' } } });
const N = Number(values.n);
const SST2 = existsSync('../shared/data/sst2/dev.tsv') ? '../shared/data/sst2/dev.tsv' : 'demo/reviews.tsv';
const CONLL = '../shared/data/conll2003/eng.testb';

async function arm(
  model: ModelAdapter,
  label: string,
  recipe: string,
  settings: Record<string, unknown>,
  data: string,
  concurrency: number,
  engineOpts: ConstructorParameters<typeof QueryEngine>[1] = {},
  perRequest = Infinity,
): Promise<Record<string, number | string>> {
  const counted = counting(model, perRequest);
  const engine = new QueryEngine(counted, engineOpts);
  const t0 = performance.now();
  const outcome = await runRecipe({
    registry: builtinRegistry(),
    recipe,
    settings,
    model: label,
    data,
    limit: N,
    out: join(tmpdir(), `textstress-batching-${process.pid}-${Math.random().toString(36).slice(2)}`),
    seed: 0,
    concurrency,
    shared: { model: counted, engine },
  });
  const seconds = (performance.now() - t0) / 1000;
  if (outcome.kind !== 'attack') throw new Error('expected a run');
  return {
    seconds: Math.round(seconds * 100) / 100,
    model_calls: counted.calls,
    requests: counted.requests,
    rows_per_call: Math.round((10 * counted.rows) / Math.max(1, counted.calls)) / 10,
    success: outcome.summary.attack_success_rate ?? 'n/a',
  };
}

const REPEATS = 3;

async function compare(
  name: string,
  make: () => Promise<{ model: ModelAdapter; perRequest?: number; done?: () => void }>,
  recipe: string,
  settings: Record<string, unknown>,
  data: string,
  reference = true,
) {
  const { model, perRequest = Infinity, done } = await make();
  await model.predict([
    {
      kind: model.info.task === 'token-classification' ? 'tokens' : 'text',
      ...(model.info.task === 'token-classification' ? { tokens: ['warm', 'up'] } : { text: 'warm up' }),
    } as never,
  ]);
  // One untimed run first (tagger, WordNet index, JIT), then each arm REPEATS times in turn; the median counts.
  await arm(model, name, recipe, settings, data, 32, {}, perRequest);
  const runs: Record<string, Record<string, number | string>[]> = { cross: [], within: [], none: [] };
  for (let r = 0; r < REPEATS; r++) {
    runs.cross!.push(await arm(model, name, recipe, settings, data, 32, {}, perRequest));
    runs.within!.push(await arm(model, name, recipe, settings, data, 1, {}, perRequest));
    if (reference) runs.none!.push(await arm(model, name, recipe, settings, data, 1, { maxFlushSize: 1, cacheBytes: 0 }, perRequest));
  }
  const cross = median(runs.cross!);
  const within = median(runs.within!);
  const none = reference ? median(runs.none!) : undefined;
  done?.();
  await model.close?.();
  const row = {
    case: name,
    recipe,
    settings,
    cross_example: cross,
    within_example: within,
    ...(none ? { no_batching: none } : {}),
    speedup_cross_vs_within: Math.round((100 * Number(within.seconds)) / Number(cross.seconds)) / 100,
  };
  process.stderr.write(
    `${name}: cross ${cross.seconds} s (${cross.requests} requests) · within ${within.seconds} s (${within.requests}) · ×${row.speedup_cross_vs_within}\n`,
  );
  return row;
}

async function main(): Promise<void> {
  const latency = Number(values.latency);
  const rows = [];
  const local = async () => ({ model: await loadModel('models/demo-sst2') });
  rows.push(await compare('local demo-sst2', local, 'typos', { k: 3 }, SST2));
  rows.push(await compare('local demo-sst2', local, 'typos', { k: 1 }, SST2));
  rows.push(await compare('local demo-sst2', local, 'grammar', { search: 'greedy' }, SST2));
  if (existsSync(CONLL))
    rows.push(await compare('local demo-ner', async () => ({ model: await loadModel('models/demo-ner') }), 'typos', { k: 2 }, CONLL));
  const http = async () => {
    const server = await startServer('models/demo-sst2', latency);
    // The same request concurrency (4) and batch size (32) on both arms.
    const model = await createHttpModel(server.url, { batchSize: 32, concurrency: 4 });
    return { model, perRequest: 32, done: () => server.child.kill('SIGTERM') };
  };
  rows.push(await compare(`HTTP demo-sst2 +${latency} ms`, http, 'typos', { k: 3 }, SST2, false));
  rows.push(await compare(`HTTP demo-sst2 +${latency} ms`, http, 'grammar', { search: 'greedy' }, SST2, false));
  mkdirSync('bench/.out', { recursive: true });
  const report = { n: N, data: SST2, latency_ms: latency, rows };
  writeFileSync('bench/.out/batching-bench.json', JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
}

await main();
