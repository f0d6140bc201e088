import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEncoder, type Encoder } from '../../src/models/encoder/index.ts';
import { buildMinimalPairs, clozeTest, singleDifference, type MinimalPair } from '../../src/families/encoder/domain.ts';
import { SENTENCES } from './sentences.ts';

const DIR = path.resolve('test/fixtures/models/tiny-bert-mlm');

describe('MLM cloze test', () => {
  let enc: Encoder;
  let pairs: MinimalPair[];
  beforeAll(async () => {
    enc = await loadEncoder(DIR);
    pairs = buildMinimalPairs(SENTENCES, { types: ['SVA', 'ArtOrDet', 'Prep', 'Nn'], perType: 4, seed: 2 }).pairs;
  });
  afterAll(async () => enc?.close());

  it('reads a model that exports its own hidden states and attentions, equal to torch', async () => {
    expect(enc.info).toMatchObject({ exported: true, layers: 2, architecture: 'BertForMaskedLM' });
    const ref = JSON.parse(readFileSync(path.join(DIR, 'reference.json'), 'utf8')) as {
      input_ids: number[][];
      hidden_states: number[][][][];
      logits_row0_pos2: number[];
    };
    const out = await enc.run([ref.input_ids[0]!], { hidden: true, logits: true });
    const last = out.hidden![2]!;
    let worst = 0;
    for (let t = 0; t < 6; t++)
      for (let h = 0; h < 32; h++) worst = Math.max(worst, Math.abs(last[t * 32 + h]! - ref.hidden_states[2]![0]![t]![h]!));
    expect(worst).toBeLessThan(1e-4);
    const V = enc.info.vocabSize;
    const row = out.logits!.subarray(2 * V, 3 * V);
    expect(Math.max(...ref.logits_row0_pos2.map((v, i) => Math.abs(v - row[i]!)))).toBeLessThan(1e-4);
  });

  it('gives a drop of exactly 0 for identical pairs', async () => {
    const same = pairs.map((p) => ({ ...p, error: p.clean, errorWords: [2] }));
    const r = await clozeTest(enc, same, { window: 6 });
    expect(r.used).toBe(same.length);
    const all = r.types.find((t) => t.type === 'all')!;
    expect(all.cells.filter((c) => c.n > 0).length).toBeGreaterThan(5);
    for (const c of all.cells) if (c.n > 0) expect([c.meanDrop, c.meanLogDrop]).toEqual([0, 0]);
  });

  it('measures the drop on every token within the window of a one-token error, and counts what it leaves out', async () => {
    const r = await clozeTest(enc, pairs, { window: 3 });
    expect(r.used + r.skipped).toBe(pairs.length);
    expect(r.used).toBeGreaterThan(0);
    const all = r.types.find((t) => t.type === 'all')!;
    expect(all.cells.map((c) => c.distance)).toEqual([-3, -2, -1, 1, 2, 3]);
    expect(all.cells.find((c) => c.distance === 1)!.n).toBeGreaterThan(0);
    // a random-weight model still reacts to its input: the drops are not all zero
    expect(all.cells.some((c) => c.n > 0 && c.meanDrop !== 0)).toBe(true);
  });

  it('finds the one position where two token sequences differ', () => {
    expect(singleDifference([1, 2, 3], [1, 5, 3])).toBe(1);
    expect(singleDifference([1, 2, 3], [1, 2, 3])).toBe(-1);
    expect(singleDifference([1, 2, 3], [4, 5, 3])).toBe(-1);
    expect(singleDifference([1, 2], [1, 2, 3])).toBe(-1);
  });
});
