/**
 * Frozen-encoder features of probing sentences: every layer's token vectors (special tokens left out) and, for the
 * sentences that need it, where every attention head looks. One encoder pass per batch gives all layers at once.
 */
import type { Encoder } from '../../models/encoder/index.ts';
import type { Words } from './pairs.ts';

/** One sentence's features: per layer [len × hidden] over its non-special tokens. */
export interface SentenceFeatures {
  len: number;
  perLayer: Float32Array[];
  /** Token positions (0 = first non-special token) of each word kept. */
  wordTokens: [number, number][];
  /** Per layer, per head: the attention each token receives (see headProfile), when asked for. */
  heads?: Float32Array[][];
  /** The tokens, for showing examples. */
  tokens: string[];
}

/**
 * Which distribution over tokens a head "points at": `all` = the attention each token receives, averaged over every
 * query token; `cls` = the [CLS] token's attention row. Special tokens are left out as keys, and the result is
 * renormalised over the sentence's own tokens.
 */
export type HeadQuery = 'all' | 'cls';

export interface FeatureOptions {
  batchSize?: number;
  /** Compute head profiles for these sentence indices. */
  headsFor?: ReadonlySet<number>;
  headQuery?: HeadQuery;
}

/** Features of every sentence, in order; a sentence the model had to cut keeps only the words that fit. */
export async function extractFeatures(
  encoder: Encoder,
  sentences: readonly Words[],
  opts: FeatureOptions = {},
): Promise<SentenceFeatures[]> {
  const { heads, hiddenSize: H } = encoder.info;
  const batch = opts.batchSize ?? 32;
  const out: SentenceFeatures[] = [];
  for (let s = 0; s < sentences.length; s += batch) {
    const chunk = sentences.slice(s, s + batch).map((w) => encoder.encodeWords(w.words, w.gaps));
    const wantHeads = opts.headsFor ? chunk.some((_, i) => opts.headsFor!.has(s + i)) : false;
    const run = await encoder.run(
      chunk.map((c) => c.ids),
      { hidden: true, attentions: wantHeads },
    );
    const W = run.width;
    chunk.forEach((c, r) => {
      const n = c.ids.length;
      const len = n - 2; // [CLS] … [SEP]: BERT-family single-sentence templates put one special token at each end
      const perLayer = run.hidden!.map((h) => Float32Array.from(h.subarray((r * W + 1) * H, (r * W + 1 + len) * H)));
      const f: SentenceFeatures = {
        len,
        perLayer,
        wordTokens: c.wordSpans.map(([a, b]) => [a - 1, b - 1]),
        tokens: encoder.tokens(c.ids.slice(1, n - 1)),
      };
      if (wantHeads && opts.headsFor!.has(s + r)) {
        f.heads = run.attentions!.map((att) =>
          Array.from({ length: heads }, (_, h) => headProfile(att, r, h, heads, W, n, opts.headQuery ?? 'all')),
        );
      }
      out.push(f);
    });
  }
  return out;
}

/** A head's distribution over the sentence's own tokens (positions 1 … n−2), renormalised. */
export function headProfile(
  att: Float32Array,
  row: number,
  head: number,
  heads: number,
  width: number,
  n: number,
  query: HeadQuery,
): Float32Array {
  const base = (row * heads + head) * width * width;
  const out = new Float32Array(n - 2);
  const queries = query === 'cls' ? [0] : Array.from({ length: n }, (_, q) => q);
  for (const q of queries) for (let k = 1; k < n - 1; k++) out[k - 1]! += att[base + q * width + k]!;
  let sum = 0;
  for (const v of out) sum += v;
  if (sum > 0) for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

/** Token positions of the given words (0 = first non-special token). */
export function tokensOfWords(f: SentenceFeatures, words: readonly number[]): number[] {
  const out: number[] = [];
  for (const w of words) {
    const span = f.wordTokens[w];
    if (span) for (let t = span[0]; t < span[1]; t++) out.push(t);
  }
  return out;
}
