import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { decodeModel, findEncoderTaps, withExtraOutputs } from '../../src/models/encoder/graph.ts';
import { ModelError } from '../../src/util/errors.ts';

// Graphs made by scripts/fixtures/make_tiny_variants.py with torch's own hidden states and attentions beside them:
// where Hugging Face's definition of hidden_states differs from BERT's, the graph search must follow it.
const DIR = path.resolve('test/fixtures/models/tiny-encoder-variants');

interface Reference {
  input_ids: number[][];
  attention_mask: number[][];
  hidden_states: number[][][][];
  attentions: number[][][][][];
}

const tensor = (rows: number[][]): ort.Tensor =>
  new ort.Tensor('int64', BigInt64Array.from(rows.flat().map(BigInt)), [rows.length, rows[0]!.length]);

/** Runs the graph with the found tensors as outputs; the largest difference from torch's, per tensor. */
async function compare(name: string): Promise<{ norm: string; hidden: number[]; attentions: number[] }> {
  const bytes = readFileSync(path.join(DIR, `${name}.onnx`));
  const ref = JSON.parse(readFileSync(path.join(DIR, `reference-${name}.json`), 'utf8')) as Reference;
  const proto = decodeModel(bytes, name);
  const taps = findEncoderTaps(proto, 2, name);
  const session = await ort.InferenceSession.create(withExtraOutputs(bytes, proto, [...taps.hiddenStates, ...taps.attentions]));
  try {
    const out = await session.run({ input_ids: tensor(ref.input_ids), attention_mask: tensor(ref.attention_mask) });
    const diff = (got: Float32Array, want: number[]): number => Math.max(...want.map((w, i) => Math.abs(got[i]! - w)));
    const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x as number]);
    return {
      norm: taps.norm,
      hidden: taps.hiddenStates.map((t, l) => diff(out[t]!.data as Float32Array, flat(ref.hidden_states[l]))),
      attentions: taps.attentions.map((t, l) => diff(out[t]!.data as Float32Array, flat(ref.attentions[l]))),
    };
  } finally {
    await session.release();
  }
}

describe('hidden states and attentions as Hugging Face defines them, on graphs unlike BERT', () => {
  it('ELECTRA with a smaller embedding: hidden state 0 is the projected embedding (embeddings_project)', async () => {
    const r = await compare('electra-proj');
    expect(r.norm).toBe('post');
    expect(r.hidden).toHaveLength(3);
    for (const d of [...r.hidden, ...r.attentions]) expect(d).toBeLessThan(1e-4);
  });

  it('pre-norm (ModernBERT): the residual stream entering each layer, the last one before final_norm', async () => {
    const r = await compare('prenorm');
    expect(r.norm).toBe('pre');
    for (const d of [...r.hidden, ...r.attentions]) expect(d).toBeLessThan(1e-4);
  });

  it('a fused attention kernel: names the op and node and how to export without it', () => {
    const bytes = readFileSync(path.join(DIR, 'fused.onnx'));
    const run = (): unknown => findEncoderTaps(decodeModel(bytes, 'fused.onnx'), 1, 'fused.onnx');
    expect(run).toThrow(ModelError);
    expect(run).toThrow(/fused into one com\.microsoft\.Attention node \('layer\.0\/attention\/Attention'\)/);
    try {
      run();
    } catch (err) {
      expect((err as ModelError).hint).toMatch(/attn_implementation="eager"/);
    }
  });
});
