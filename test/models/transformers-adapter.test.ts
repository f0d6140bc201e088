import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignPieces, loadTransformersModel, longestFirst, transformersInternals } from '../../src/models/transformers/index.ts';
import type { TransformersModel } from '../../src/models/transformers/index.ts';
import type { ClassOutput, SpanOutput, TagOutput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { QA, SEQ, TOK, expectClose, reference, rejection, softmax, vocab } from './helpers.ts';

const words = (dir: string, row: number[]) => {
  const v = vocab(dir);
  return row.filter((id) => id > 4).map((id) => v[id]!);
};

describe('transformers adapter: sequence classification (tiny-bert-seq)', () => {
  let seq: TransformersModel;
  const ref = reference(SEQ);
  beforeAll(async () => {
    seq = await loadTransformersModel(SEQ);
  });
  afterAll(async () => seq.close());

  it('reads task and labels from config.json', () => {
    expect(seq.info.task).toBe('text-classification');
    expect(seq.info.labels).toEqual(['NEGATIVE', 'POSITIVE']);
    expect(seq.info.id).toBe(SEQ);
    expect(transformersInternals(seq).maxLength).toBe(128);
    expect(transformersInternals(seq).usesTokenTypeIds).toBe(true);
  });

  it('raw logits match the torch reference to 1e-4', async () => {
    const out = await transformersInternals(seq).forward(ref.input_ids, ref.attention_mask);
    expectClose(out.logits, ref.logits, 1e-4, 'logits');
  });

  it('predict() tokenizes like the reference and returns softmax(reference logits)', async () => {
    const texts = ref.input_ids.map((row) => words(SEQ, row).join(' '));
    texts.forEach((text, r) => {
      const [row] = transformersInternals(seq).encode({ kind: 'text', text });
      expect(row!.inputIds).toEqual(ref.input_ids[r]!.filter((_, t) => ref.attention_mask[r]![t] === 1));
    });
    const outs = (await seq.predict(texts.map((text) => ({ kind: 'text', text })))) as ClassOutput[];
    outs.forEach((o, r) => {
      expect(o.kind).toBe('classes');
      expect(o.labels).toEqual(['NEGATIVE', 'POSITIVE']);
      expectClose(o.probs, softmax((ref.logits as number[][])[r]!), 1e-4, `probs ${r}`);
    });
  });

  it('gives the same answers with batches of 1 and in any order', async () => {
    const inputs = ['the movie was good', 'bad food', 'a very long and boring film', 'yes'].map((text) => ({
      kind: 'text' as const,
      text,
    }));
    const small = await loadTransformersModel(SEQ, { maxBatchSize: 1 });
    const a = (await seq.predict(inputs)) as ClassOutput[];
    const b = (await small.predict([...inputs].reverse())) as ClassOutput[];
    b.reverse().forEach((o, i) => expectClose(o.probs, a[i]!.probs, 1e-5, `input ${i}`));
    await small.close();
  });

  it('encodes pairs with segment ids 1 on the second text, exactly like the tokenizer (BertTokenizer config)', async () => {
    const cfg = JSON.parse(readFileSync(path.join(SEQ, 'tokenizer_config.json'), 'utf8')) as { tokenizer_class: string };
    expect(cfg.tokenizer_class).toBe('BertTokenizer');
    const [row] = transformersInternals(seq).encode({ kind: 'pair', textA: 'the movie', textB: 'was very good' });
    const id = (w: string) => vocab(SEQ).indexOf(w);
    expect(row!.inputIds).toEqual([2, id('the'), id('movie'), 3, id('was'), id('very'), id('good'), 3]);
    expect(row!.tokenTypeIds).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);

    const tok = await AutoTokenizer.from_pretrained(SEQ, { local_files_only: true });
    const pairs: [string, string][] = [
      ['the movie', 'was very good'],
      ['John went to Paris.', 'He hated it!'],
      ['', 'empty first'],
    ];
    for (const [a, b] of pairs) {
      const native = tok(a, { text_pair: b, return_token_type_ids: true });
      const [mine] = transformersInternals(seq).encode({ kind: 'pair', textA: a, textB: b });
      expect(mine!.inputIds).toEqual((native.input_ids.tolist() as bigint[][])[0]!.map(Number));
      expect(mine!.tokenTypeIds).toEqual((native.token_type_ids!.tolist() as bigint[][])[0]!.map(Number));
    }
  });

  it('pairs answer differently from the first text alone, and the second text matters', async () => {
    const [alone, pairA, pairB] = (await seq.predict([
      { kind: 'text', text: 'the movie was good' },
      { kind: 'pair', textA: 'the movie was good', textB: 'it was terrible' },
      { kind: 'pair', textA: 'the movie was good', textB: 'amazing fun excellent' },
    ])) as ClassOutput[];
    expect(Math.abs(alone!.probs[0]! - pairA!.probs[0]!)).toBeGreaterThan(1e-4);
    expect(Math.abs(pairA!.probs[0]! - pairB!.probs[0]!)).toBeGreaterThan(1e-4);
  });

  it('truncates long texts but keeps the final [SEP]; long pairs keep both texts (longest_first)', async () => {
    const long = Array.from({ length: 300 }, () => 'good').join(' ');
    const [single] = transformersInternals(seq).encode({ kind: 'text', text: long });
    expect(single!.inputIds).toHaveLength(128);
    expect(single!.inputIds[0]).toBe(2);
    expect(single!.inputIds[127]).toBe(3);

    const [pair] = transformersInternals(seq).encode({ kind: 'pair', textA: long, textB: 'bad movie' });
    expect(pair!.inputIds).toHaveLength(128);
    expect(pair!.inputIds.slice(-4)).toEqual([3, vocab(SEQ).indexOf('bad'), vocab(SEQ).indexOf('movie'), 3]);
    expect(pair!.tokenTypeIds.slice(-3)).toEqual([1, 1, 1]);

    const [both] = transformersInternals(seq).encode({ kind: 'pair', textA: long, textB: long });
    const sepAt = both!.inputIds.indexOf(3);
    expect(both!.inputIds).toHaveLength(128);
    expect(sepAt).toBe(1 + 63); // 125 content tokens: 63 for A, 62 for B
    const out = (await seq.predict([{ kind: 'pair', textA: long, textB: long }])) as ClassOutput[];
    expect(out[0]!.probs).toHaveLength(2);
  });

  it('longest_first splits like Hugging Face', () => {
    expect(longestFirst(10, 3, 8)).toEqual([5, 3]);
    expect(longestFirst(3, 10, 8)).toEqual([3, 5]);
    expect(longestFirst(10, 10, 9)).toEqual([5, 4]);
    expect(longestFirst(2, 2, 9)).toEqual([2, 2]);
  });

  it('tokenize() gives the subword pieces without [CLS]/[SEP]', async () => {
    expect(await seq.tokenize('The jumping foxes')).toEqual(['the', 'j', '##u', '##m', '##p', '##ing', 'fox', '##e', '##s']);
  });

  it('rejects inputs of the wrong kind with a ModelError', async () => {
    const err = await rejection(seq.predict([{ kind: 'tokens', tokens: ['a'] }]));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/'tokens' input.*text-classification/);
  });
});

