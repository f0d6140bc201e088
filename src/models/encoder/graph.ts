/**
 * Where an encoder's ONNX graph keeps its layers' hidden states and attention weights, found from what the graph
 * computes (not node names, which differ between exporters), and a copy of the graph that returns them as extra
 * outputs. Read and written with onnx-proto (ONNX's own protobuf schema for JavaScript).
 *
 * The definitions are Hugging Face's (`output_hidden_states`, `output_attentions`): hidden state 0 is what enters
 * the first layer (after ALBERT's `embedding_hidden_mapping_in`, ELECTRA's `embeddings_project`, DeBERTa's padding
 * mask), hidden state i + 1 what leaves layer i (after its last normalisation in a post-norm encoder; the residual
 * stream before ModernBERT's `final_norm` in a pre-norm one), attention i the softmax that weighs layer i's values.
 * Each layer is recognised by its attention residual: the Add that joins the layer's input to what its attention
 * made of it.
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
  /** Where layer normalisation sits in a layer (found, or 'exported' when the graph named its outputs itself). */
  norm: 'post' | 'pre' | 'exported';
}

const FLOAT = 1;

/** Ops that fuse a whole attention (onnxruntime's contrib ops, ONNX 23's Attention): no softmax to read. */
const FUSED_ATTENTION = new Set([
  'Attention',
  'MultiHeadAttention',
  'GroupQueryAttention',
  'PackedAttention',
  'PackedMultiHeadAttention',
  'DecoderMaskedMultiHeadAttention',
  'SparseAttention',
]);

/** Ops a softmax's output may pass through, unchanged in value, on its way to the MatMul with the values. */
const PASS_THROUGH = new Set(['Cast', 'Reshape', 'Dropout', 'Identity', 'Squeeze', 'Unsqueeze', 'Transpose', 'Where', 'Expand']);

/** Graph outputs named as the training script (and Hugging Face's output_hidden_states) name them. */
function exportedTaps(outputs: readonly string[], layers: number): EncoderTaps | undefined {
  const find = (stem: string, i: number): string | undefined =>
    outputs.find((o) => o === `${stem}.${i}` || o === `${stem}_${i}` || o === `${stem}${i}`);
  const hiddenStates = Array.from({ length: layers + 1 }, (_, i) => find('hidden_states', i));
  const attentions = Array.from({ length: layers }, (_, i) => find('attentions', i));
  if (hiddenStates.every(Boolean) && attentions.every(Boolean)) {
    return { hiddenStates: hiddenStates as string[], attentions: attentions as string[], exported: true, norm: 'exported' };
  }
  return undefined;
}

/** The graph's nodes with who makes and who reads each tensor, and which tensors are constants. */
class GraphIndex {
  readonly producer = new Map<string, number>();
  readonly consumers = new Map<string, number[]>();
  readonly constants = new Set<string>();
  /** input tensor → output tensor of each layer normalisation (fused, or as torch exports it before opset 17). */
  readonly norms = new Map<string, string>();

  constructor(
    readonly nodes: readonly Node[],
    initializers: readonly string[],
  ) {
    for (const name of initializers) this.constants.add(name);
    nodes.forEach((n, at) => {
      for (const o of n.output ?? []) this.producer.set(o, at);
      for (const i of n.input ?? []) if (i) this.consumers.set(i, [...(this.consumers.get(i) ?? []), at]);
      if (n.opType === 'Constant') for (const o of n.output ?? []) this.constants.add(o);
    });
    this.findNorms();
  }

  node(at: number): Node {
    return this.nodes[at]!;
  }

  /** Readers of a tensor that use its values (a Shape node reads only its dimensions). */
  readers(name: string): number[] {
    return (this.consumers.get(name) ?? []).filter((at) => this.node(at).opType !== 'Shape');
  }

  private findNorms(): void {
    const only = (name: string | undefined, op: string): Node | undefined => {
      const cs = name === undefined ? [] : (this.consumers.get(name) ?? []).map((at) => this.node(at)).filter((c) => c.opType === op);
      return cs.length === 1 ? cs[0] : undefined;
    };
    for (const n of this.nodes) {
      if (n.opType === 'LayerNormalization' || n.opType === 'SkipLayerNormalization' || n.opType === 'SimplifiedLayerNormalization') {
        this.norms.set(n.input![0]!, n.output![0]!);
        continue;
      }
      // x − ReduceMean(x), divided by a square root, times γ, plus β
      if (n.opType !== 'Div') continue;
      const subAt = this.producer.get(n.input?.[0] ?? '');
      const sub = subAt === undefined ? undefined : this.node(subAt);
      if (sub?.opType !== 'Sub') continue;
      const meanAt = this.producer.get(sub.input?.[1] ?? '');
      const mean = meanAt === undefined ? undefined : this.node(meanAt);
      if (mean?.opType !== 'ReduceMean' || mean.input?.[0] !== sub.input?.[0]) continue;
      const mul = only(n.output?.[0], 'Mul');
      const add = only(mul?.output?.[0], 'Add');
      this.norms.set(sub.input![0]!, (add ?? mul ?? n).output![0]!);
    }
  }

