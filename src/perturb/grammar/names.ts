import type { WordInfo } from './analysis.ts';
import type { WordFrequency } from './frequency.ts';
import { isKnown } from './language.ts';
import type { SynonymSource } from './wordnet.ts';

/**
 * Is a word the tagger calls a common noun really a name? wink-nlp finds names by their capital, so in
 * lower-cased corpora (SST-2: "allows us to hope that nolan is poised …") names come out as NOUN, and Nn
 * would write "nolans". A NOUN counts as a name when
 *  - WordNet knows it as a noun only with a capital ("paris", "french"), or
 *  - WordNet has no such noun and SUBTLEX-US mostly writes it with a capital ("steven", "eisenberg"), or
 *  - neither WordNet (lemma, stem or hyphen parts) nor SUBTLEX-US knows it at all ("nolan", "soderbergh").
 * Common nouns that are also names stay common ("mark", "bill", "god"): WordNet lists them lower-case too.
 */
export function looksLikeName(w: WordInfo, wordnet: SynonymSource, freq: WordFrequency): boolean {
  if (w.pos !== 'NOUN') return false;
  const lemma = w.lemma;
  if (wordnet.onlyAsName(lemma, 'noun')) return true;
  if (wordnet.knows(lemma, 'noun')) return false;
  if (freq.capitalised(w.lower) || freq.capitalised(lemma)) return true;
  return !isKnown(w.lower, lemma, wordnet) && freq.count(w.lower) === 0 && freq.count(lemma) === 0;
}
