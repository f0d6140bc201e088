/**
 * Noise test (Naik et al. 2018 §4.3, "spelling error"): one misspelling in one random word of the
 * hypothesis, either two adjacent inner characters swapped or one letter replaced by a keyboard neighbour
 * (Belinkov & Bisk's swap and keyboard noise, src/perturb/noise). The gold label is the original one.
 *
 * Only words of at least {@link NLI_MIN_TYPO_WORD_LENGTH} characters with a QWERTY letter are chosen: an
 * inner swap needs two inner characters, and a keyboard slip in a two- or three-letter word often makes
 * another word ("is" → "us", "cat" → "car"), not a spelling error. A
 * hypothesis with no such word gives no pair (the caller counts it).
 */
import { keyboardNoise, swapNoise } from '../../../perturb/noise/noise.ts';
import { charLength } from '../../../perturb/chars.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { makePair, pairRng } from './make.ts';
import type { NliPair, NliRuleOptions, StressPair } from './types.ts';

/** Shortest word the spelling rule changes. */
export const NLI_MIN_TYPO_WORD_LENGTH = 4;

/** The two kinds of spelling error. */
export const SPELLING_ERRORS = ['swap', 'keyboard'] as const;

/** Can the spelling rule change this word? */
export function typoEligible(word: string): boolean {
  return charLength(word) >= NLI_MIN_TYPO_WORD_LENGTH && /[a-z]/i.test(word);
}

/**
 * One spelling error in one hypothesis word chosen with the seed; the kind (swap or keyboard) is drawn too,
 * and a word no swap can change ("book": its inner letters are equal) gets the keyboard error. Variant
 * "spelling-swap" or "spelling-keyboard".
 */
export function nliSpellingError(pair: NliPair, opts: NliRuleOptions = {}): StressPair[] {
  const seq = WordSeq.parse(pair.hypothesis);
  const eligible = seq.words.flatMap((w, i) => (typoEligible(w) ? [i] : []));
  if (eligible.length === 0) return [];
  const rng = pairRng(pair, 'spelling', opts);
  const i = rng.pick(eligible);
  const word = seq.words[i]!;
  let kind = rng.pick(SPELLING_ERRORS);
  let typo = kind === 'swap' ? swapNoise(word, rng) : word;
  if (typo === word) {
    kind = 'keyboard';
    typo = keyboardNoise(word, rng);
  }
  return [
    makePair(
      pair,
      'spelling',
      {
        variant: `spelling-${kind}`,
        premise: pair.premise,
        hypothesis: seq.replace(i, typo).toString(),
        edits: [{ field: 'hypothesis', at: seq.offsetOf(i), from: word, to: typo }],
      },
      opts,
    ),
  ];
}