  /** Every tensor a tensor is computed from (itself included), stopping at constants. */
  ancestors(name: string): Set<string> {
    const seen = new Set<string>();
    const stack = [name];
    while (stack.length) {
      const t = stack.pop()!;
      if (seen.has(t) || this.constants.has(t)) continue;
      seen.add(t);
      const at = this.producer.get(t);
      if (at !== undefined) for (const i of this.node(at).input ?? []) if (i) stack.push(i);
    }
    return seen;
  }

  /** Every tensor computed from a tensor (itself included). */
  descendants(name: string): Set<string> {
    const seen = new Set<string>();
    const stack = [name];
    while (stack.length) {
      const t = stack.pop()!;
      if (seen.has(t)) continue;
      seen.add(t);
      for (const at of this.consumers.get(t) ?? []) for (const o of this.node(at).output ?? []) stack.push(o);
    }
    return seen;
  }

  /** The output of the normalisation that reads `name` as its only reader, if there is one (a post-norm layer). */
  normAfter(name: string): string | undefined {
    const out = this.norms.get(name);
    if (out === undefined) return undefined;
    // A decomposed normalisation reads its input twice (ReduceMean and Sub); any reader outside it means the
    // tensor also flows on unnormalised (a pre-norm residual stream).
    const inside = new Set(['ReduceMean', 'Sub', 'LayerNormalization', 'SkipLayerNormalization', 'SimplifiedLayerNormalization']);
    return this.readers(name).every((at) => inside.has(this.node(at).opType ?? '')) ? out : undefined;
  }
}

/** Softmax nodes whose output (passed through reshapes and casts) weighs the values in a MatMul. */
function attentionSoftmaxes(g: GraphIndex): { at: number; name: string }[] {
  const out: { at: number; name: string }[] = [];
  g.nodes.forEach((n, at) => {
    if (n.opType !== 'Softmax') return;
    const start = n.output![0]!;
    const stack = [{ t: start, hops: 0 }];
    const seen = new Set<string>();
    while (stack.length) {
      const { t, hops } = stack.pop()!;
      if (seen.has(t) || hops > 6) continue;
      seen.add(t);
      const readers = g.readers(t).map((i) => g.node(i));
      if (readers.some((r) => r.opType === 'MatMul' || r.opType === 'Einsum')) {
        out.push({ at, name: start });
        return;
      }
      for (const r of readers) if (PASS_THROUGH.has(r.opType ?? '')) for (const o of r.output ?? []) stack.push({ t: o, hops: hops + 1 });
    }
  });
  return out;
}

/** A layer as its attention residual shows it: its input, and the output of the Add that joins the attention to it. */
interface LayerFound {
  input: string;
  attentionResidualAt: number;
}

/** The first Add after the softmax that adds to something the softmax depends on something the softmax produced. */
function attentionResidual(g: GraphIndex, softmax: { at: number; name: string }): LayerFound | undefined {
  const after = g.descendants(softmax.name);
  const before = g.ancestors(softmax.name);
  for (let at = softmax.at + 1; at < g.nodes.length; at++) {
    const n = g.node(at);
    if (n.opType !== 'Add' || (n.input ?? []).length !== 2) continue;
    const [a, b] = n.input as string[];
    for (const [mine, other] of [
      [a!, b!],
      [b!, a!],
    ] as const) {
      if (after.has(mine) && !after.has(other) && before.has(other) && !g.constants.has(other))
        return { input: other, attentionResidualAt: at };
    }
  }
  return undefined;
}

/** The first Add after `from` that adds `stream` to something computed from it: the feed-forward residual. */
function feedForwardResidual(g: GraphIndex, stream: string, from: number): number | undefined {
  const after = g.descendants(stream);
  for (let at = from + 1; at < g.nodes.length; at++) {
    const n = g.node(at);
    if (n.opType !== 'Add' || (n.input ?? []).length !== 2) continue;
    const [a, b] = n.input as string[];
    if ((a === stream && b !== stream && after.has(b!)) || (b === stream && a !== stream && after.has(a!))) return at;
  }
  return undefined;
}

