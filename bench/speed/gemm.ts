/**
 * This machine's matrix-multiply rate through onnxruntime itself: a graph of one float32 MatMul (A [M, K] fed, B [K, N]
 * a constant weight, as in a BERT layer), run by onnxruntime-node with the settings the model gets. Its GFLOP/s is
 * the physical reference of bench/speed/inference.ts: a BERT spends over 98% of its multiply-adds in such MatMuls,
 * so FLOPs per row ÷ this rate is the most rows per second the hardware gives through this runtime.
 */
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { timeIt } from './support.ts';

const { onnx } = onnxProto;
const FLOAT = 1;

/** The ONNX bytes of Y = A · B with B a constant [K, N] of deterministic values. */
export function matmulGraph(k: number, n: number): Uint8Array {
  const b = new Float32Array(k * n).map((_, i) => Math.sin(i) * 0.02);
  const model = onnx.ModelProto.encode({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 14 }],
    graph: {
      name: 'gemm',
      node: [{ opType: 'MatMul', input: ['A', 'B'], output: ['Y'] }],
      initializer: [{ name: 'B', dataType: FLOAT, dims: [k, n], rawData: new Uint8Array(b.buffer) }],
      input: [{ name: 'A', type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'M' }, { dimValue: k }] } } } }],
      output: [{ name: 'Y', type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'M' }, { dimValue: n }] } } } }],
    },
  }).finish();
  return model;
}

/** GFLOP/s of one MatMul of A [m, k] by B [k, n], timed for about `seconds`. */
export async function gemmRate(
  m: number,
  k: number,
  n: number,
  opts: ort.InferenceSession.SessionOptions = {},
  seconds = 1.5,
): Promise<{ m: number; k: number; n: number; gflops: number; ms: number }> {
  const session = await ort.InferenceSession.create(matmulGraph(k, n), opts);
  const a = new ort.Tensor(
    'float32',
    new Float32Array(m * k).map((_, i) => Math.cos(i)),
    [m, k],
  );
  await session.run({ A: a });
  const { seconds: s } = await timeIt(() => session.run({ A: a }), seconds);
  await session.release();
  return { m, k, n, gflops: (2 * m * k * n) / s / 1e9, ms: s * 1000 };
}
