import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeModel, findEncoderTaps, readModelBytes, withExtraOutputs } from '../../src/models/encoder/graph.ts';
import { loadEncoder, type Encoder } from '../../src/models/encoder/encoder.ts';
import { ModelError } from '../../src/util/errors.ts';

const DIR = path.resolve('test/fixtures/models/tiny-bert-internals');
const ref = JSON.parse(readFileSync(path.join(DIR, 'reference.json'), 'utf8')) as {
  input_ids: number[][];
  attention_mask: number[][];
  logits: number[][];
  hidden_states: number[][][][];
  attentions: number[][][][][];
};

/** Largest |a − b| over the real (unpadded) positions of row r. */
function maxDiffHidden(flat: Float32Array, width: number, hidden: number, want: number[][][], rows: number[]): number {
  let worst = 0;
  for (const r of rows) {
    const len = ref.attention_mask[r]!.reduce((a, b) => a + b, 0);
    for (let t = 0; t < len; t++)
      for (let h = 0; h < hidden; h++) {
        worst = Math.max(worst, Math.abs(flat[(r * width + t) * hidden + h]! - want[r]![t]![h]!));
      }
  }
  return worst;
}

describe('encoder internals exposed from an ONNX graph', () => {
  let enc: Encoder;
  beforeAll(async () => {
    enc = await loadEncoder(DIR);
  });
  afterAll(async () => enc?.close());

  it('finds 3 hidden states and 2 attention softmaxes in a graph that exports only logits', () => {
    expect(enc.info).toMatchObject({ layers: 2, heads: 2, hiddenSize: 32, exported: false });
  });

  it('gives the hidden states and attention weights torch computed, padding included', async () => {
    const rows = ref.input_ids.map((ids, r) =>
      ids.slice(
        0,
        ref.attention_mask[r]!.reduce((a, b) => a + b, 0),
      ),
    );
    const out = await enc.run(rows, { hidden: true, attentions: true });
    expect(out.width).toBe(6);
    expect(out.hidden).toHaveLength(3);
    for (let l = 0; l < 3; l++) expect(maxDiffHidden(out.hidden![l]!, 6, 32, ref.hidden_states[l]!, [0, 1])).toBeLessThan(1e-4);
    expect(out.attentions).toHaveLength(2);
    for (let l = 0; l < 2; l++) {
      let worst = 0;
      for (let r = 0; r < 2; r++)
        for (let h = 0; h < 2; h++)
          for (let q = 0; q < 6; q++)
            for (let k = 0; k < 6; k++) {
              worst = Math.max(worst, Math.abs(out.attentions![l]![((r * 2 + h) * 6 + q) * 6 + k]! - ref.attentions[l]![r]![h]![q]![k]!));
            }
      expect(worst).toBeLessThan(1e-5);
    }
    // the same layer of a different row is a different tensor: the comparison can fail
    expect(maxDiffHidden(out.hidden![2]!, 6, 32, ref.hidden_states[1]!, [0])).toBeGreaterThan(0.05);
  });

  it('finds the same tensors when layer norms are fused (opset 17 LayerNormalization)', async () => {
    const bytes = readFileSync(path.join(DIR, 'extra', 'model-opset17.onnx'));
    const proto = decodeModel(bytes, 'opset17');
    expect(proto.graph!.node!.some((n) => n.opType === 'LayerNormalization')).toBe(true);
    const taps = findEncoderTaps(proto, 2, 'opset17');
    const session = await ort.InferenceSession.create(withExtraOutputs(bytes, proto, [...taps.hiddenStates, ...taps.attentions]));
    const ids = ref.input_ids[0]!;
    const t = (xs: number[]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
    const out = await session.run({ input_ids: t(ids), attention_mask: t(ids.map(() => 1)), token_type_ids: t(ids.map(() => 0)) });
    for (let l = 0; l < 3; l++) {
      expect(maxDiffHidden(out[taps.hiddenStates[l]!]!.data as Float32Array, 6, 32, ref.hidden_states[l]!, [0])).toBeLessThan(1e-4);
    }
    await session.release();
  });

  it('appends the outputs in place when the buffer has room (readModelBytes), the same bytes as a fresh copy', () => {
    const file = path.join(DIR, 'extra', 'model-opset17.onnx');
    const plain = readFileSync(file);
    const roomy = readModelBytes(file);
    expect(Buffer.from(roomy).equals(plain)).toBe(true);
    const proto = decodeModel(roomy, 'opset17');
    const taps = findEncoderTaps(proto, 2, 'opset17');
    const names = [...taps.hiddenStates, ...taps.attentions];
    const inPlace = withExtraOutputs(roomy, proto, names);
    const copied = withExtraOutputs(plain, decodeModel(plain, 'opset17'), names);
    expect(inPlace.buffer).toBe(roomy.buffer);
    expect(copied.buffer).not.toBe(plain.buffer);
    expect(inPlace.length).toBeGreaterThan(plain.length);
    expect(Buffer.from(inPlace).equals(Buffer.from(copied))).toBe(true);
  });

  it('names what is missing when the layer count does not match the graph', () => {
    const bytes = readFileSync(path.join(DIR, 'onnx', 'model.onnx'));
    expect(() => findEncoderTaps(decodeModel(bytes, 'm'), 3, 'm')).toThrow(
      /config.json says 3 layers, the graph has 2 attention softmaxes/,
    );
    expect(() => decodeModel(new Uint8Array([1, 2, 3, 4]), 'junk.onnx')).toThrow(ModelError);
  });

  it('maps every word to its pieces, punctuation in between', () => {
    const s = enc.encodeWords(['the', 'fox', 'jumps'], ['', ' ', ' ', '.']);
    expect(enc.tokens(s.ids)).toEqual(['[CLS]', 'the', 'fox', 'jumps', '.', '[SEP]']);
    expect(s.wordSpans).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });
});
