/**
 * Bare batched inference of a real-size model (issue 33, item 2): rows per second by batch size and sequence length,
 * through textstress's own ONNX path (the adapter's session: padded int64 tensors in, logits out; no tokenizer, no
 * attack), against the physical reference: the model's FLOPs per row ÷ this machine's matrix-multiply rate, measured
 * through onnxruntime with a MatMul-only graph of the model's feed-forward shape (bench/speed/gemm.ts) right after
 * each cell, and at its best over all shapes.
 *
 *   npx tsx bench/speed/inference.ts [--model models/extra/bench-base] [--batches 1,8,32,64]
 *     [--lengths 16,32,64,128,256,512] [--seconds 1] [--max-tokens 32768] [--threads N]
 */
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import { transformersInternals } from '../../src/models/transformers/internals.ts';
import { gemmRate } from './gemm.ts';
import { args, BENCH_MODEL, flopsPerRow, fmt, list, machine, needModel, record, round, rows, shapeOf, table, timeIt } from './support.ts';

const a = args({
  model: BENCH_MODEL,
  batches: '1,8,32,64',
  lengths: '16,32,64,128,256,512',
  seconds: '1',
  'max-tokens': '32768',
  threads: '',
});
const dir = needModel(a.model);
const shape = shapeOf(dir);
const threads = a.threads ? Number(a.threads) : undefined;
const ortOpts = threads ? { intraOpNumThreads: threads } : {};

console.log(JSON.stringify(machine()));
const model = await loadTransformersModel(dir, threads ? { threads } : {});
const internals = transformersInternals(model);
await internals.forward(rows(2, 16, shape.vocab));

interface Cell {
  length: number;
  batch: number;
  rows_per_second: number;
  seconds_per_run: number;
  repeats: number;
  gflops: number;
  /** GEMM GFLOP/s at the same number of token rows (M = batch × length), measured right after. */
  gemm_gflops: number;
}
const cells: Cell[] = [];
const gemmShape = { k: shape.hidden, n: shape.inter };
for (const length of list(a.lengths).map(Number)) {
  for (const batch of list(a.batches).map(Number)) {
    if (batch * length > Number(a['max-tokens'])) continue;
    const ids = rows(batch, length, shape.vocab);
    const { seconds, repeats } = await timeIt(() => internals.forward(ids), Number(a.seconds));
    const rps = batch / seconds;
    const gemm = await gemmRate(batch * length, gemmShape.k, gemmShape.n, ortOpts, Math.min(1, Number(a.seconds)));
    cells.push({
      length,
      batch,
      rows_per_second: round(rps, 2),
      seconds_per_run: round(seconds, 4),
      repeats,
      gflops: round((rps * flopsPerRow(shape, length)) / 1e9, 1),
      gemm_gflops: round(gemm.gflops, 1),
    });
    console.error(`t=${length} b=${batch}: ${fmt(rps)} rows/s, ${cells.at(-1)!.gflops} GFLOP/s (GEMM ${cells.at(-1)!.gemm_gflops})`);
  }
}
await model.close();

// The machine's best matrix-multiply rate: the model's three MatMul shapes at a large M.
const peaks = [];
for (const [k, n] of [
  [shape.hidden, shape.inter],
  [shape.inter, shape.hidden],
  [shape.hidden, shape.hidden],
] as const) {
  for (const m of [512, 2048]) peaks.push(await gemmRate(m, k, n, ortOpts, 1.5));
}
const peak = Math.max(...peaks.map((p) => p.gflops));

const lengths = [...new Set(cells.map((c) => c.length))];
const batches = [...new Set(cells.map((c) => c.batch))];
const cell = (t: number, b: number): Cell | undefined => cells.find((c) => c.length === t && c.batch === b);
console.log(`\nRows per second (GFLOP/s achieved; % of the best GEMM rate, ${fmt(peak, 0)} GFLOP/s), ${a.model}:\n`);
console.log(
  table(
    ['tokens per row', 'GFLOP per row', ...batches.map((b) => `batch ${b}`), 'bound at best GEMM rate'],
    lengths.map((t) => [
      t,
      fmt(flopsPerRow(shape, t) / 1e9, 2),
      ...batches.map((b) => {
        const c = cell(t, b);
        return c ? `${fmt(c.rows_per_second, 1)} (${fmt(c.gflops, 0)}; ${fmt((100 * c.gflops) / peak, 0)}%)` : '—';
      }),
      `${fmt((peak * 1e9) / flopsPerRow(shape, t), 1)} rows/s`,
    ]),
  ),
);
console.log('\nThe same cells against the GEMM rate at their own size (M = batch × tokens), measured right after each:\n');
console.log(
  table(
    ['tokens per row', ...batches.map((b) => `batch ${b}`)],
    lengths.map((t) => [t, ...batches.map((b) => (cell(t, b) ? `${fmt((100 * cell(t, b)!.gflops) / cell(t, b)!.gemm_gflops, 0)}%` : '—'))]),
  ),
);
record('inference', { model: a.model, shape, threads: threads ?? 'default', cells, gemm_peak_gflops: round(peak, 1), gemm: peaks });
