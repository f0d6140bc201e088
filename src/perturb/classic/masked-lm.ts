/**
 * BAE-R's candidates (Garg & Ramakrishnan 2020), as TextAttack's WordSwapMaskedLM(method="bae") makes them: the word
 * is replaced by the masked LM's mask token, the model's vocabulary is ranked by probability at the mask, and entries
 * are taken in that order until `maxCandidates` words are found (or the probability falls under `minConfidence`).
 * An entry that continues a word ("##ing" in WordPiece, a piece without Ġ in byte-level BPE) is kept with its marker
 * stripped, as TextAttack's code does (`subwords: 'strip'`), or dropped, as the paper says (`'drop'`: "we filter out
 * the sub-words and only retain the whole words"). A candidate must be one word with an ASCII letter, and differ from
 * the word it replaces.
 */
import type { MaskPrediction, PieceScheme } from '../../models/lm/masked-lm.ts';
import { WORD } from '../../text/word-seq.ts';

/** What BAE needs of a masked LM (models/lm/masked-lm.ts's MaskedLm). */
export interface MaskFiller {
  readonly id: string;
  readonly maskToken: string;
  readonly scheme: PieceScheme;
  token(id: number): string;
  predict(texts: readonly string[]): Promise<MaskPrediction[]>;
}

/** How BAE's words are taken from a prediction (TextAttack's WordSwapMaskedLM arguments). */
export interface MaskedWordOptions {
  /** Words kept per masked position (BAE: 50). */
  maxCandidates: number;
  /** Lowest probability considered (TextAttack's BAE recipe: 0). */
  minConfidence: number;
  /** A vocabulary entry that continues a word: kept with its marker stripped (TextAttack) or dropped (the paper). */
  subwords: 'strip' | 'drop';
}

const ONE_WORD = new RegExp(`^(?:${WORD.source})$`, 'u');
const PUNCTUATION = /^[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]*$/;
const SPECIAL = /^(?:\[[A-Z]+\]|<\/?[a-z]+>|<\|[a-z]+\|>)$/;

/** The words a prediction proposes, best first (TextAttack's `_bae_replacement_words` for one position). */
export function maskedWords(pred: MaskPrediction, token: (id: number) => string, scheme: PieceScheme, opts: MaskedWordOptions): string[] {
  if (pred.position < 0) return [];
  const { probs } = pred;
  const ranked = Array.from(probs.keys()).sort((a, b) => probs[b]! - probs[a]! || a - b);
  const out: string[] = [];
  for (const id of ranked) {
    const p = probs[id]!;
    if (p < opts.minConfidence) break;
    const raw = token(id);
    if (SPECIAL.test(raw)) continue;
    const sub = isContinuation(raw, scheme, pred.position === 1);
    if (sub && opts.subwords === 'drop') continue;
    const word = asText(raw, scheme);
    if (ONE_WORD.test(word) && !PUNCTUATION.test(word)) out.push(word);
    if (out.length >= opts.maxCandidates) break;
  }
  return out;
}

/** Does the entry continue a word? A word-start marker is absent only on the first token of a text (TextAttack's check_if_subword). */
function isContinuation(raw: string, scheme: PieceScheme, first: boolean): boolean {
  if (scheme.kind === 'continuation') return raw.startsWith(scheme.prefix);
  return !first && !raw.startsWith(scheme.marker);
}

/** The entry as text: markers stripped (TextAttack's strip_BPE_artifacts), byte-level symbols turned back into characters. */
function asText(raw: string, scheme: PieceScheme): string {
  if (scheme.kind === 'continuation') return raw.startsWith(scheme.prefix) ? raw.slice(scheme.prefix.length) : raw;
  const bare = raw.split(scheme.marker).join('');
  return scheme.byteLevel ? fromByteSymbols(bare) : bare;
}

/** GPT-2's bytes_to_unicode, inverted: a byte-level BPE entry's symbols back to the UTF-8 text they spell. */
const BYTE_OF: ReadonlyMap<string, number> = (() => {
  const keep = (b: number): boolean => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const out = new Map<string, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) out.set(String.fromCharCode(keep(b) ? b : 256 + shifted++), b);
  return out;
})();

function fromByteSymbols(s: string): string {
  const bytes: number[] = [];
  for (const c of s) {
    const b = BYTE_OF.get(c);
    if (b === undefined) return s;
    bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}
