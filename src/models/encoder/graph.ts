/**
 * Where a BERT-family ONNX graph keeps its layers' hidden states and attention weights, found from the graph's
 * structure (not node names, which differ between exporters), and a copy of the graph that returns them as extra
 * outputs. Read and written with onnx-proto (ONNX's own protobuf schema for JavaScript).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import onnxProto from 'onnx-proto';
import { ModelError } from '../../util/errors.ts';

const { onnx } = onnxProto;
type Node = onnxProto.onnx.INodeProto;

/** The tensors of an encoder, by name in the graph: hidden state 0 (embeddings) to L, attentions 0 to L−1. */
export interface EncoderTaps {
  hiddenStates: string[];
  attentions: string[];
  /** Which were already graph outputs (exported with the model), as opposed to exposed here. */
  exported: boolean;
}

const FLOAT = 1;

/** Graph outputs named as the training script (and Hugging Face's output_hidden_states) name them. */
function exportedTaps(outputs: readonly string[], layers: number): EncoderTaps | undefined {
  const find = (stem: string, i: number): string | undefined =>
    outputs.find((o) => o === `${stem}.${i}` || o === `${stem}_${i}` || o === `${stem}${i}`);
  const hiddenStates = Array.from({ length: layers + 1 }, (_, i) => find('hidden_states', i));
  const attentions = Array.from({ length: layers }, (_, i) => find('attentions', i));
  if (hiddenStates.every(Boolean) && attentions.every(Boolean)) {
    return { hiddenStates: hiddenStates as string[], attentions: attentions as string[], exported: true };
  }
  return undefined;
}

/**
 * The output of every layer normalisation and its node's position, in graph order: fused (LayerNormalization, SkipLayerNormalization)
 * or as torch exports it before opset 17 — x − ReduceMean(x), divided by a square root, times γ, plus β.
 */
function layerNormOutputs(nodes: readonly Node[]): { at: number; name: string }[] {
  const producer = new Map<string, Node>();
  const consumers = new Map<string, Node[]>();
  for (const n of nodes) {
    for (const o of n.output ?? []) producer.set(o, n);
    for (const i of n.input ?? []) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  }
  const only = (name: string | undefined, op: string): Node | undefined => {
    const cs = name === undefined ? [] : (consumers.get(name) ?? []).filter((c) => c.opType === op);
    return cs.length === 1 ? cs[0] : undefined;
  };
  const out: { at: number; name: string }[] = [];
  nodes.forEach((n, at) => {
    if (n.opType === 'LayerNormalization' || n.opType === 'SkipLayerNormalization') {
      out.push({ at, name: n.output![0]! });
      return;
    }
    if (n.opType !== 'Div') return;
    const sub = producer.get(n.input?.[0] ?? '');
    if (sub?.opType !== 'Sub') return;
    const mean = producer.get(sub.input?.[1] ?? '');
    if (mean?.opType !== 'ReduceMean' || mean.input?.[0] !== sub.input?.[0]) return;
    const mul = only(n.output?.[0], 'Mul');
    const add = only(mul?.output?.[0], 'Add');
    out.push({ at, name: (add ?? mul ?? n).output![0]! });
  });
  return out;
}

/** Softmax nodes whose output weighs the values (feeds a MatMul): one per layer in a BERT-family encoder. */
function attentionSoftmaxes(nodes: readonly Node[]): { at: number; name: string }[] {
  const matmulInputs = new Set<string>();
  for (const n of nodes) if (n.opType === 'MatMul') for (const i of n.input ?? []) matmulInputs.add(i);
  return nodes
    .map((n, at) => ({ n, at }))
    .filter(({ n }) => n.opType === 'Softmax' && matmulInputs.has(n.output?.[0] ?? ''))
    .map(({ n, at }) => ({ at, name: n.output![0]! }));
}

/**
 * Finds the hidden states and attention weights of an encoder with `layers` layers in an ONNX model. Throws a
 * ModelError naming what was found when the structure is not that of a post-norm BERT-family encoder.
 */
