/**
 * Issue 32 on the four zoo models committed in test/fixtures/zoo (byte-level BPE and SentencePiece, classifiers and
 * taggers): what each model is fed and where its answers are read must be what its tokenizer and its training made
 * of the text. Each model is loaded once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { collect, loadConll, openDataset, type TextExample, type TokenExample } from '../../src/data/index.ts';
import { attackInMemory } from '../../src/kinds/in-memory.ts';
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import { transformersInternals } from '../../src/models/transformers/internals.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { CONLL, ROOT, SST2_DEV } from '../cli/helpers.ts';

const ZOO = join(ROOT, 'test', 'fixtures', 'zoo');
const NAMES = ['roberta-sst2', 'deberta-v2-sst2', 'roberta-ner', 'deberta-v2-ner'] as const;
type Name = (typeof NAMES)[number];

const models = {} as Record<Name, ModelAdapter>;
const tokenizers = {} as Record<Name, PreTrainedTokenizer>;
let sentences: TokenExample[];

beforeAll(async () => {
  for (const name of NAMES) {
    models[name] = await loadTransformersModel(join(ZOO, name));
    tokenizers[name] = await AutoTokenizer.from_pretrained(join(ZOO, name), { local_files_only: true });
  }
  sentences = await collect(await loadConll(CONLL));
});
afterAll(async () => {
  for (const m of Object.values(models)) await m.close?.();
});

const argmax = (xs: readonly number[]): number => xs.reduce((best, x, i) => (x > xs[best]! ? i : best), 0);
const BARE = /^[Ġ▁]$/;

describe('SST-2 sentences reach the model without their trailing space (item 1)', () => {
  for (const name of ['roberta-sst2', 'deberta-v2-sst2'] as const) {
    it(`${name}: every row is the stripped sentence's encoding, which the space would have changed`, async () => {
      const raw = readFileSync(SST2_DEV, 'utf8')
        .split('\n')
        .slice(1, -1)
        .map((line) => line.split('\t')[0]!);
      const examples = (await collect(await openDataset(SST2_DEV))) as TextExample[];
      expect(examples).toHaveLength(400);
      const { encode } = transformersInternals(models[name]);
      const ids = (text: string): number[] => encode({ kind: 'text', text })[0]!.inputIds;
      examples.forEach((e, i) => {
        expect(raw[i]!.endsWith(' ')).toBe(true);
        expect(ids(e.text), e.id).toEqual(ids(raw[i]!.trimEnd()));
        // The tokenizer makes a token of the space: a final bare Ġ/▁ before the end token.
        const pieces = tokenizers[name].tokenize(raw[i]!);
        expect(BARE.test(pieces.at(-1)!), e.id).toBe(true);
        expect(pieces.slice(0, -1), e.id).toEqual(tokenizers[name].tokenize(e.text));
      });
    });
  }
});

describe('taggers: words encoded as the raw sentence, tags read at the first piece with a character (item 3)', () => {
  for (const name of ['roberta-ner', 'deberta-v2-ner'] as const) {
    it(`${name}: each row is the tokenizer's own encoding of the words joined by spaces (no Ġ on the first word)`, () => {
      const { encode } = transformersInternals(models[name]);
      for (const s of sentences) {
        expect(encode({ kind: 'tokens', tokens: s.tokens })[0]!.inputIds, s.id).toEqual(tokenizers[name].encode(s.tokens.join(' ')));
      }
      if (name === 'roberta-ner') expect(tokenizers[name].tokenize('EU')[0]).toBe('E'); // …where ' EU' gives 'ĠE'
    });
  }

  it('deberta-v2-ner: a word split as ▁ + pieces takes the tag read at its first real piece, not at the bare ▁', async () => {
    const model = models['deberta-v2-ner'];
    const { encode, forward } = transformersInternals(model);
    const outputs = await model.predict(sentences.map((s) => ({ kind: 'tokens', tokens: s.tokens })));
    let bareFirst = 0;
    let differs = 0;
    for (const [i, s] of sentences.entries()) {
      const row = encode({ kind: 'tokens', tokens: s.tokens })[0]!.inputIds;
      const logits = ((await forward([row])).logits as number[][][])[0]!;
      const tags = (outputs[i] as { tags: string[] }).tags;
      let at = 1; // after [CLS]
      for (const [w, word] of s.tokens.entries()) {
        const pieces = tokenizers['deberta-v2-ner'].tokenize(word);
        const k = pieces.findIndex((p) => !BARE.test(p));
        expect(tags[w], `${s.id} ${word}`).toBe(model.info.labels![argmax(logits[at + k]!)]);
        if (k > 0) {
          bareFirst++;
          if (argmax(logits[at]!) !== argmax(logits[at + k]!)) differs++;
        }
        at += pieces.length;
      }
    }
    // The fixture holds words whose first piece is a bare ▁, and the two readings disagree on some of them.
    expect(bareFirst).toBeGreaterThan(50);
    expect(differs).toBeGreaterThan(0);
  });
});

describe('subword diagnostics count pieces as the model saw them (item 4)', () => {
  it('typos on roberta-sst2: an edited word that followed a space is shown with it (Ġ)', async () => {
    const model = models['roberta-sst2'];
    const examples = ((await collect(await openDataset(SST2_DEV))) as TextExample[]).slice(0, 6);
    const results: ExampleResult[] = [];
    for await (const r of attackInMemory({ recipe: 'typos', settings: { k: 1 }, model, examples, dataset: { name: 'sst2' } }))
      results.push(r);
    const views = results.flatMap((r) => r.edits.map((e, k) => ({ e, view: r.subwords![k]!, text: r.original.text as string })));
    expect(views.length).toBeGreaterThan(0);
    let bareDiffers = 0;
    for (const { e, view, text } of views) {
      const spaced = e.start > 0 && text[e.start - 1] === ' ';
      expect(view.before_pieces).toEqual(await model.tokenize!(spaced ? ` ${e.before}` : e.before));
      expect(view.after_pieces).toEqual(await model.tokenize!(spaced ? ` ${e.after}` : e.after));
      if (spaced) expect(view.before_pieces[0]!.startsWith('Ġ')).toBe(true);
      if (JSON.stringify(await model.tokenize!(e.before)) !== JSON.stringify(view.before_pieces)) bareDiffers++;
    }
    expect(bareDiffers).toBeGreaterThan(0);
  });

  it('entity swaps on roberta-ner: each name is counted as its variant held it (Figure 2 bins)', async () => {
    const model = models['roberta-ner'];
    const results: ExampleResult[] = [];
    const run = attackInMemory({ recipe: 'entities', settings: { type: 'PER', budget: 4 }, model, examples: sentences.slice(0, 20) });
    for await (const r of run) results.push(r);
    const samples = results.flatMap((r) => r.probe?.samples ?? []);
    expect(samples.length).toBeGreaterThan(10);
    let spacedDiffers = 0;
    for (const s of samples) {
      expect(s.seen).toHaveLength(s.names.length);
      for (const [k, seen] of s.seen!.entries()) {
        expect(seen.trim().toLowerCase()).toBe(s.names[k]!.toLowerCase());
        expect(s.pieces![k]).toBe((await model.tokenize!(seen)).length);
        if (seen.startsWith(' ') && (await model.tokenize!(seen.trim())).length !== s.pieces![k]) spacedDiffers++;
      }
    }
    expect(spacedDiffers).toBeGreaterThan(0);
  });
});
