/**
 * Tokenizer work textstress does itself around transformers.js: one word's pieces (cached), a text's ids
 * through a per-chunk cache, and where each piece sits inside its word (for QA answer offsets).
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';

/** Lower-case and strip accents one UTF-16 unit at a time, keeping the length (for offset alignment). */
function fold(s: string): string {
  let out = '';
  for (const c of s.split('')) {
    const lower = c.toLowerCase();
    const l = lower.length === 1 ? lower : c;
    const bare = l.normalize('NFD').replace(/\p{Mn}/gu, '');
    out += bare.length === 1 ? bare : l;
  }
  return out;
}

/** Markers a tokenizer puts on a word's first piece for the space before it (byte-level BPE, SentencePiece). */
const SPACE_MARKERS = ['Ġ', '▁'];

/**
 * Character offsets of a word's pieces inside the word; a piece that cannot be found spans to the word's end.
 * A leading space marker on the first piece is not a character of the word: a piece that is only the marker
 * gets an empty span.
 */
export function alignPieces(word: string, pieces: readonly string[], prefix = '##'): [number, number][] {
  const folded = fold(word);
  let cursor = 0;
  return pieces.map((piece, k) => {
    let text = piece;
    if (k > 0 && prefix && text.startsWith(prefix)) text = text.slice(prefix.length);
    const marker = k === 0 ? SPACE_MARKERS.find((m) => text.startsWith(m) && !word.startsWith(m)) : undefined;
    if (marker) {
      text = text.slice(marker.length);
      if (!text) return [0, 0];
    }
    const bare = fold(text);
    const idx = bare ? folded.indexOf(bare, cursor) : -1;
    if (idx < 0) return [Math.min(cursor, word.length), word.length];
    cursor = idx + bare.length;
    return [idx, cursor];
  });
}

/** The 256 symbols of GPT-2's bytes_to_unicode: each stands for one byte in a byte-level BPE piece. */
const BYTE_SYMBOLS: ReadonlySet<string> = (() => {
  const keep = (b: number): boolean => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const out = new Set<string>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) out.add(String.fromCharCode(keep(b) ? b : 256 + shifted++));
  return out;
})();

/**
 * Character offsets of a byte-level BPE word's pieces inside the word. Pieces spell the word's UTF-8 bytes (after
 * a space byte when the word was encoded with one), so offsets are counted in bytes and mapped back to
 * characters: the space is no character of the word, and a piece holding part of a character's bytes spans the
 * whole character. Falls back to matching text when the pieces do not spell the word (a normalizer changed it).
 */
export function alignBytePieces(word: string, pieces: readonly string[], spaceBefore: boolean): [number, number][] {
  const lead = spaceBefore ? 1 : 0;
  const lengths = pieces.map((p) => ([...p].every((c) => BYTE_SYMBOLS.has(c)) ? [...p].length : -1));
  // Start and end (UTF-16) of the character each UTF-8 byte of the word belongs to.
  const charStart: number[] = [];
  const charEnd: number[] = [];
  let i = 0;
  for (const ch of word) {
    const n = Buffer.byteLength(ch, 'utf8');
    for (let k = 0; k < n; k++) {
      charStart.push(i);
      charEnd.push(i + ch.length);
    }
    i += ch.length;
  }
  const spelled = lengths.reduce((a, b) => (a < 0 || b < 0 ? -1 : a + b), 0);
  if (spelled !== lead + charStart.length) return alignPieces(word, pieces, '');
  let cursor = -lead;
  return lengths.map((n) => {
    const from = Math.max(cursor, 0);
    cursor += n;
    if (cursor <= from) return [charStart[from] ?? word.length, charStart[from] ?? word.length];
    return [charStart[from]!, charEnd[cursor - 1]!];
  });
}

/** A word's subword pieces and their ids. */
export interface Piece {
  ids: number[];
  pieces: string[];
}

export interface WordOptions {
  /**
   * The word follows a space. Byte-level BPE encodes that space into the word's first piece ('Ġword'); other
   * tokenizers ignore it (WordPiece splits on spaces, SentencePiece marks every word itself).
   */
  prefixSpace?: boolean;
}

/** How the tokenizer splits words, read from tokenizer.json (see pieceEncoderFor). */
export interface PieceEncoderOptions {
  /** encode(text) equals the concatenation of its space-separated chunks' encodings (see splitsOnSpaces). */
  chunkable: boolean;
  /** Byte-level pre-tokenization (see isByteLevel): the space before a word is part of its first piece. */
  byteLevel: boolean;
  /** WordPiece's continuing-subword prefix ('##'), which is no character of the word. */
  subwordPrefix: string;
  unkId: number;
}

/**
 * Encodes words and texts without special tokens, with caches that make the many near-identical texts of an
 * attack almost free to tokenize.
 */
export class PieceEncoder {
  private readonly pieceCache = new Map<string, Piece>();
  private readonly chunkCache = new Map<string, number[]>();
  private readonly charPieceCache = new Map<string, number>();

  constructor(
    private readonly tok: PreTrainedTokenizer,
    private readonly opts: PieceEncoderOptions,
  ) {}