describe('transformers adapter: token classification (tiny-bert-tok)', () => {
  let tok: TransformersModel;
  const ref = reference(TOK);
  const labels = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC', 'B-MISC', 'I-MISC'];
  beforeAll(async () => {
    tok = await loadTransformersModel(TOK);
  });
  afterAll(async () => tok.close());

  it('detects the task and the IOB2 tag set', () => {
    expect(tok.info.task).toBe('token-classification');
    expect(tok.info.labels).toEqual(labels);
  });

  it('raw logits match the torch reference to 1e-4', async () => {
    const out = await transformersInternals(tok).forward(ref.input_ids, ref.attention_mask);
    const logits = out.logits as number[][][];
    // Padding positions of row 2 differ by design (masked); compare the real ones.
    ref.input_ids.forEach((row, r) =>
      row.forEach((_, t) => {
        if (ref.attention_mask[r]![t]) expectClose(logits[r]![t], (ref.logits as number[][][])[r]![t], 1e-4, `logits[${r}][${t}]`);
      }),
    );
  });

  it('tags each word with the label of its first piece, scores = softmax prob', async () => {
    const sentences = ref.input_ids.map((row) => words(TOK, row));
    const outs = (await tok.predict(sentences.map((tokens) => ({ kind: 'tokens', tokens })))) as TagOutput[];
    outs.forEach((o, r) => {
      expect(o.tags).toHaveLength(sentences[r]!.length);
      o.tags.forEach((tag, w) => {
        const probs = softmax((ref.logits as number[][][])[r]![w + 1]!);
        const k = probs.indexOf(Math.max(...probs));
        expect(tag).toBe(labels[k]);
        expect(o.scores[w]).toBeCloseTo(probs[k]!, 4);
      });
    });
  });

  it('maps multi-piece words to their first piece', async () => {
    // "jumping" → j ##u ##m ##p ##ing: the word's tag comes from position 2 ([CLS] john j …)
    const [row] = transformersInternals(tok).encode({ kind: 'tokens', tokens: ['john', 'jumping', 'paris'] });
    const id = (w: string) => vocab(TOK).indexOf(w);
    const jumping = ['j', '##u', '##m', '##p', '##ing'].map(id);
    expect(row!.inputIds).toEqual([2, id('john'), ...jumping, id('paris'), 3]);
    const [out] = await tok.predict([{ kind: 'tokens', tokens: ['john', 'jumping', 'paris'] }]);
    const raw = (await transformersInternals(tok).forward([row!.inputIds])).logits as number[][][];
    const at = (t: number) => {
      const p = softmax(raw[0]![t]!);
      return labels[p.indexOf(Math.max(...p))];
    };
    expect((out as TagOutput).tags).toEqual([at(1), at(2), at(7)]);
  });

  it('splits long sentences into chunks so that no word is dropped', async () => {
    const v = vocab(TOK);
    const sentence = Array.from({ length: 300 }, (_, i) => v[5 + (i % 200)]!);
    const [out] = (await tok.predict([{ kind: 'tokens', tokens: sentence }])) as TagOutput[];
    expect(out!.tags).toHaveLength(300);
    expect(out!.scores.every((s) => s > 0 && s <= 1)).toBe(true);
    expect(
      transformersInternals(tok)
        .encode({ kind: 'tokens', tokens: sentence })
        .map((r) => r.inputIds.length),
    ).toEqual([128, 128, 50]);
  });

  it('a chunked sentence gets the same tags as its chunks sent one by one', async () => {
    const small = await loadTransformersModel(TOK, { maxLength: 16 });
    const v = vocab(TOK);
    const sentence = Array.from({ length: 30 }, (_, i) => v[5 + i * 3]!); // single-piece words
    const rows = transformersInternals(small).encode({ kind: 'tokens', tokens: sentence });
    expect(rows.map((r) => r.inputIds.length)).toEqual([16, 16, 4]);
    const [whole] = (await small.predict([{ kind: 'tokens', tokens: sentence }])) as TagOutput[];
    const parts = (await small.predict([
      { kind: 'tokens', tokens: sentence.slice(0, 14) },
      { kind: 'tokens', tokens: sentence.slice(14, 28) },
      { kind: 'tokens', tokens: sentence.slice(28) },
    ])) as TagOutput[];
    expect(whole!.tags).toEqual(parts.flatMap((p) => p.tags));
    expectClose(
      whole!.scores,
      parts.flatMap((p) => p.scores),
      1e-5,
      'scores',
    );
    await small.close();
  });

  it('tags odd words too: empty strings, very long words, punctuation', async () => {
    const small = await loadTransformersModel(TOK, { maxLength: 16 });
    const tokens = ['', 'z'.repeat(40), '.', 'New', 'York', '\u200b'];
    const [out] = (await small.predict([{ kind: 'tokens', tokens }])) as TagOutput[];
    expect(out!.tags).toHaveLength(tokens.length);
    expect(out!.tags.every((t) => labels.includes(t))).toBe(true);
    const [empty] = (await small.predict([{ kind: 'tokens', tokens: [] }])) as TagOutput[];
    expect(empty).toEqual({ kind: 'tags', tags: [], scores: [] });
    await small.close();
  });
});