function fusedAttentionError(nodes: readonly Node[], where: string): ModelError | undefined {
  const fused = nodes.find((n) => FUSED_ATTENTION.has(n.opType ?? ''));
  if (!fused) return undefined;
  const op = `${fused.domain ? `${fused.domain}.` : ''}${fused.opType}`;
  return new ModelError(
    `cannot read the attention weights of ${where}: its attention is fused into one ${op} node ('${fused.name ?? '?'}'), ` +
      'which computes the softmax inside the kernel and never exposes it (nor the layer boundaries around it).',
    {
      hint:
        'Export the model without attention fusion: from Hugging Face with attn_implementation="eager" and no onnxruntime ' +
        'transformer optimisation (optimum-cli export onnx --no-post-process, or torch.onnx.export of the eager model); ' +
        'or export hidden_states.0 … hidden_states.L and attentions.0 … attentions.L-1 as graph outputs.',
    },
  );
}

/**
 * Finds the hidden states and attention weights of an encoder with `layers` layers in an ONNX model. Throws a
 * ModelError naming what was found when the graph does not show them (fused attention kernels, another shape).
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
  const hint =
    'textstress reads hidden states and attentions from the graph of a transformer encoder (BERT, RoBERTa, XLM-R, ' +
    'ALBERT, ELECTRA, DistilBERT, MPNet, DeBERTa-v2/v3, ModernBERT …): one attention softmax per layer and residual ' +
    'connections around attention and feed-forward. Export the model with outputs named hidden_states.0 … ' +
    'hidden_states.L and attentions.0 … attentions.L-1 to use any other graph (scripts/train/train_bert.py ' +
    '--export-internals does).';
  const g = new GraphIndex(
    nodes,
    (graph.initializer ?? []).map((t) => t.name ?? ''),
  );
  const softmaxes = attentionSoftmaxes(g);
  if (softmaxes.length === 0) {
    const fused = fusedAttentionError(nodes, where);
    if (fused) throw fused;
  }
  if (softmaxes.length !== layers) {
    throw new ModelError(
      `cannot find the attention weights in ${where}: config.json says ${layers} layers, the graph has ${softmaxes.length} attention softmaxes.`,
      { hint },
    );
  }
  const found = softmaxes.map((s) => attentionResidual(g, s));
  const missing = found.findIndex((f) => !f);
  if (missing >= 0) {
    throw new ModelError(
      `cannot find the hidden states in ${where}: layer ${missing}'s attention is not added back to its input (no residual).`,
      {
        hint,
      },
    );
  }
  const hiddenStates = found.map((f) => f!.input);
  // Post-norm (BERT): the residual sum goes only into a normalisation, whose output flows on. Pre-norm
  // (ModernBERT): the sum itself flows on, normalised only on the way into the feed-forward block.
  const first = g.node(found[0]!.attentionResidualAt).output![0]!;
  const norm = g.normAfter(first) !== undefined ? 'post' : 'pre';
  for (let i = 0; i < layers; i++) {
    const sum = g.node(found[i]!.attentionResidualAt).output![0]!;
    const stream = norm === 'post' ? g.normAfter(sum) : sum;
    const ffAt = stream === undefined ? undefined : feedForwardResidual(g, stream, found[i]!.attentionResidualAt);
    if (stream === undefined || ffAt === undefined) {
      throw new ModelError(
        `cannot find the hidden states in ${where}: layer ${i} has no ` +
          (stream === undefined
            ? 'normalisation after its attention residual, as layer 0 has.'
            : 'feed-forward residual after its attention.'),
        { hint },
      );
    }
    const ffSum = g.node(ffAt).output![0]!;
    const out = norm === 'post' ? g.normAfter(ffSum) : ffSum;
    if (out === undefined) {
      throw new ModelError(
        `cannot find the hidden states in ${where}: layer ${i}'s feed-forward residual is not normalised as its attention's is.`,
        {
          hint,
        },
      );
    }
    if (i + 1 < layers && out !== hiddenStates[i + 1]) {
      throw new ModelError(
        `cannot find the hidden states in ${where}: what layer ${i} outputs ('${out}') is not what layer ${i + 1} takes ('${hiddenStates[i + 1]}').`,
        { hint },
      );
    }
    if (i + 1 === layers) hiddenStates.push(out);
  }
  if (new Set(hiddenStates).size !== layers + 1) {
    throw new ModelError(`cannot find the hidden states in ${where}: two layers share a boundary tensor.`, { hint });
  }
  return { hiddenStates, attentions: softmaxes.map((s) => s.name), exported: false, norm };
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
