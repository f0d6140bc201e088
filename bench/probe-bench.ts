/**
 * Encoder probes (issue 13). (1) Reading every layer's hidden states and every head's attentions for 1,000 sentences
 * against one plain forward pass (logits only, the unmodified graph) over the very same batches. Goal: within 1.5×.
 * Also: the same with hidden states only, and extractFeatures (run + copy into per-sentence arrays, what probes use).
 * (2) Probe training time per layer: one self-attention probe (paper settings) on one error type's 800 training
 * pairs (1,600 sentences), on the WebAssembly and on the pure-JS CPU backend of TensorFlow.js.
 *
 *   npx tsx bench/probe-bench.ts [--model models/demo-sst2] [--sentences 1000] [--batch 32] [--reps 3]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { loadEncoder } from '../src/models/encoder/index.ts';
import {
  buildMinimalPairs,
  defaultSentenceSources,
  extractFeatures,
  PAPER_LAYER_PROBE,
  readSentences,
  trainLayerProbe,
  type LayerProbeExample,
} from '../src/families/encoder/domain.ts';
import { WordSeq } from '../src/text/word-seq.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/demo-sst2' },
    sentences: { type: 'string', default: '1000' },
    batch: { type: 'string', default: '32' },
    reps: { type: 'string', default: '3' },
    layer: { type: 'string', default: '1' },
    backends: { type: 'string', default: 'wasm,cpu' },
  },
});
const N = Number(values.sentences);
const B = Number(values.batch);
const REPS = Number(values.reps);

const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

async function main(): Promise<void> {
  const sources = defaultSentenceSources(process.cwd(), 'train');
  const { sentences } = await readSentences(sources);
  const picked = sentences.slice(0, N).map((s) => {
    const w = WordSeq.parse(s);
    return { words: [...w.words], gaps: [...w.gaps] };
  });
  const enc = await loadEncoder(values.model!, { maxLength: 64 });
  const rows = picked.map((w) => enc.encodeWords(w.words, w.gaps).ids);
  const batches: number[][][] = [];
  for (let s = 0; s < rows.length; s += B) batches.push(rows.slice(s, s + B));
  const plain = await ort.InferenceSession.create(readFileSync(path.join(values.model!, 'onnx', 'model.onnx')));
  const feed = (batch: number[][]): Record<string, ort.Tensor> => {
    const w = Math.max(...batch.map((r) => r.length));
    const ids = new BigInt64Array(batch.length * w);
    const mask = new BigInt64Array(batch.length * w);
    batch.forEach((r, i) => r.forEach((id, t) => ((ids[i * w + t] = BigInt(id)), (mask[i * w + t] = 1n))));
    const all: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, [batch.length, w]),
      attention_mask: new ort.Tensor('int64', mask, [batch.length, w]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(batch.length * w), [batch.length, w]),
    };
    return Object.fromEntries(plain.inputNames.map((n) => [n, all[n]!]));
  };
  const plainRun = () =>
    timed(async () => {
      for (const b of batches) await plain.run(feed(b), ['logits']);
    });
  const allRun = () =>
    timed(async () => {
      for (const b of batches) await enc.run(b, { hidden: true, attentions: true });
    });
  const hiddenRun = () =>
    timed(async () => {
      for (const b of batches) await enc.run(b, { hidden: true });
    });
  const featureRun = () => timed(() => extractFeatures(enc, picked, { batchSize: B }));
  await plainRun();
  await allRun(); // warm-up
  const t = { plain: [] as number[], all: [] as number[], hidden: [] as number[], features: [] as number[] };
  for (let r = 0; r < REPS; r++) {
    // interleaved, so drift on a shared machine hits both sides alike
    t.plain.push(await plainRun());
    t.all.push(await allRun());
    t.hidden.push(await hiddenRun());
    t.features.push(await featureRun());
  }
  const m = { plain: mid(t.plain), all: mid(t.all), hidden: mid(t.hidden), features: mid(t.features) };
  const e = enc.info;
  console.log(
    `model ${values.model}: ${e.layers} layers × ${e.heads} heads, hidden ${e.hiddenSize}; inner tensors ` +
      `${e.exported ? 'exported by the model' : 'exposed from the graph'}`,
  );
  console.log(
    `${rows.length} sentences (${sources.join(' + ')}), mean ` +
      `${(rows.reduce((a, r) => a + r.length, 0) / rows.length).toFixed(1)} tokens, batches of ${B}, median of ` +
      `${REPS}`,
  );
  console.log(`plain forward (logits only, unmodified graph): ${m.plain.toFixed(3)} s`);
  console.log(`all hidden states + all attentions:            ${m.all.toFixed(3)} s  (${(m.all / m.plain).toFixed(2)}×)`);
  console.log(`all hidden states only:                        ${m.hidden.toFixed(3)} s  (${(m.hidden / m.plain).toFixed(2)}×)`);
  console.log(`extractFeatures (hidden, copied per sentence): ${m.features.toFixed(3)} s  (${(m.features / m.plain).toFixed(2)}×)`);
  await plain.release();

  // (2) probe training on one error type's pairs, one layer
  const set = buildMinimalPairs(sentences, { types: ['SVA'], perType: 1000, seed: 0 });
  const sents = set.pairs.flatMap((p) => [p.clean, p.error]);
  const feats = await extractFeatures(enc, sents, { batchSize: B });
  const layer = Number(values.layer);
  const ex = (split: string): LayerProbeExample[] =>
    set.pairs.flatMap((p, k) =>
      p.split === split
        ? [0, 1].map((c) => ({ feats: feats[2 * k + c]!.perLayer[layer]!, len: feats[2 * k + c]!.len, label: c as 0 | 1 }))
        : [],
    );
  const train = ex('train');
  const dev = ex('dev');
  for (const backend of values.backends!.split(',')) {
    process.env.TEXTSTRESS_TF_BACKEND = backend;
    const { setBackend } = await import('@tensorflow/tfjs');
    await setBackend(backend);
    const probe = await trainLayerProbe(train, dev, e.hiddenSize, { ...PAPER_LAYER_PROBE, seed: 0, maxEpochs: 3, patience: 99 });
    console.log(
      `probe on layer ${layer}, backend ${backend}: ${train.length} training sentences, ${probe.epochs} epochs in ${probe.trainSeconds.toFixed(1)} s ` +
        `(${(probe.trainSeconds / probe.epochs).toFixed(2)} s/epoch; a 10-epoch probe ≈ ${((10 * probe.trainSeconds) / probe.epochs).toFixed(0)} s)`,
    );
    probe.dispose();
  }
  await enc.close();
}

await main();
