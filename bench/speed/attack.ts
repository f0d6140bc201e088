/**
 * What an attack adds to the model's own time at real size (issue 33, item 2; bench/typos-bench.ts did this for
 * typos on demo-sst2), and where the model's time goes. For each recipe the attack runs once into a folder, as the
 * CLI runs it (runRecipe: engine, batching, checkpoints, results), through an adapter that records every predict()
 * call and the time spent in it. Then, over the very same recorded calls:
 *
 *  - overhead: attack wall time ÷ the bare model answering the same calls again (predict(), same batches; goal
 *    ≤ 1.10×), and ÷ the time the attack itself spent inside predict();
 *  - the tokenizer's share: encoding the calls' inputs (a fresh copy of the model, so its caches warm up exactly as
 *    the attack's did) ÷ the bare replay;
 *  - padding: tokens computed (rows × the padded length of their run) ÷ tokens needed (the rows' own lengths), for
 *    the runs the adapter cuts (src/models/transformers/batching.ts), for rows sorted by length and cut every 64
 *    (the cut before it) and for rows in arrival order cut every 64; and the ONNX time of each cut, in paired rounds.
 *
 *   npx tsx bench/speed/attack.ts [--model models/extra/bench-base] [--n 20] [--noise-n 200]
 *     [--recipes typos-k1,typos-k3,grammar-greedy,noise,pwws] [--rounds 3]
 *
 * `pwws` (and any recipe name the registry has) runs when this build has it; a name it lacks is listed as skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtinRegistry } from '../../src/families/index.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import { runsOf, type RunLimits } from '../../src/models/transformers/batching.ts';
import { transformersInternals } from '../../src/models/transformers/internals.ts';
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import type { ModelAdapter, ModelInput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { EncodedRow } from '../../src/models/transformers/template.ts';
import {
  args,
  BENCH_MODEL,
  fmt,
  list,
  machine,
  needModel,
  pairedRounds,
  ratios,
  ratioText,
  record,
  round,
  SST2,
  table,
} from './support.ts';

const a = args({
  model: BENCH_MODEL,
  data: SST2,
  n: '20',
  'noise-n': '200',
  recipes: 'typos-k1,typos-k3,grammar-greedy,noise,pwws',
  rounds: '3',
  concurrency: '32',
});
const dir = needModel(a.model);

/** The recipes this bench knows by a short name: recipe and settings. */
const RECIPES: Record<string, { recipe: string; settings: Record<string, unknown>; n?: string }> = {
  'typos-k1': { recipe: 'typos', settings: { k: 1 } },
  'typos-k3': { recipe: 'typos', settings: { k: 3 } },
  'grammar-greedy': { recipe: 'grammar', settings: { search: 'greedy' } },
  noise: { recipe: 'noise', settings: { noise: 'middle-random' }, n: 'noise-n' },
  // PWWS (issue 36) with its published settings; the registry of an older build may lack it (then skipped).
  pwws: { recipe: 'pwws', settings: {} },
};

/** Wraps a model: keeps every predict() call's inputs and the seconds spent answering them. */
function recording(model: ModelAdapter): ModelAdapter & { calls: ModelInput[][]; seconds: number } {
  const rec = {
    info: model.info,
    concurrency: model.concurrency,
    maxBatchSize: model.maxBatchSize,
    calls: [] as ModelInput[][],
    seconds: 0,
    async predict(inputs: ModelInput[]) {
      rec.calls.push(inputs.slice());
      const t0 = performance.now();
      try {
        return await model.predict(inputs);
      } finally {
        rec.seconds += (performance.now() - t0) / 1000;
      }
    },
  };
  return rec;
}

/** Row indices in this order, cut every `rows` rows. */
function chunks(order: number[], rows: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < order.length; i += rows) out.push(order.slice(i, i + rows));
  return out;
}
const arrival = (lengths: readonly number[]): number[] => lengths.map((_, i) => i);
const byLength = (lengths: readonly number[]): number[] => arrival(lengths).sort((x, y) => lengths[x]! - lengths[y]!);

