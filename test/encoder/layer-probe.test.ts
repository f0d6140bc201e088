import { describe, expect, it } from 'vitest';
import { PAPER_LAYER_PROBE, topK, trainLayerProbe, type LayerProbeExample } from '../../src/families/encoder/classifier.ts';
import { Rng } from '../../src/util/rng.ts';

const H = 8;

/**
 * A planted signal: noise everywhere, except that in class-1 sentences one token (at a known position) carries +3 in
 * dimension 0. A probe that learns the task must put its attention on that token.
 */
function planted(n: number, seed: number): { examples: LayerProbeExample[]; where: number[] } {
  const rng = new Rng(seed);
  const examples: LayerProbeExample[] = [];
  const where: number[] = [];
  for (let i = 0; i < n; i++) {
    const len = 6 + rng.int(6);
    const feats = Float32Array.from({ length: len * H }, () => rng.next() * 2 - 1);
    const label = (i % 2) as 0 | 1;
    const pos = rng.int(len);
    if (label === 1) feats[pos * H] = 3;
    examples.push({ feats, len, label });
    where.push(pos);
  }
  return { examples, where };
}

describe('layer probe (self-attention pooling + linear, tfjs)', () => {
  it('learns a planted signal and its top-2 attention finds the planted position', async () => {
    const train = planted(400, 1).examples;
    const dev = planted(100, 2).examples;
    const test = planted(100, 3);
    const probe = await trainLayerProbe(train, dev, H, { ...PAPER_LAYER_PROBE, seed: 7 });
    const pred = probe.predict(test.examples);
    const acc = test.examples.filter((e, i) => (pred.prob[i]! > 0.5 ? 1 : 0) === e.label).length / test.examples.length;
    expect(acc).toBeGreaterThan(0.95);
    const positives = test.examples.map((e, i) => i).filter((i) => test.examples[i]!.label === 1);
    const found = positives.filter((i) => topK(pred.attention[i]!, 2).includes(test.where[i]!)).length;
    expect(found / positives.length).toBeGreaterThan(0.9);
    expect(pred.attention[0]!.length).toBe(test.examples[0]!.len);
    expect(probe.bestEpoch).toBeGreaterThan(0);
    probe.dispose();
  }, 60_000);

  it('stays at chance on labels that carry no signal', async () => {
    const noise = (n: number, seed: number): LayerProbeExample[] =>
      planted(n, seed).examples.map((e, i) => ({
        ...e,
        feats: Float32Array.from(e.feats, (v, k) => (k % H === 0 ? 0 : v)),
        label: (i % 2) as 0 | 1,
      }));
    const probe = await trainLayerProbe(noise(200, 4), noise(100, 5), H, { ...PAPER_LAYER_PROBE, seed: 7 });
    const test = noise(200, 6);
    const pred = probe.predict(test);
    const acc = test.filter((e, i) => (pred.prob[i]! > 0.5 ? 1 : 0) === e.label).length / test.length;
    expect(acc).toBeLessThan(0.65);
    probe.dispose();
  }, 60_000);

  it('is deterministic for a seed', async () => {
    const train = planted(60, 1).examples;
    const a = await trainLayerProbe(train, [], H, { ...PAPER_LAYER_PROBE, maxEpochs: 2, seed: 3 });
    const b = await trainLayerProbe(train, [], H, { ...PAPER_LAYER_PROBE, maxEpochs: 2, seed: 3 });
    expect(a.predict(train).prob).toEqual(b.predict(train).prob);
    a.dispose();
    b.dispose();
  }, 60_000);

  it('topK breaks ties by position', () => {
    expect(topK([0.1, 0.5, 0.5, 0.2], 2)).toEqual([1, 2]);
  });
});
