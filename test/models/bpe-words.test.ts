/**
 * Word-by-word encoding with a byte-level BPE tokenizer (RoBERTa, GPT-2 style). NER inputs arrive split into
 * words and QA contexts are split on whitespace (to map answers back to characters), so textstress encodes word
 * by word; with byte-level BPE a word after a space has different pieces ("Ġthe", not "t" "he"). Checked against
 * the tokenizer's own encoding of the joined text, with the hand-made fixture test/models/fixtures/tiny-bpe.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { alignBytePieces, alignPieces, isByteLevel } from '../../src/models/transformers/index.ts';
import type { CodecContext } from '../../src/models/transformers/codec.ts';
import { PieceEncoder, pieceEncoderFor } from '../../src/models/transformers/pieces.ts';
import { qaCodec } from '../../src/models/transformers/qa.ts';
import { taggingCodec } from '../../src/models/transformers/tag.ts';
import { parseTemplate } from '../../src/models/transformers/template.ts';
import { ROOT, SEQ } from './helpers.ts';

const BPE = path.join(ROOT, 'test/models/fixtures/tiny-bpe');

const SENTENCES = [
  'the world',
  'the cat sat on the mat.',
  'Hello, world! 42 cats at 4:20 p.m. (really)',
  "it's the cat's café, naïve — 東京 🎬",
  '"the" world...42,000.5 %$#@ the-world',
  'Ça coûte cher: ünïcode café',
];

/** SST-2 dev sentences (words split on single spaces), for volume: the committed first 400. */
const SST2 = readFileSync(path.join(ROOT, 'test', 'fixtures', 'data', 'sst2', 'dev.tsv'), 'utf8')
  .split('\n')
  .slice(1, 400)
  .map((l) => l.split('\t')[0]!.split(' ').filter(Boolean).join(' '))
  .filter(Boolean);

/** Every word of a pre-split input and of a QA context after the first is encoded as if after a space. */
let tok: PreTrainedTokenizer;
let tokJson: Record<string, unknown>;
let ctx: CodecContext;

beforeAll(async () => {
  tok = await AutoTokenizer.from_pretrained(BPE, { local_files_only: true });
  tokJson = (tok as unknown as { _tokenizerJSON: Record<string, unknown> })._tokenizerJSON;
  const template = parseTemplate(tokJson.post_processor, tok, BPE);
  ctx = { id: BPE, template, pieces: pieceEncoderFor(tok, tokJson), maxLength: 512, labels: ['O', 'X'] };
});

describe('tiny byte-level BPE fixture', () => {
  it('gives a word different pieces after a space', () => {
    expect(tok.tokenize('the world')).toEqual(['t', 'he', 'Ġworld']);
    expect(tok.tokenize(' the world')).toEqual(['Ġthe', 'Ġworld']);
    expect(tok.tokenize('world')).toEqual(['w', 'or', 'ld']);
    expect(tok.encode(' the world')).toEqual([0, 262, 267, 2]);
  });

  it('is recognised as byte-level from tokenizer.json, WordPiece and SentencePiece are not', async () => {
    expect(isByteLevel(tokJson)).toBe(true);
    const split = { type: 'Split', pattern: { Regex: '\\s+' }, behavior: 'Isolated', invert: false };
    const seq = { ...tokJson, pre_tokenizer: { type: 'Sequence', pretokenizers: [split, { type: 'ByteLevel', use_regex: false }] } };
    expect(isByteLevel(seq)).toBe(true);
    expect(isByteLevel({ ...tokJson, pre_tokenizer: { type: 'Metaspace', replacement: '▁' } })).toBe(false);
    const bert = await AutoTokenizer.from_pretrained(SEQ, { local_files_only: true });
    expect(isByteLevel((bert as unknown as { _tokenizerJSON: Record<string, unknown> })._tokenizerJSON)).toBe(false);
  });
});

describe('pre-split words (NER) with byte-level BPE', () => {
  it('encode like the tokenizer encodes the raw sentence by default, and after a space with --first-word-space', () => {
    for (const s of SENTENCES) {
      const words = s.split(' ');
      const [planned, ...more] = taggingCodec(ctx).plan({ kind: 'tokens', tokens: words }, 0);
      expect(more, s).toEqual([]);
      expect(planned!.row.inputIds, s).toEqual(tok.encode(s));
      // is_split_into_words + add_prefix_space: the first word too is encoded after a space.
      const [spaced] = taggingCodec(ctx, { wordPiece: 'first', firstWordSpace: true }).plan({ kind: 'tokens', tokens: words }, 0);
      expect(spaced!.row.inputIds, s).toEqual(tok.encode(` ${s}`));
      // With --word-piece first, each word's tag is read at its first piece, which carries the word's space.
      const tokens = tok.tokenize(` ${s}`);
      const firsts = spaced!.job.firstPiece.map((pos) => tokens[pos - 1]!);
      expect(
        firsts.every((t) => t.startsWith('Ġ')),
        s,
      ).toBe(true);
      expect(
        tokens.filter((t) => t.startsWith('Ġ')),
        s,
      ).toHaveLength(words.length);
    }
  });

  it('encode SST-2 dev sentences exactly like the tokenizer', () => {
    expect(SST2.length).toBeGreaterThan(300);
    for (const s of SST2) {
      const [planned] = taggingCodec(ctx).plan({ kind: 'tokens', tokens: s.split(' ') }, 0);
      expect(planned!.row.inputIds, s).toEqual(tok.encode(s));
    }
  });

  it('differ from the old encoding, which tokenized each word without its space', () => {
    const words = ['the', 'world', '42'];
    // What PieceEncoder.word did before: tok.tokenize(w) for every word.
    const old = new PieceEncoder(tok, { chunkable: false, byteLevel: false, subwordPrefix: '', unkId: 3 });
    const oldIds = words.flatMap((w) => old.word(w, { prefixSpace: true }).ids);
    const newIds = words.flatMap((w) => ctx.pieces.word(w, { prefixSpace: true }).ids);
    // old: t he | w or ld | 42        new: Ġthe | Ġworld | Ġ 42
    expect(oldIds).toEqual([120, 261, 123, 264, 266, 271]);
    expect(newIds).toEqual([262, 267, 36, 271]);
    expect(newIds).toEqual(tok.encode(' the world 42', { add_special_tokens: false }));
  });
});