const padded = (lengths: readonly number[], runs: number[][]): number =>
  runs.reduce((s, r) => s + r.length * Math.max(...r.map((i) => lengths[i]!)), 0);

console.log(JSON.stringify(machine()));
const registry = builtinRegistry();
const model = await loadTransformersModel(dir);
const fresh = await loadTransformersModel(dir);
const internals = transformersInternals(model);
const limits: RunLimits = { rows: model.maxBatchSize, tokens: model.maxBatchTokens, overhead: model.runOverhead };
await model.predict([{ kind: 'text', text: 'warm up' }]);

const results: Record<string, unknown>[] = [];
const skipped: string[] = [];
for (const name of list(a.recipes)) {
  const spec = RECIPES[name] ?? { recipe: name, settings: {} };
  if (!registry.has(spec.recipe)) {
    skipped.push(name);
    console.error(`${name}: no recipe "${spec.recipe}" in this build, skipped`);
    continue;
  }
  const n = Number(a[(spec.n ?? 'n') as keyof typeof a]);
  const rec = recording(model);
  const out = mkdtempSync(path.join(tmpdir(), 'textstress-speed-'));
  const t0 = performance.now();
  const outcome = await runRecipe({
    registry,
    recipe: spec.recipe,
    settings: spec.settings,
    model: dir,
    data: a.data,
    limit: n,
    out,
    overwrite: true,
    seed: 0,
    concurrency: Number(a.concurrency),
    shared: { model: rec, engine: new QueryEngine(rec) },
  });
  const wall = (performance.now() - t0) / 1000;
  rmSync(out, { recursive: true, force: true });
  const calls = rec.calls;
  const queries = calls.reduce((s, c) => s + c.length, 0);

  // The bare model on the same calls, and the tokenizer alone (fresh caches, same order).
  let t = performance.now();
  for (const c of calls) await model.predict(c);
  const bare = (performance.now() - t) / 1000;
  const freshInternals = transformersInternals(fresh);
  const encoded: EncodedRow[][] = [];
  t = performance.now();
  for (const c of calls) encoded.push(c.flatMap((input) => freshInternals.encode(input)));
  const tokenizer = (performance.now() - t) / 1000;

  // Padding, and the ONNX time of each way of cutting runs, in paired rounds.
  // The adapter's cut; before it, rows sorted by length and cut every 64; before that, arrival order cut every 64.
  const cuts: Record<string, (l: number[]) => number[][]> = {
    adapter: (l) => runsOf(l, limits),
    'sorted, 64 a run': (l) => chunks(byLength(l), limits.rows),
    'arrival order, 64 a run': (l) => chunks(arrival(l), limits.rows),
  };
  const needed = encoded.reduce((s, rows) => s + rows.reduce((x, r) => x + r.inputIds.length, 0), 0);
  const computed: Record<string, number> = {};
  const arms: Record<string, () => Promise<number>> = {};
  for (const [cut, f] of Object.entries(cuts)) {
    const plan = encoded.map((rows) => ({ rows, runs: f(rows.map((r) => r.inputIds.length)) }));
    computed[cut] = plan.reduce(
      (s, p) =>
        s +
        padded(
          p.rows.map((r) => r.inputIds.length),
          p.runs,
        ),
      0,
    );
    arms[cut] = async () => {
      const t1 = performance.now();
      for (const p of plan) {
        for (const run of p.runs) {
          const rows = run.map((i) => p.rows[i]!);
          await internals.forward(
            rows.map((r) => r.inputIds),
            rows.map((r) => r.inputIds.map(() => 1)),
            rows.map((r) => r.tokenTypeIds),
          );
        }
      }
      return (performance.now() - t1) / 1000;
    };
  }
  const onnx = await pairedRounds(arms, Number(a.rounds));
  const summary = 'summary' in outcome ? (outcome.summary as unknown as Record<string, unknown>) : undefined;
  results.push({
    name,
    recipe: spec.recipe,
    settings: spec.settings,
    examples: n,
    queries,
    calls: calls.length,
    attack_seconds: round(wall),
    seconds_in_predict: round(rec.seconds),
    bare_seconds: round(bare),
    overhead_vs_bare: round(wall / bare),
    overhead_vs_own_predict: round(wall / rec.seconds),
    queries_per_second: round(queries / wall, 1),
    tokenizer_seconds: round(tokenizer),
    tokenizer_share: round(tokenizer / bare),
    tokens_needed: needed,
    tokens_computed: computed,
    padding_waste: Object.fromEntries(Object.entries(computed).map(([k, v]) => [k, round(v / needed)])),
    onnx_seconds: Object.fromEntries(Object.entries(onnx).map(([k, v]) => [k, v.map((x) => round(x))])),
    runs: Object.fromEntries(
      Object.entries(cuts).map(([k, f]) => [k, encoded.reduce((x, rows) => x + f(rows.map((r) => r.inputIds.length)).length, 0)]),
    ),
    onnx_vs_adapter: ratios(onnx, 'adapter'),
    attack_success_rate: summary?.attack_success_rate ?? null,
    mean_queries: summary?.mean_queries ?? null,
  });
  const r = results.at(-1)!;
  console.error(
    `${name}: ${queries} queries in ${calls.length} calls, attack ${fmt(wall)} s, bare ${fmt(bare)} s (${fmt(wall / bare)}×), ` +
      `tokenizer ${fmt((100 * tokenizer) / bare, 1)}%, padding ${JSON.stringify(r.padding_waste)}`,
  );
}
await model.close();
await fresh.close();

