/**
 * How a predict() call's rows are cut into ONNX runs (src/models/transformers/batching.ts): rows sorted by length,
 * runs cut where padding costs more than another run, within the row and token limits; and the answers stay in
 * input order and equal to answering each input alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOverheadFor, runsOf } from '../../src/models/transformers/batching.ts';
import { loadTransformersModel, type TransformersModel } from '../../src/models/transformers/index.ts';
import type { ModelInput } from '../../src/models/types.ts';
import { SEQ } from './helpers.ts';

const cost = (lengths: number[], runs: number[][], overhead: number): number =>
  runs.reduce((s, r) => s + overhead + r.length * Math.max(...r.map((i) => lengths[i]!)), 0);

describe('runsOf', () => {
  it('sorts rows by length (equal lengths keep their order) and cuts where lengths jump', () => {
    const lengths = [50, 10, 12, 50, 10, 11];
    expect(runsOf(lengths, { rows: 64, tokens: 4096, overhead: 12 })).toEqual([
      [1, 4, 5, 2],
      [0, 3],
    ]);
    // A run costs more than the padding: one run.
    expect(runsOf(lengths, { rows: 64, tokens: 4096, overhead: 500 })).toEqual([[1, 4, 5, 2, 0, 3]]);
    // A run costs next to nothing: one run per length.
    expect(runsOf([50, 10, 14, 50, 10, 12], { rows: 64, tokens: 4096, overhead: 1 })).toEqual([[1, 4], [5], [2], [0, 3]]);
  });

  it('keeps to the row and token limits; a row longer than the token limit runs alone', () => {
    const lengths = Array.from({ length: 10 }, () => 20);
    expect(runsOf(lengths, { rows: 4, tokens: 4096, overhead: 1000 }).map((r) => r.length)).toEqual([4, 4, 2]);
    expect(runsOf(lengths, { rows: 64, tokens: 60, overhead: 1000 }).map((r) => r.length)).toEqual([3, 3, 3, 1]);
    expect(runsOf([300, 5, 5], { rows: 64, tokens: 100, overhead: 1000 })).toEqual([[1, 2], [0]]);
    expect(runsOf([], { rows: 64, tokens: 100, overhead: 1 })).toEqual([]);
  });

  it('every row exactly once, and no cut within the limits costs less (exhaustive over small cases)', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let trial = 0; trial < 200; trial++) {
      const lengths = Array.from({ length: 1 + (next() % 7) }, () => 3 + (next() % 40));
      const limits = { rows: 1 + (next() % 5), tokens: 40 + (next() % 120), overhead: next() % 30 };
      const runs = runsOf(lengths, limits);
      expect(runs.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
      for (const r of runs) {
        expect(r.length).toBeLessThanOrEqual(limits.rows);
        if (r.length > 1) expect(r.length * Math.max(...r.map((i) => lengths[i]!))).toBeLessThanOrEqual(limits.tokens);
      }
      // The best cut of the sorted rows into consecutive runs, by brute force over every set of cut points.
      const sorted = lengths.map((_, i) => i).sort((x, y) => lengths[x]! - lengths[y]!);
      let best = Infinity;
      for (let mask = 0; mask < 2 ** (sorted.length - 1); mask++) {
        const cut: number[][] = [[sorted[0]!]];
        for (let k = 1; k < sorted.length; k++) {
          if (mask & (1 << (k - 1))) cut.push([sorted[k]!]);
          else cut.at(-1)!.push(sorted[k]!);
        }
        const ok = cut.every((r) => r.length <= limits.rows && (r.length === 1 || r.length * lengths[r.at(-1)!]! <= limits.tokens));
        if (ok) best = Math.min(best, cost(lengths, cut, limits.overhead));
      }
      expect(cost(lengths, runs, limits.overhead)).toBe(best);
    }
  });
});

describe('runOverheadFor', () => {
  it('a large model on a CPU: a small overhead (padding costs real work); a small model: a larger one', () => {
    const base = { hidden_size: 768, intermediate_size: 3072 };
    expect(runOverheadFor(base)).toBe(12);
    expect(runOverheadFor({ hidden_size: 128, intermediate_size: 512 })).toBe(21);
    // DistilBERT's names; a model without any: a middle value.
    expect(runOverheadFor({ dim: 768, hidden_dim: 3072 })).toBe(12);
    expect(runOverheadFor({})).toBe(64);
    expect(runOverheadFor(base, 'cpu')).toBe(12);
    expect(runOverheadFor(base, 'cuda')).toBe(4096);
  });
});

describe('predict() over runs', () => {
  let model: TransformersModel;
  beforeAll(async () => {
    model = await loadTransformersModel(SEQ, { maxBatchSize: 3, maxBatchTokens: 40 });
  });
  afterAll(async () => model.close());

  it('answers in input order, the same as each input alone, whatever the lengths', async () => {
    const words = ['good', 'bad', 'movie', 'the', 'was', 'very', 'not', 'a', 'film', 'great'];
    const inputs: ModelInput[] = Array.from({ length: 11 }, (_, i) => ({
      kind: 'text',
      text: Array.from({ length: 1 + ((i * 7) % 13) }, (_, j) => words[(i + j * 3) % words.length]).join(' '),
    }));
    const together = await model.predict(inputs);
    const alone = [];
    for (const input of inputs) alone.push(...(await model.predict([input])));
    expect(together).toEqual(alone);
    expect(new Set(together.map((o) => JSON.stringify(o))).size).toBeGreaterThan(5);
  });
});
