/**
 * The helper models of the classic recipes (src/models/lm): the sentence encoder's mean-pooled vectors equal torch's
 * hidden states of tiny-bert-emb averaged over the real tokens, and the masked LM's probabilities at the mask equal
 * those of the other path that reads demo-mlm (models/encoder, the `probe cloze` code); a model that gives neither
 * is refused with its outputs named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEncoder, type Encoder } from '../../src/models/encoder/index.ts';
import { MaskedLm } from '../../src/models/lm/masked-lm.ts';
import { SentenceEncoder } from '../../src/models/lm/sentence-encoder.ts';
import { maskedWords } from '../../src/perturb/classic/masked-lm.ts';
import { ModelError } from '../../src/util/errors.ts';
import { ROOT } from '../cli/helpers.ts';

const EMB = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-emb');
const MLM = join(ROOT, 'models', 'demo-mlm');

describe('sentence encoder', () => {
  it('mean-pools the last hidden state over the real tokens, as torch computes it (tiny-bert-emb reference)', async () => {
    const ref = JSON.parse(readFileSync(join(EMB, 'reference.json'), 'utf8')) as {
      input_ids: number[][];
      attention_mask: number[][];
      logits: number[][][];
    };
    const vocab = readFileSync(join(EMB, 'vocab.txt'), 'utf8').split('\n');
    // The reference rows are [CLS] words [SEP] (+ padding): the same ids come from the words as text.
    const texts = ref.input_ids.map((row) =>
      row
        .filter((id) => id > 3)
        .map((id) => vocab[id])
        .join(' '),
    );
    expect(texts).toEqual(['but is do must', 'of was']);
    const enc = await SentenceEncoder.open(EMB);
    try {
      const got = await enc.embed(texts);
      ref.logits.forEach((rows, b) => {
        const real = rows.filter((_, t) => ref.attention_mask[b]![t] === 1);
        const mean = real[0]!.map((_, h) => real.reduce((s, r) => s + r[h]!, 0) / real.length);
        expect(got[b]!.length).toBe(32);
        mean.forEach((x, h) => expect(got[b]![h]).toBeCloseTo(x, 4));
      });
      expect(enc.encoded).toBe(2);
    } finally {
      await enc.close();
    }
  });

  it('reads the last hidden_states.N of a textstress export (demo-mlm), and refuses a model without hidden states', async () => {
    const mlm = await SentenceEncoder.open(MLM);
    expect((await mlm.embed(['a fine film']))[0]!.length).toBe(128);
    await mlm.close();
    // Refused when opened, before any work.
    const err = await SentenceEncoder.open(join(ROOT, 'models', 'demo-sst2')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as Error).message).toMatch(/gives no hidden states \(its outputs: logits\)/);
  });
});

describe('masked language model', () => {
  let lm: MaskedLm;
  let encoder: Encoder;
  beforeAll(async () => {
    lm = await MaskedLm.open(MLM);
    encoder = await loadEncoder(MLM);
  });
  afterAll(async () => {
    await lm.close();
    await encoder.close();
  });

  it('gives the probabilities at the mask that the encoder path gives (same model, other code)', async () => {
    const [pred] = await lm.predict([`the movie was ${lm.maskToken} and long .`]);
    // The encoder path: the words with a placeholder, whose piece becomes the mask id.
    const words = ['the', 'movie', 'was', 'x', 'and', 'long'];
    const enc = encoder.encodeWords(words, ['', ' ', ' ', ' ', ' ', ' ', ' .']);
    const [s, e] = enc.wordSpans[3]!;
    const ids = [...enc.ids.slice(0, s), encoder.maskId, ...enc.ids.slice(e)];
    expect(pred!.position).toBe(s);
    const out = await encoder.run([ids], { logits: true });
    const vocab = encoder.info.vocabSize;
    const logits = out.logits!.subarray(s * vocab, (s + 1) * vocab);
    const max = Math.max(...logits);
    const z = logits.reduce((a, x) => a + Math.exp(x - max), 0);
    for (const id of [0, 5, 100, 1234, 7999]) expect(pred!.probs[id]).toBeCloseTo(Math.exp(logits[id]! - max) / z, 5);
    expect(lm.predicted).toBe(1);
    // The words BAE takes from it: whole words (sub-words stripped), best first, 50 of them.
    const top = maskedWords(pred!, (id) => lm.token(id), lm.scheme, { maxCandidates: 50, minConfidence: 0, subwords: 'strip' });
    expect(top).toHaveLength(50);
    const byProb = Array.from(pred!.probs.keys()).sort((a, b) => pred!.probs[b]! - pred!.probs[a]!);
    expect(lm.token(byProb[0]!).replace(/^##/, '')).toBe(top[0]);
  });

  it('marks a text whose mask the tokenizer cut off (position −1, no words), and knows its piece scheme', async () => {
    const long = `${Array.from({ length: 80 }, () => 'word').join(' ')} ${lm.maskToken}`;
    const [pred] = await lm.predict([long]);
    expect(pred!.position).toBe(-1);
    expect(maskedWords(pred!, (id) => lm.token(id), lm.scheme, { maxCandidates: 5, minConfidence: 0, subwords: 'strip' })).toEqual([]);
    expect(lm.scheme).toEqual({ kind: 'continuation', prefix: '##' });
    expect(lm.maskToken).toBe('[MASK]');
  });

  it('refuses when opened, naming its outputs, a model that gives no logits (a feature-extraction model given as --mlm)', async () => {
    const err = await MaskedLm.open(EMB).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as Error).message).toMatch(/gives no logits .*its graph's outputs: last_hidden_state/);
  });
});
