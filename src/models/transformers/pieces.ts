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

/** Character offsets of a word's pieces inside the word; a piece that cannot be found spans to the word's end. */
export function alignPieces(word: string, pieces: readonly string[], prefix = '##'): [number, number][] {
  const folded = fold(word);
  let cursor = 0;
  return pieces.map((piece, k) => {
    const bare = fold(k > 0 && prefix && piece.startsWith(prefix) ? piece.slice(prefix.length) : piece);
    const idx = bare ? folded.indexOf(bare, cursor) : -1;
    if (idx < 0) return [Math.min(cursor, word.length), word.length];
    cursor = idx + bare.length;
    return [idx, cursor];
  });
}

/** A word's subword pieces and their ids. */
export interface Piece {
  ids: number[];
  pieces: string[];
}

/**
 * Encodes words and texts without special tokens, with caches that make the many near-identical texts of an
 * attack almost free to tokenize.
 */
export class PieceEncoder {
  private readonly pieceCache = new Map<string, Piece>();
  private readonly chunkCache = new Map<string, number[]>();

  constructor(
    private readonly tok: PreTrainedTokenizer,
    /** encode(text) equals the concatenation of its space-separated chunks' encodings (see splitsOnSpaces). */
    private readonly chunkable: boolean,
    private readonly unkId: number,
  ) {}

  /** Pieces of one word (never empty: a word the tokenizer drops becomes the unknown token). */
  word(w: string): Piece {
    let p = this.pieceCache.get(w);
    if (p) return p;
    const pieces = this.tok.tokenize(w);
    p = pieces.length ? { pieces, ids: this.tok.convert_tokens_to_ids(pieces) } : { pieces: [''], ids: [this.unkId] };
    if (this.pieceCache.size > 100_000) this.pieceCache.clear();
    this.pieceCache.set(w, p);
    return p;
  }

  /**
   * Ids of a text without special tokens. For WordPiece tokenizers whose normalizer and pre-tokenizer act
   * per character and split on spaces, encoding space-separated chunks one by one gives exactly the same ids,
   * and attack candidates share all chunks but one with the text they came from: a chunk cache makes
   * tokenization almost free. Other tokenizers (byte-level BPE, SentencePiece) encode the whole text.
   */
  textIds(text: string, limit = Number.POSITIVE_INFINITY): number[] {
    if (!this.chunkable) return this.tok.encode(text, { add_special_tokens: false }).slice(0, limit);
    const ids: number[] = [];
    // Stop once the model's input is full: a 100,000-character text costs no more than its first ~limit tokens.
    for (let from = 0; from < text.length && ids.length < limit; ) {
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
  const kinds =
    type(norm) === 'Sequence'
      ? ((norm as { normalizers?: unknown[] }).normalizers ?? []).map(type)
      : [type(norm)];
  return kinds.every((k) => k !== undefined && CHAR_LOCAL_NORMALIZERS.has(k));
}