export function findEncoderTaps(model: onnxProto.onnx.IModelProto, layers: number, where: string): EncoderTaps {
  const graph = model.graph;
  if (!graph) throw new ModelError(`${where} holds no ONNX graph.`);
  const exported = exportedTaps(
    (graph.output ?? []).map((o) => o.name ?? ''),
    layers,
  );
  if (exported) return exported;
  const nodes = graph.node ?? [];
  const norms = layerNormOutputs(nodes);
  const softmaxes = attentionSoftmaxes(nodes);
  const hint =
    'textstress reads the hidden states of post-norm BERT-family encoders (BERT, DistilBERT, RoBERTa, ELECTRA …): ' +
    'one layer normalisation after the embeddings and two per layer, one attention softmax per layer. Export the model ' +
    'with outputs named hidden_states.0 … hidden_states.L and attentions.0 … attentions.L-1 to use it anyway ' +
    '(scripts/train/train_bert.py --export-internals does).';
  if (softmaxes.length !== layers) {
    throw new ModelError(
      `cannot find the attention weights in ${where}: config.json says ${layers} layers, the graph has ${softmaxes.length} attention softmaxes.`,
      { hint },
    );
  }
  // Post-norm layers: hidden state i (i < L) is the last normalisation before layer i's attention (the embeddings'
  // for i = 0); the last layer's output is the second after its attention (a masked-LM head may add one more).
  const before = (at: number): string | undefined => norms.filter((x) => x.at < at).at(-1)?.name;
  const hiddenStates = softmaxes.map((s) => before(s.at));
  hiddenStates.push(norms.filter((x) => x.at > softmaxes[layers - 1]!.at)[1]?.name);
  if (!hiddenStates.every(Boolean) || new Set(hiddenStates).size !== layers + 1) {
    throw new ModelError(
      `cannot find the hidden states in ${where}: a ${layers}-layer post-norm encoder has at least ${2 * layers + 1} ` +
        `layer normalisations around its attentions, the graph has ${norms.length}.`,
      { hint },
    );
  }
  return { hiddenStates: hiddenStates as string[], attentions: softmaxes.map((s) => s.name), exported: false };
}

export function decodeModel(bytes: Uint8Array, where: string): onnxProto.onnx.ModelProto {
  try {
    return onnx.ModelProto.decode(bytes);
  } catch (err) {
    throw new ModelError(`${where} is not an ONNX model: ${(err as Error).message}`, {
      cause: err,
      hint: 'The file is damaged or not an ONNX model (a partial download or copy, or a Git LFS pointer?).',
    });
  }
}

/**
 * The model with `names` added as float graph outputs. Protobuf merges a message field that occurs twice and
 * appends repeated fields, so appending a ModelProto that holds only the new outputs extends the original
 * bytes without re-encoding them: weights and fields this schema version does not know stay untouched. When the
 * buffer under `bytes` has room after them (readModelBytes leaves some), the outputs are written there, in place:
 * a copy of a 440 MB model is 440 MB more at load.
 */
export function withExtraOutputs(bytes: Uint8Array, model: onnxProto.onnx.IModelProto, names: readonly string[]): Uint8Array {
  const have = new Set((model.graph?.output ?? []).map((o) => o.name));
  const add = names.filter((n) => !have.has(n));
  if (add.length === 0) return bytes;
  const extra = onnx.ModelProto.encode({
    graph: { output: add.map((name) => ({ name, type: { tensorType: { elemType: FLOAT } } })) },
  }).finish();
  if (bytes.byteOffset + bytes.length + extra.length <= bytes.buffer.byteLength) {
    const out = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length + extra.length);
    out.set(extra, bytes.length);
    return out;
  }
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes, 0);
  out.set(extra, bytes.length);
  return out;
}

/** Room left after a model's bytes by readModelBytes: the extra outputs of a 48-layer encoder take under 8 KB. */
const SPARE = 64 * 1024;

/** A model file's bytes, in a buffer with room after them for withExtraOutputs to append in place. */
export function readModelBytes(file: string): Uint8Array {
  const size = statSync(file).size;
  const buffer = new Uint8Array(size + SPARE);
  const fd = openSync(file, 'r');
  try {
    for (let at = 0; at < size;) {
      const n = readSync(fd, buffer, at, size - at, at);
      if (n === 0) throw new Error(`${file} ended after ${at} of ${size} bytes`);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return buffer.subarray(0, size);
}