  /** Pieces of one word (never empty: a word the tokenizer drops becomes the unknown token). */
  word(w: string, opts: WordOptions = {}): Piece {
    // Byte-level BPE gives "the" and " the" different pieces ('t' 'he' vs 'Ġthe'): encode the space with the word.
    const text = opts.prefixSpace && this.opts.byteLevel ? ` ${w}` : w;
    let p = this.pieceCache.get(text);
    if (p) return p;
    const pieces = this.tok.tokenize(text);
    p = pieces.length ? { pieces, ids: this.tok.convert_tokens_to_ids(pieces) } : { pieces: [''], ids: [this.opts.unkId] };
    if (this.pieceCache.size > 100_000) this.pieceCache.clear();
    this.pieceCache.set(text, p);
    return p;
  }

  /** Character offsets inside w of the pieces word(w, opts) gives. */
  offsets(w: string, opts: WordOptions = {}): [number, number][] {
    const { pieces } = this.word(w, opts);
    return this.opts.byteLevel ? alignBytePieces(w, pieces, opts.prefixSpace === true) : alignPieces(w, pieces, this.opts.subwordPrefix);
  }

  /**
   * Index of the first piece of word(w, opts) that holds a character of w: 0, unless the word starts with a piece
   * that is only a space marker (SentencePiece's bare `▁`, byte-level BPE's bare `Ġ`).
   */
  firstCharPiece(w: string, opts: WordOptions = {}): number {
    const key = `${opts.prefixSpace ? ' ' : ''}${w}`;
    let k = this.charPieceCache.get(key);
    if (k === undefined) {
      k = Math.max(
        0,
        this.offsets(w, opts).findIndex(([s, e]) => e > s),
      );
      if (this.charPieceCache.size > 100_000) this.charPieceCache.clear();
      this.charPieceCache.set(key, k);
    }
    return k;
  }

  /**
   * Ids of a text without special tokens. For WordPiece tokenizers whose normalizer and pre-tokenizer act
   * per character and split on spaces, encoding space-separated chunks one by one gives exactly the same ids,
   * and attack candidates share all chunks but one with the text they came from: a chunk cache makes
   * tokenization almost free. Other tokenizers (byte-level BPE, SentencePiece) encode the whole text.
   */
  textIds(text: string, limit = Number.POSITIVE_INFINITY): number[] {
    if (!this.opts.chunkable) return this.tok.encode(text, { add_special_tokens: false }).slice(0, limit);
    const ids: number[] = [];
    // Stop once the model's input is full: a 100,000-character text costs no more than its first ~limit tokens.
    for (let from = 0; from < text.length && ids.length < limit;) {
      let to = text.indexOf(' ', from);
      if (to < 0) to = text.length;
      const chunk = text.slice(from, to);
      from = to + 1;
      if (!chunk) continue;
      let chunkIds = this.chunkCache.get(chunk);
      if (!chunkIds) {
        chunkIds = this.tok.encode(chunk, { add_special_tokens: false });
        if (this.chunkCache.size > 200_000) this.chunkCache.clear();
        this.chunkCache.set(chunk, chunkIds);
      }
      for (const id of chunkIds) ids.push(id);
    }
    return ids.length > limit ? ids.slice(0, limit) : ids;
  }
}

const CHAR_LOCAL_NORMALIZERS = new Set(['BertNormalizer', 'Lowercase', 'StripAccents', 'NFD', 'NFC', 'NFKD', 'NFKC', 'Strip']);
const SPACE_SPLITTING_PRE_TOKENIZERS = new Set(['BertPreTokenizer', 'Whitespace', 'WhitespaceSplit']);

/** True when encoding a text equals concatenating the encodings of its space-separated chunks. */
export function splitsOnSpaces(tokJson: Record<string, unknown>): boolean {
  const type = (x: unknown): string | undefined =>
    x && typeof x === 'object' ? ((x as { type?: unknown }).type as string | undefined) : undefined;
  const model = type(tokJson.model);
  if (model !== 'WordPiece') return false;
  const pre = type(tokJson.pre_tokenizer);
  if (!pre || !SPACE_SPLITTING_PRE_TOKENIZERS.has(pre)) return false;
  const norm = tokJson.normalizer;
  if (norm === null || norm === undefined) return true;
  const kinds = type(norm) === 'Sequence' ? ((norm as { normalizers?: unknown[] }).normalizers ?? []).map(type) : [type(norm)];
  return kinds.every((k) => k !== undefined && CHAR_LOCAL_NORMALIZERS.has(k));
}

/** True when tokenizer.json pre-tokenizes byte-level (GPT-2, RoBERTa): alone or inside a Sequence. */
export function isByteLevel(tokJson: Record<string, unknown>): boolean {
  const has = (pre: unknown): boolean => {
    if (!pre || typeof pre !== 'object') return false;
    const p = pre as { type?: unknown; pretokenizers?: unknown };
    if (p.type === 'ByteLevel') return true;
    return p.type === 'Sequence' && Array.isArray(p.pretokenizers) && p.pretokenizers.some(has);
  };
  return has(tokJson.pre_tokenizer);
}

/** The PieceEncoder for a tokenizer and its tokenizer.json. */
export function pieceEncoderFor(tok: PreTrainedTokenizer, tokJson: Record<string, unknown>): PieceEncoder {
  const model = (tokJson.model ?? {}) as Record<string, unknown>;
  const unkId = (tok as unknown as { unk_token_id?: unknown }).unk_token_id;
  return new PieceEncoder(tok, {
    chunkable: splitsOnSpaces(tokJson),
    byteLevel: isByteLevel(tokJson),
    subwordPrefix: typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##',
    unkId: typeof unkId === 'number' ? unkId : 0,
  });
}