describe('transformers adapter: question answering (rule-based tiny-qa, no token_type_ids input)', () => {
  let qa: TransformersModel;
  beforeAll(async () => {
    qa = await loadTransformersModel(QA);
  });
  afterAll(async () => qa.close());

  it('loads a graph without token_type_ids and does not feed them', () => {
    expect(qa.info.task).toBe('question-answering');
    expect(transformersInternals(qa).usesTokenTypeIds).toBe(false);
  });

  it('returns the best spans with character offsets into the context, best first', async () => {
    const context = 'We went to New York, not to the city of London.';
    const [out] = (await qa.predict([{ kind: 'qa', question: 'is it paris or london?', context }])) as SpanOutput[];
    expect(out!.spans.length).toBeGreaterThan(0);
    const best = out!.spans[0]!;
    expect(best).toMatchObject({ text: 'New York', start: 11, end: 19 });
    expect(context.slice(best.start, best.end)).toBe(best.text);
    for (let i = 1; i < out!.spans.length; i++) expect(out!.spans[i]!.score).toBeLessThanOrEqual(out!.spans[i - 1]!.score);
    for (const s of out!.spans) expect(context.slice(s.start, s.end)).toBe(s.text);
  });

  it('never answers from the question, keeps original casing and accents', async () => {
    const context = 'Café owners moved to PARIS; later, they left.';
    const [out] = (await qa.predict([{ kind: 'qa', question: 'new york or london?', context }])) as SpanOutput[];
    expect(out!.spans[0]).toMatchObject({ text: 'PARIS', start: 21, end: 26 });
  });

  it('slides windows over a long context and finds an answer past the first window', async () => {
    const small = await loadTransformersModel(QA, { maxLength: 32, topK: 1 });
    const filler = Array.from({ length: 80 }, () => 'the dog ran').join(' ');
    const context = `${filler} then we saw London at last.`;
    expect(transformersInternals(small).encode({ kind: 'qa', question: 'where?', context }).length).toBeGreaterThan(5);
    const [out] = (await small.predict([{ kind: 'qa', question: 'where?', context }])) as SpanOutput[];
    expect(out!.spans).toHaveLength(1);
    expect(out!.spans[0]).toMatchObject({ text: 'London', start: context.indexOf('London') });
    const [none] = (await small.predict([{ kind: 'qa', question: 'where?', context: '   ' }])) as SpanOutput[];
    expect(none!.spans).toEqual([]);
    await small.close();
  });

  it('aligns pieces inside words', () => {
    expect(alignPieces('Jumping,', ['j', '##u', '##m', '##p', '##ing', ','])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 7],
      [7, 8],
    ]);
    expect(alignPieces('Ünïcode', ['unicode'])).toEqual([[0, 7]]);
    expect(alignPieces('☃x', ['[UNK]'])).toEqual([[0, 2]]);
  });
});

