/**
 * Typo-attack benchmark (issue: the spine). Attacks SST-2 dev sentences with demo-sst2 and reports
 *  (a) attack wall time vs the bare model answering the very same queries in batches (goal ≤ 1.15×);
 *  (b) cross-example batching vs one query at a time (goal ≥ 5×);
 *  (c) cache hit rates (per attack, and shared across a second run in the same process);
 *  (d) typo generation speed in words per second.
 * Usage: npx tsx bench/typos-bench.ts [--n 200] [--k 3] [--single-n 40] [--model models/demo-sst2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UntargetedClassification } from '../src/attack/goals/index.ts';
import { LabelAligner } from '../src/attack/labels.ts';
import { collect, openDataset } from '../src/data/index.ts';
import type { Example } from '../src/data/types.ts';
import { createHttpModel, loadTransformersModel } from '../src/models/index.ts';
import type { ModelAdapter, ModelInput } from '../src/models/types.ts';
import { TYPO_SOURCE_NAMES, typoCandidates } from '../src/perturb/index.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { typoAttack } from '../src/recipes/typos/attack.ts';
import { runAttack } from '../src/runner/runner.ts';
import { WordSeq } from '../src/text/word-seq.ts';
import { Rng } from '../src/util/rng.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    k: { type: 'string', default: '3' },
    'single-n': { type: 'string', default: '40' },
    model: { type: 'string', default: 'models/demo-sst2' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
  },
});
const N = Number(values.n);
const K = Number(values.k);
const SINGLE_N = Number(values['single-n']);

/** Wraps an adapter and keeps every input it is asked for, in order. */
function recording(model: ModelAdapter, maxBatchSize?: number): ModelAdapter & { seen: ModelInput[] } {
  const seen: ModelInput[] = [];
  return {
    info: model.info,
    ...(maxBatchSize ? { maxBatchSize } : {}),
    seen,
    async predict(inputs) {
      seen.push(...inputs);
      if (!maxBatchSize) return model.predict(inputs);
      const out = [];
      for (let i = 0; i < inputs.length; i += maxBatchSize) out.push(...(await model.predict(inputs.slice(i, i + maxBatchSize))));
      return out;
    },
  };
}

/** Starts `textstress serve` in its own process and waits for its URL. */
function startServer(model: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/textstress.mjs', 'serve', '--model', model, '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving .* at (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
}

async function attackOnce(
  model: ModelAdapter,
  examples: Example[],
  engine: QueryEngine,
  concurrency: number,
  target: 'max' | 'min' = 'max',
) {
  const goal = new UntargetedClassification(new LabelAligner(model.info.labels ?? [], ['negative', 'positive']));
  const out = join(tmpdir(), `textstress-bench-${process.pid}-${Math.random().toString(36).slice(2)}`);
  async function* stream() {
    yield* examples;
  }
  const t0 = performance.now();
  const run = await runAttack({
    outDir: out,
    settings: { recipe: 'typos', model: values.model!, dataset: values.data!, seed: 0, options: { k: K, target } },
    examples: stream(),
    attack: typoAttack({ goal, target, k: K }),
    engine,
    concurrency,
    overwrite: true,
  });
  return { seconds: (performance.now() - t0) / 1000, summary: run.summary };
}

async function main(): Promise<void> {
  const model = await loadTransformersModel(values.model!);
  const examples = (await collect(await openDataset(values.data!, { limit: N }))) as Example[];
  const report: Record<string, unknown> = { model: values.model, data: values.data, n: examples.length, k: K };

  // Warm-up so that ONNX session start-up is not billed to either side.
  await model.predict([{ kind: 'text', text: 'warm up' }]);

  // (a) attack vs bare model on the very same queries
  const rec = recording(model);
  const attack = await attackOnce(rec, examples, new QueryEngine(rec), 32);
  const queries = rec.seen.slice();
  const batch = 64;
  const t0 = performance.now();
  for (let i = 0; i < queries.length; i += batch) await model.predict(queries.slice(i, i + batch));
  const bare = (performance.now() - t0) / 1000;
  report.a = {
    attack_seconds: round(attack.seconds),
    bare_model_seconds: round(bare),
    ratio: round(attack.seconds / bare),
    model_queries: queries.length,
    queries_per_second_attack: Math.round(queries.length / attack.seconds),
    attack_success_rate: round(attack.summary.attack_success_rate),
    clean_accuracy: round(attack.summary.clean_accuracy),
    attacked_accuracy: round(attack.summary.attacked_accuracy),
    mean_queries: round(attack.summary.mean_queries),
  };

  // (b) cross-example batching vs one query at a time, on the first SINGLE_N sentences
  const subset = examples.slice(0, SINGLE_N);
  const batched = await attackOnce(model, subset, new QueryEngine(model), 32);
  const one = recording(model, 1);
  const single = await attackOnce(one, subset, new QueryEngine(one, { maxFlushSize: 1, cacheSize: 0 }), 1);
  // The same comparison against a model served over HTTP by `textstress serve` in another process.
  const server = await startServer(values.model!);
  let httpReport: Record<string, number>;
  try {
    const remote = await createHttpModel(server.url, { batchSize: 64, concurrency: 2 });
    const remoteBatched = await attackOnce(remote, subset, new QueryEngine(remote, { maxConcurrentFlushes: 2 }), 32);
    const remoteOne = await createHttpModel(server.url, { batchSize: 1, concurrency: 1 });
    const remoteSingle = await attackOnce(remoteOne, subset, new QueryEngine(remoteOne, { maxFlushSize: 1, cacheSize: 0 }), 1);
    httpReport = {
      batched_seconds: round(remoteBatched.seconds),
      one_at_a_time_seconds: round(remoteSingle.seconds),
      speedup: round(remoteSingle.seconds / remoteBatched.seconds),
    };
  } finally {
    server.child.kill('SIGTERM');
  }
  report.b = {
    sentences: subset.length,
    model_queries: one.seen.length,
    local: {
      batched_seconds: round(batched.seconds),
      one_at_a_time_seconds: round(single.seconds),
      speedup: round(single.seconds / batched.seconds),
    },
    http: httpReport,
  };

  // (c) cache: per-attack repeats, and a second run (min-importance words) sharing the engine's cache
  const engine = new QueryEngine(model);
  const first = await attackOnce(model, examples, engine, 32, 'max');
  const second = await attackOnce(model, examples, engine, 32, 'min');
  report.c = {
    per_attack_cache_hit_rate: round(first.summary.cache_hit_rate),
    first_run_shared_cache_hit_rate: first.summary.process.cache_hit_rate,
    second_run_shared_cache_hit_rate: second.summary.process.cache_hit_rate,
  };

  // (d) typo generation speed over every word of the sentences, all six sources
  const seqs = examples.map((e) => WordSeq.parse(e.kind === 'text' ? e.text : ''));
  const rng = new Rng(0);
  let words = 0;
  let candidates = 0;
  const t1 = performance.now();
  while (performance.now() - t1 < 2000) {
    for (const seq of seqs) {
      for (let i = 0; i < seq.length; i++) {
        candidates += typoCandidates(seq, i, TYPO_SOURCE_NAMES, rng).length;
        words++;
      }
    }
  }
  const genSeconds = (performance.now() - t1) / 1000;
  report.d = {
    words_per_second: Math.round(words / genSeconds),
    candidates_per_word: round(candidates / words),
  };

  mkdirSync('bench/.out', { recursive: true });
  writeFileSync('bench/.out/typos-bench.json', JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
  await model.close?.();
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

await main();
