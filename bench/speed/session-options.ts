/**
 * onnxruntime session settings at real size (issue 33, item 2): each setting against onnxruntime's defaults, one
 * change per arm, in paired rounds (the arms of a group are loaded together and take turns, the order rotating
 * each round). The workload of a round is what attacks send: a typo step's batch (64 rows of 32 tokens), a
 * grammar step's (8 rows of 24), and long inputs (4 rows of 256), each through the model's own predict path
 * below the tokenizer (internals.forward). Load time per arm is measured too (graph optimisation happens there).
 *
 *   npx tsx bench/speed/session-options.ts [--model models/extra/bench-base] [--rounds 5] [--groups threads,graph,memory,execution]
 */
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import { transformersInternals } from '../../src/models/transformers/internals.ts';
import type { OnnxOptions } from '../../src/models/transformers/runtime.ts';
import {
  args,
  BENCH_MODEL,
  fmt,
  list,
  machine,
  medianInterval,
  needModel,
  pairedRounds,
  ratios,
  ratioText,
  record,
  round,
  rows,
  shapeOf,
  table,
} from './support.ts';

const a = args({ model: BENCH_MODEL, rounds: '5', groups: 'threads,graph,memory,execution' });
const dir = needModel(a.model);
const shape = shapeOf(dir);

type Arm = { threads?: number; onnxOptions?: OnnxOptions };
/** One change per arm against `default` (onnxruntime's defaults: intra-op threads = cores, graph `all`, arena and pattern on, sequential). */
const GROUPS: Record<string, Record<string, Arm>> = {
  threads: { default: {}, 'threads=1': { threads: 1 }, 'threads=2': { threads: 2 }, 'threads=4': { threads: 4 } },
  graph: {
    default: {},
    'graph_optimization=extended': { onnxOptions: { graph_optimization: 'extended' } },
    'graph_optimization=basic': { onnxOptions: { graph_optimization: 'basic' } },
    'graph_optimization=disabled': { onnxOptions: { graph_optimization: 'disabled' } },
  },
  memory: {
    default: {},
    'mem_arena=off': { onnxOptions: { mem_arena: false } },
    'mem_pattern=off': { onnxOptions: { mem_pattern: false } },
    'prepacking=off': { onnxOptions: { prepacking: false } },
  },
  execution: {
    default: {},
    'execution_mode=parallel, inter_op_threads=2': { onnxOptions: { execution_mode: 'parallel', inter_op_threads: 2 } },
  },
};

const WORK = [
  { rows: rows(64, 32, shape.vocab), what: '64×32' },
  { rows: rows(8, 24, shape.vocab, 2), what: '8×24' },
  { rows: rows(4, 256, shape.vocab, 3), what: '4×256' },
];

console.log(JSON.stringify(machine()));
const groups: Record<string, unknown>[] = [];
for (const group of list(a.groups)) {
  const arms = GROUPS[group];
  if (!arms) throw new Error(`no group ${group}: ${Object.keys(GROUPS).join(', ')}`);
  const loaded: Record<string, Awaited<ReturnType<typeof loadTransformersModel>>> = {};
  const loadSeconds: Record<string, number> = {};
  for (const [name, arm] of Object.entries(arms)) {
    const t0 = performance.now();
    loaded[name] = await loadTransformersModel(dir, arm);
    loadSeconds[name] = round((performance.now() - t0) / 1000);
    await transformersInternals(loaded[name]).forward(rows(2, 16, shape.vocab));
  }
  const timed = Object.fromEntries(
    Object.entries(loaded).map(([name, m]) => [
      name,
      async () => {
        const t0 = performance.now();
        for (const w of WORK) await transformersInternals(m).forward(w.rows);
        return (performance.now() - t0) / 1000;
      },
    ]),
  );
  const samples = await pairedRounds(timed, Number(a.rounds), (r) => console.error(`${group}: round ${r + 1} of ${a.rounds}`));
  for (const m of Object.values(loaded)) await m.close();
  const vs = ratios(samples, 'default');
  groups.push({
    group,
    arms,
    load_seconds: loadSeconds,
    round_seconds: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, medianInterval(v)])),
    vs_default: vs,
  });
  console.log(`\n${group} (${a.model}; a round: ${WORK.map((w) => w.what).join(' + ')} rows×tokens; ${a.rounds} paired rounds):\n`);
  console.log(
    table(
      ['setting', 'seconds a round (median)', 'time ÷ default [interval]', 'load seconds'],
      Object.keys(arms).map((name) => [name, fmt(medianInterval(samples[name]!).median, 3), ratioText(vs[name]!), fmt(loadSeconds[name]!)]),
    ),
  );
}
record('session-options', { model: a.model, rounds: Number(a.rounds), work: WORK.map((w) => w.what), groups });