type Row = { [k: string]: unknown } & {
  onnx_vs_adapter: ReturnType<typeof ratios>;
  padding_waste: Record<string, number>;
  runs: Record<string, number>;
};
console.log(`\n${a.model}, ${a.data}, concurrency ${a.concurrency}:\n`);
console.log(
  table(
    [
      'recipe',
      'examples',
      'queries (calls)',
      'attack',
      'bare model, same calls',
      'attack ÷ bare',
      'attack ÷ own predict time',
      'queries/s',
      'tokenizer share',
    ],
    results.map((r) => [
      String(r.name),
      String(r.examples),
      `${r.queries} (${r.calls})`,
      `${fmt(Number(r.attack_seconds))} s`,
      `${fmt(Number(r.bare_seconds))} s`,
      `${fmt(Number(r.overhead_vs_bare))}×`,
      `${fmt(Number(r.overhead_vs_own_predict))}×`,
      fmt(Number(r.queries_per_second), 1),
      `${fmt(100 * Number(r.tokenizer_share), 1)}%`,
    ]),
  ),
);
const cutNames = ['adapter', 'sorted, 64 a run', 'arrival order, 64 a run'];
console.log(
  `\nRuns, padding (tokens computed ÷ needed) and ONNX time ÷ the adapter's cut (run overhead ${limits.overhead} tokens, ` +
    `≤ ${limits.rows} rows, ≤ ${limits.tokens} tokens a run); median of ${a.rounds} paired rounds [range]:\n`,
);
console.log(
  table(
    ['recipe', ...cutNames.map((c) => `${c}: runs, padding`), ...cutNames.slice(1).map((c) => `ONNX time, ${c}`)],
    (results as Row[]).map((r) => [
      String(r.name),
      ...cutNames.map((c) => `${r.runs[c]}, ${fmt(r.padding_waste[c]!, 3)}`),
      ...cutNames.slice(1).map((c) => ratioText(r.onnx_vs_adapter[c]!)),
    ]),
  ),
);
record('attack', { model: a.model, data: a.data, concurrency: Number(a.concurrency), limits, results, skipped });
