/**
 * The layer probe of Yin et al. (2020, Appendix B.3): on one frozen layer's token vectors, a self-attention pooling
 * layer (e_t = vᵀ tanh(W h_t + b), a = softmax(e), pooled = Σ a_t h_t; attention size 100, dropout 0.1 on the pooled
 * vector) and a linear classifier, trained with Adam (lr 1e-3, batch 8, L2 1e-3 on the weights) for up to 10 epochs,
 * stopping when dev accuracy has not improved for 2 epochs and keeping the best epoch's weights. Trained with
 * TensorFlow.js (on its WebAssembly backend), not hand-written gradients; every random choice is seeded.
 */
import type * as TF from '@tensorflow/tfjs';
import { Rng } from '../../util/rng.ts';
import { ensureBackend } from './backend.ts';

/** One sentence for a probe: its token vectors (special tokens left out) and the class. */
export interface LayerProbeExample {
  /** [len × hidden], row-major. */
  feats: Float32Array;
  len: number;
  label: 0 | 1;
}

export interface ProbeSettings {
  attentionSize: number;
  dropout: number;
  learningRate: number;
  batchSize: number;
  l2: number;
  maxEpochs: number;
  patience: number;
  seed: number;
}

export const PAPER_LAYER_PROBE: Omit<ProbeSettings, 'seed'> = {
  attentionSize: 100,
  dropout: 0.1,
  learningRate: 1e-3,
  batchSize: 8,
  l2: 1e-3,
  maxEpochs: 10,
  patience: 2,
};

export interface LayerProbePrediction {
  /** P(class 1) per example. */
  prob: number[];
  /** The pooling attention over each example's tokens. */
  attention: Float32Array[];
}

export interface TrainedLayerProbe {
  epochs: number;
  bestEpoch: number;
  devAccuracy: number;
  trainSeconds: number;
  predict(examples: readonly LayerProbeExample[]): LayerProbePrediction;
  dispose(): void;
}

/** The library, once trainLayerProbe has loaded it (see backend.ts). */
let tf: typeof TF;

interface Weights {
  W: TF.Variable;
  b: TF.Variable;
  v: TF.Variable;
  U: TF.Variable;
  c: TF.Variable;
}

/** A padded batch: x [B, S, H], mask bias [B, S] (0 at tokens, −1e9 at padding). */
function batchTensors(examples: readonly LayerProbeExample[], hidden: number): { x: TF.Tensor3D; bias: TF.Tensor2D; width: number } {
  const width = Math.max(1, ...examples.map((e) => e.len));
  const x = new Float32Array(examples.length * width * hidden);
  const bias = new Float32Array(examples.length * width).fill(-1e9);
  examples.forEach((e, i) => {
    x.set(e.feats.subarray(0, e.len * hidden), i * width * hidden);
    bias.fill(0, i * width, i * width + e.len);
  });
  return { x: tf.tensor3d(x, [examples.length, width, hidden]), bias: tf.tensor2d(bias, [examples.length, width]), width };
}

function forward(w: Weights, x: TF.Tensor3D, bias: TF.Tensor2D, dropout: number, seed?: number): { logits: TF.Tensor2D; att: TF.Tensor2D } {
  const [B, S, H] = x.shape;
  const e = tf.matMul(tf.tanh(tf.add(tf.matMul(tf.reshape(x, [B * S, H]), w.W), w.b)), w.v);
  const att = tf.softmax(tf.add(tf.reshape(e, [B, S]), bias)) as TF.Tensor2D;
  let pooled = tf.sum(tf.mul(x, tf.expandDims(att, 2)), 1) as TF.Tensor2D;
  if (dropout > 0 && seed !== undefined) pooled = tf.dropout(pooled, dropout, undefined, seed) as TF.Tensor2D;
  return { logits: tf.add(tf.matMul(pooled, w.U), w.c) as TF.Tensor2D, att };
}

function accuracy(w: Weights, examples: readonly LayerProbeExample[], hidden: number): number {
  if (examples.length === 0) return Number.NaN;
  let right = 0;
  for (let s = 0; s < examples.length; s += 64) {
    const chunk = examples.slice(s, s + 64);
    const pred = tf.tidy(() => {
      const { x, bias } = batchTensors(chunk, hidden);
      return tf.argMax(forward(w, x, bias, 0).logits, 1).dataSync();
    });
    chunk.forEach((e, i) => (right += pred[i] === e.label ? 1 : 0));
  }
  return right / examples.length;
}