describe('transformers adapter: clear errors for broken model folders', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'textstress-models-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const copy = (name: string, from = SEQ) => {
    const dir = path.join(tmp, name);
    cpSync(from, dir, { recursive: true });
    return dir;
  };

  it('a folder that does not exist', async () => {
    const missing = path.join(tmp, 'no-such-model');
    const err = await rejection(loadTransformersModel(missing));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toContain(missing);
    expect(err.message).toMatch(/does not exist/);
  });

  it('a relative path that does not exist is reported as a folder, not sent to the hub', async () => {
    const err = await rejection(loadTransformersModel('./models/not-trained-yet'));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/models\/not-trained-yet does not exist/);
  });

  it('tokenizer.json missing (vocab.txt alone)', async () => {
    const dir = copy('no-tokenizer');
    rmSync(path.join(dir, 'tokenizer.json'));
    const err = (await rejection(loadTransformersModel(dir))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toContain(dir);
    expect(err.message).toMatch(/tokenizer\.json/);
    expect(err.message).toMatch(/vocab\.txt alone is not enough/);
    expect(err.describe()).toMatch(/save_pretrained/);
  });

  it('config.json missing or broken', async () => {
    const dir = copy('no-config');
    rmSync(path.join(dir, 'config.json'));
    const err = await rejection(loadTransformersModel(dir));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/no config\.json/);
    writeFileSync(path.join(dir, 'config.json'), '{"architectures": [');
    const bad = await rejection(loadTransformersModel(dir));
    expect(bad.message).toMatch(/config\.json is not valid JSON/);
  });

  it('onnx/model.onnx missing, or in the wrong place', async () => {
    const dir = copy('no-onnx');
    renameSync(path.join(dir, 'onnx', 'model.onnx'), path.join(dir, 'model.onnx'));
    const err = (await rejection(loadTransformersModel(dir))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/no onnx\/model\.onnx/);
    expect(err.describe()).toMatch(/move it/);
    rmSync(path.join(dir, 'model.onnx'));
    const gone = (await rejection(loadTransformersModel(dir))) as ModelError;
    expect(gone.describe()).toMatch(/optimum-cli export onnx/);
  });

  it('a file instead of a folder', async () => {
    const err = await rejection(loadTransformersModel(path.join(SEQ, 'onnx', 'model.onnx')));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/is a file, not a model folder/);
  });

  it('an architecture with no task, and a task that contradicts config.json', async () => {
    const dir = copy('mlm');
    const cfgFile = path.join(dir, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(cfgFile, JSON.stringify({ ...cfg, architectures: ['BertForPreTraining'] }));
    const err = await rejection(loadTransformersModel(dir));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/BertForPreTraining.*cannot tell the task/);
    const ok = await loadTransformersModel(dir, { task: 'text-classification' });
    expect(ok.info.task).toBe('text-classification');
    await ok.close();
    // a masked LM loads (for the encoder probes) but answers no attack query
    writeFileSync(cfgFile, JSON.stringify({ ...cfg, architectures: ['BertForMaskedLM'] }));
    const mlm = await loadTransformersModel(dir);
    expect(mlm.info.task).toBe('fill-mask');
    const refused = await rejection(mlm.predict([{ kind: 'text', text: 'a film' }]));
    expect(refused.message).toMatch(/fill-mask .* answers no attack queries/);
    await mlm.close();

    const clash = await rejection(loadTransformersModel(SEQ, { task: 'token-classification' }));
    expect(clash).toBeInstanceOf(ModelError);
    expect(clash.message).toMatch(/BertForSequenceClassification.*token-classification/);
  });

  it('maxLength beyond the model limit', async () => {
    const err = await rejection(loadTransformersModel(SEQ, { maxLength: 4096 }));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/at most 128 tokens/);
  });
});
