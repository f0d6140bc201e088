import type { Rng } from '../../util/rng.ts';

/** Adv-BERT's six typo sources, in the order they are tried. */
export const TYPO_SOURCE_NAMES = ['insertion', 'deletion', 'swap', 'mistype', 'pronounce', 'replace-word'] as const;
/** One of {@link TYPO_SOURCE_NAMES}. */
export type TypoSourceName = (typeof TYPO_SOURCE_NAMES)[number];

/** Options shared by all typo sources; each source reads the ones that concern it. */
export interface TypoOptions {
  /**
   * At most this many candidates per word. When a source has more, a subset is drawn with the rng and
   * returned in the source's canonical order (by position in the word). Default: DEFAULT_MAX_CANDIDATES.
   * Infinity lists every candidate and leaves the rng alone (the typos recipe's `exhaustive`).
   */
  maxCandidates?: number;
  /** Words with fewer characters get no candidates. Default 2 (DEFAULT_MIN_LENGTH). */
  minLength?: number;
  /** swap: only swap pairs that leave the first and the last character in place. Default false. */
  keepEnds?: boolean;
  /** mistype: digit-row keys count as neighbours ("oh" → "0h"). Default true. */
  digits?: boolean;
  /**
   * mistype: punctuation keys count as neighbours ("p" → "[", "P" → "{"). Default false: such
   * candidates are not single words for WordSeq (the symbol ends up in a gap).
   */
  symbols?: boolean;
}

/**
 * A typo source: distinct misspellings of a word (never the word itself), in a deterministic order
 * for a given rng state; [] when the source has nothing for the word.
 */
export type TypoSource = (word: string, rng: Rng, opts?: TypoOptions) => string[];

/**
 * Default caps. Insertion proposes (length + 1) × ~9 strings and replace-word up to ~100 for common
 * words, so both are sampled down to 8; deletion gives every position up to 8 (words of ≤ 8 letters
 * keep all). Swap (length − 1 at most) and pronounce (rule matches) stay complete. Mistype is capped
 * at 16, which keeps every candidate of a two-letter word ("oh": 12) and samples longer ones.
 */
export const DEFAULT_MAX_CANDIDATES: Readonly<Record<TypoSourceName, number>> = {
  insertion: 8,
  deletion: 8,
  swap: Infinity,
  mistype: 16,
  pronounce: Infinity,
  'replace-word': 8,
};

/**
 * One-character words ("a", "I", "5") get no typos by default: every edit of them yields another
 * word or nothing, and Adv-BERT perturbs content words. Pass minLength: 1 to allow them.
 */
export const DEFAULT_MIN_LENGTH = 2;

export function maxOf(opts: TypoOptions | undefined, source: TypoSourceName): number {
  return opts?.maxCandidates ?? DEFAULT_MAX_CANDIDATES[source];
}

export function minLengthOf(opts: TypoOptions | undefined): number {
  return opts?.minLength ?? DEFAULT_MIN_LENGTH;
}