describe('QA contexts with byte-level BPE', () => {
  const question = 'where is the cat?';

  it('encode like the tokenizer encodes the context string (first word without a space)', () => {
    for (const context of SENTENCES) {
      const rows = qaCodec(ctx, { topK: 1, maxAnswerTokens: 30, docStride: 128 }).plan({ kind: 'qa', question, context }, 0);
      expect(rows, context).toHaveLength(1);
      expect(rows[0]!.row.inputIds, context).toEqual(tok.encode(question, { text_pair: context }));
    }
  });

  it('encode SST-2 dev contexts exactly like the tokenizer, each piece mapped onto its own text', () => {
    const codec = qaCodec(ctx, { topK: 1, maxAnswerTokens: 30, docStride: 128 });
    for (const context of SST2) {
      const [planned, ...more] = codec.plan({ kind: 'qa', question, context }, 0);
      expect(more, context).toEqual([]);
      expect(planned!.row.inputIds, context).toEqual(tok.encode(question, { text_pair: context }));
      // A piece spells its characters after the space; one holding part of a character's bytes spans the character.
      const ids = tok.encode(context, { add_special_tokens: false });
      planned!.job.offsets.forEach(([s, e], k) => {
        const spelled = tok.decode([ids[k]!]).replace(/^ /, '');
        if (spelled.includes('\uFFFD')) expect([...context.slice(s, e)], context).toHaveLength(1);
        else expect(context.slice(s, e), context).toBe(spelled);
      });
    }
  });

  it('map pieces back to the characters they spell, without the space marker', () => {
    const context = 'the cat 42 café 東京🎬';
    const [row] = qaCodec(ctx, { topK: 1, maxAnswerTokens: 30, docStride: 128 }).plan({ kind: 'qa', question, context }, 0);
    const spans = row!.job.offsets.map(([s, e]) => context.slice(s, e));
    // Pieces: t he Ġcat Ġ 42 Ġc af Ã© Ġ æ Ŀ ± ä º ¬ ð Ł İ ¬ (東, 京 and 🎬 are 3, 3 and 4 bytes, one piece each)
    expect(spans).toEqual(['t', 'he', 'cat', '', '42', 'c', 'af', 'é', '', ...'東東東京京京', ...Array(4).fill('🎬')]);
    const tokens = tok.tokenize(context);
    expect(tokens).toHaveLength(spans.length);
  });
});

describe('piece alignment', () => {
  it('counts bytes for byte-level pieces; the space is no character of the word', () => {
    expect(alignBytePieces('world', ['Ġworld'], true)).toEqual([[0, 5]]);
    expect(alignBytePieces('world', ['w', 'or', 'ld'], false)).toEqual([
      [0, 1],
      [1, 3],
      [3, 5],
    ]);
    expect(alignBytePieces('42', ['Ġ', '42'], true)).toEqual([
      [0, 0],
      [0, 2],
    ]);
    expect(alignBytePieces('café', ['Ġc', 'af', 'Ã©'], true)).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]);
    // Half of é's two bytes still covers é; 🎬 is two UTF-16 units.
    expect(alignBytePieces('é🎬', ['Ã', '©', 'ðŁİ¬'], false)).toEqual([
      [0, 1],
      [0, 1],
      [1, 3],
    ]);
    // Pieces that do not spell the word (a normalizer changed it): matched as text instead.
    expect(alignBytePieces('The', ['Ġthe'], true)).toEqual([[0, 3]]);
  });

  it('drops a leading space marker when matching text (byte-level and SentencePiece)', () => {
    expect(alignPieces('the', ['Ġthe'], '')).toEqual([[0, 3]]);
    expect(alignPieces('hello', ['▁he', 'llo'], '')).toEqual([
      [0, 2],
      [2, 5],
    ]);
    expect(alignPieces('42', ['▁', '42'], '')).toEqual([
      [0, 0],
      [0, 2],
    ]);
  });
});
