/**
 * EFSG through textstress against the bare model (issue 12): sentences scored per second by a `fooling` run
 * (generator + query engine + checkpoint per epoch) and by the model adapter alone on the very batches the run sent
 * it (same sentences, same batch sizes). Goal: the run within 15% of the bare model's throughput.
 *
 * T_task is given (--threshold) so no training examples are scored; reading the training file for D_task is timed
 * on its own and shown beside (it happens once per run, before the first epoch).
 *
 *   npx tsx bench/fooling-bench.ts [--population 500] [--length 9] [--epochs 20] [--reps 3]
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../src/models/load.ts';
import type { ModelAdapter, ModelInput } from '../src/models/types.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { builtinRegistry } from '../src/families/index.ts';
import { readTrain } from '../src/families/fooling/source.ts';
import { runRecipe } from '../src/kinds/run.ts';
import { median } from './support.ts';

const { values } = parseArgs({
  options: {
    population: { type: 'string', default: '500' },
    length: { type: 'string', default: '9' },
    epochs: { type: 'string', default: '20' },
    reps: { type: 'string', default: '3' },
  },
});
const N = Number(values.population);
const L = Number(values.length);
const P = Number(values.epochs);
const REPS = Number(values.reps);
const TRAIN = existsSync('../shared/data/sst2/train.tsv') ? '../shared/data/sst2/train.tsv' : 'demo/reviews.tsv';
const MODEL = 'models/demo-sst2';

/** Records the batches the model is asked (after the engine's cache and de-duplication). */
function recording(model: ModelAdapter): ModelAdapter & { batches: ModelInput[][] } {
  const r = {
    info: model.info,
    batches: [] as ModelInput[][],
    predict: (inputs: ModelInput[]) => (r.batches.push(inputs), model.predict(inputs)),
  };
  return r;
}

async function main(): Promise<void> {
  const model = await loadModel(MODEL);
  const t0 = performance.now();
  const t = await readTrain(TRAIN, model.info.labels ?? [], 1);
  const readSeconds = (performance.now() - t0) / 1000;

  const runs: Record<string, number>[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const rec = recording(model);
    const started = performance.now();
    const outcome = await runRecipe({
      registry: builtinRegistry(),
      recipe: 'fooling',
      settings: { train: TRAIN, population: N, length: L, epochs: P, threshold: 0.99 },
      model: MODEL,
      out: join(tmpdir(), `textstress-fooling-bench-${process.pid}-${rep}`),
      overwrite: true,
      seed: rep,
      shared: { model: rec, engine: new QueryEngine(rec) },
    });
    const runSeconds = (performance.now() - started) / 1000;
    if (outcome.kind !== 'generate') throw new Error('expected a generator run');
    const rows = rec.batches.reduce((n, b) => n + b.length, 0);
    const bareStart = performance.now();
    for (const b of rec.batches) await model.predict(b);
    const bareSeconds = (performance.now() - bareStart) / 1000;
    runs.push({ seconds: runSeconds, runSeconds, bareSeconds, rows, batches: rec.batches.length, asked: outcome.summary.queries });
  }
  const m = median(runs);
  const scored = N * P;
  const perSecond = (x: number): number => Math.round(scored / x);
  const ratio = m.bareSeconds! / (m.runSeconds! - readSeconds);
  console.log(
    JSON.stringify({
      model: MODEL,
      train: TRAIN,
      N,
      L,
      P,
      reps: REPS,
      train_words: t.vocabulary.total,
      read_train_seconds: +readSeconds.toFixed(2),
    }),
  );
  console.log(`sentences scored: ${scored} (model ran ${m.rows} distinct ones in ${m.batches} batches; the cache answered the rest)`);
  console.log(`fooling run, end to end:        ${m.runSeconds!.toFixed(2)} s  → ${perSecond(m.runSeconds!)} sentences/s`);
  console.log(
    `  less reading the train file:  ${(m.runSeconds! - readSeconds).toFixed(2)} s  → ${perSecond(m.runSeconds! - readSeconds)} sentences/s`,
  );
  console.log(`bare model, same batches:       ${m.bareSeconds!.toFixed(2)} s  → ${perSecond(m.bareSeconds!)} sentences/s`);
  console.log(`run throughput / bare (epochs only): ${(100 * ratio).toFixed(1)}%  (goal ≥ 85%: ${ratio >= 0.85 ? 'met' : 'MISSED'})`);
}

await main();