/** Trains a probe on `train`, picking the epoch on `dev`. */
export async function trainLayerProbe(
  train: readonly LayerProbeExample[],
  dev: readonly LayerProbeExample[],
  hidden: number,
  settings: ProbeSettings,
): Promise<TrainedLayerProbe> {
  tf = await ensureBackend();
  const started = performance.now();
  const rng = Rng.derive(settings.seed, 'probe');
  const seedOf = (): number => rng.nextUint32();
  const A = settings.attentionSize;
  const init = (shape: number[], fanIn: number, fanOut: number): TF.Variable =>
    tf.variable(tf.randomUniform(shape, -Math.sqrt(6 / (fanIn + fanOut)), Math.sqrt(6 / (fanIn + fanOut)), 'float32', seedOf()));
  const w: Weights = {
    W: init([hidden, A], hidden, A),
    b: tf.variable(tf.zeros([A])),
    v: init([A, 1], A, 1),
    // The classifier starts at zero (a random start puts a large, arbitrary weight on every dimension, and with
    // Adam at 1e-3 the probe spends its ten epochs undoing it before the signal shows).
    U: tf.variable(tf.zeros([hidden, 2])),
    c: tf.variable(tf.zeros([2])),
  };
  const optimizer = tf.train.adam(settings.learningRate);
  let best = { acc: -1, epoch: 0, weights: [] as TF.Tensor[] };
  let epoch: number;
  let stale = 0;
  for (epoch = 1; epoch <= settings.maxEpochs; epoch++) {
    const order = rng.shuffle(train.map((_, i) => i));
    for (let s = 0; s < order.length; s += settings.batchSize) {
      const chunk = order.slice(s, s + settings.batchSize).map((i) => train[i]!);
      const labels = chunk.map((e) => e.label);
      const seed = seedOf();
      tf.tidy(() => {
        const { x, bias } = batchTensors(chunk, hidden);
        const y = tf.oneHot(tf.tensor1d(labels, 'int32'), 2);
        optimizer.minimize(() => {
          const { logits } = forward(w, x, bias, settings.dropout, seed);
          const l2 = tf.addN([w.W, w.v, w.U].map((t) => tf.sum(tf.square(t))));
          return tf.add(tf.losses.softmaxCrossEntropy(y, logits), tf.mul(settings.l2, l2)) as TF.Scalar;
        });
      });
    }
    const acc = accuracy(w, dev.length > 0 ? dev : train, hidden);
    if (acc > best.acc) {
      best.weights.forEach((t) => t.dispose());
      best = { acc, epoch, weights: [w.W, w.b, w.v, w.U, w.c].map((t) => t.clone()) };
      stale = 0;
    } else if (++stale >= settings.patience) {
      break;
    }
  }
  const epochs = Math.min(epoch, settings.maxEpochs);
  [w.W, w.b, w.v, w.U, w.c].forEach((t, i) => t.assign(best.weights[i]!));
  best.weights.forEach((t) => t.dispose());
  optimizer.dispose();
  const trainSeconds = (performance.now() - started) / 1000;
  return {
    epochs,
    bestEpoch: best.epoch,
    devAccuracy: best.acc,
    trainSeconds,
    predict(examples) {
      const prob: number[] = [];
      const attention: Float32Array[] = [];
      for (let s = 0; s < examples.length; s += 64) {
        const chunk = examples.slice(s, s + 64);
        const [p, a, width] = tf.tidy(() => {
          const { x, bias, width } = batchTensors(chunk, hidden);
          const { logits, att } = forward(w, x, bias, 0);
          return [tf.softmax(logits).dataSync(), att.dataSync(), width] as const;
        });
        chunk.forEach((e, i) => {
          prob.push(p[i * 2 + 1]!);
          attention.push(Float32Array.from(a.subarray(i * width, i * width + e.len)));
        });
      }
      return { prob, attention };
    },
    dispose() {
      [w.W, w.b, w.v, w.U, w.c].forEach((t) => t.dispose());
    },
  };
}

/** Indices of the k largest values (ties: the earlier index first). */
export function topK(xs: ArrayLike<number>, k: number): number[] {
  return Array.from({ length: xs.length }, (_, i) => i)
    .sort((a, b) => xs[b]! - xs[a]! || a - b)
    .slice(0, k);
}
