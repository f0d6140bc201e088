/**
 * Typo-attack benchmark (issue: the spine). Attacks SST-2 dev sentences with demo-sst2 and reports
 *  (a) attack wall time vs the bare model answering the very same queries in batches (goal ≤ 1.15×);
 *  (b) moved to bench/batching-bench.ts: cross-example vs within-example batching at the same concurrency;
 *  (c) cache hit rates (per attack, and shared across a second run in the same process);
 *  (d) typo generation speed in words per second.
 * Usage: npx tsx bench/typos-bench.ts [--n 200] [--k 3] [--model models/demo-sst2]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UntargetedClassification } from '../src/core/goals/index.ts';
import { LabelAligner } from '../src/core/labels.ts';
import { collect, openDataset } from '../src/data/index.ts';
import type { Example } from '../src/data/types.ts';
import { loadTransformersModel } from '../src/models/index.ts';
import type { ModelAdapter, ModelInput } from '../src/models/types.ts';
import { TYPO_SOURCE_NAMES, typoCandidates } from '../src/perturb/index.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { typoAttack } from '../src/families/typos/attack.ts';
import { runAttack } from '../src/kinds/attack/run.ts';
import { WordSeq } from '../src/text/word-seq.ts';
import { Rng } from '../src/util/rng.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    k: { type: 'string', default: '3' },
    model: { type: 'string', default: 'models/demo-sst2' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
  },
});
const N = Number(values.n);
const K = Number(values.k);

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

  // (b) batching: see bench/batching-bench.ts (cross-example vs within-example batching at equal concurrency).

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

function round(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 1000;
}

await main();
