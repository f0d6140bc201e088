import type { SynonymSource } from './wordnet.ts';

/**
 * A cheap "is this English?" check so that grammar errors are not put into text the English tagger
 * cannot read. Two signals, both documented heuristics rather than a language model:
 *  - script: most letters outside the Latin script → not English;
 *  - vocabulary: at least half of the words are English words (WordNet lemmas or English function words),
 *    and a long text (8+ words) that is not mostly known words contains at least one English function word
 *    (WordNet also lists loan words such as "chat" or "la"). Words are known by their lemma, their hyphen
 *    parts or their stem without an English ending ("stultifyingly" → "stultify").
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those some any no every each all both either neither my your his her its our their ' +
    'i me you he him she it we us they them myself yourself himself herself itself ourselves themselves who whom whose which what ' +
    'is am are was were be been being have has had having do does did done will would shall should can could may might must ' +
    "not n't no nor and or but so yet for if then than because although though while when where why how as since until unless " +
    'of in on at by to from with without about into onto over under between among through during before after above below up down out off ' +
    'there here also too very just only even still already again ever never more most less least much many few such own same other ' +
    'everything nothing something anything everyone someone anyone nobody everybody somebody ' +
    "'s s 're 've 'll 'd 'm it's don't doesn't isn't"
  ).split(' '),
);

/** English derivational/inflectional endings, longest first: "stultifyingly" → "stultify". */
const SUFFIXES = ['ingly', 'edly', 'ily', 'ly', 'ness', 'ing', 'ed', 'es', 's', 'er', 'est'];

/** WordNet knows the word, its lemma, each part of a hyphenated word, or the word minus an English ending. */
export function isKnown(lower: string, lemma: string, lexicon: SynonymSource): boolean {
  if (lexicon.knows(lower) || lexicon.knows(lemma)) return true;
  if (lower.includes('-')) return lower.split('-').every((p) => p === '' || FUNCTION_WORDS.has(p) || isKnown(p, p, lexicon));
  for (const suf of SUFFIXES) {
    if (lower.length > suf.length + 2 && lower.endsWith(suf)) {
      const stem = lower.slice(0, -suf.length);
      if (lexicon.knows(stem) || lexicon.knows(stem + 'e') || (stem.endsWith('i') && lexicon.knows(stem.slice(0, -1) + 'y'))) return true;
      // "stultifyingly" → "stultifying" → "stultify"
      if (suf === 'ly' || suf === 'ingly' || suf === 'edly') {
        for (const inner of ['ing', 'ed']) if (stem.endsWith(inner) && lexicon.knows(stem.slice(0, -inner.length))) return true;
      }
    }
  }
  return false;
}

export type LanguageVerdict = 'english' | 'non-latin script' | 'unknown vocabulary' | 'no english function words';

export function languageOf(words: readonly { lower: string; lemma: string }[], text: string, lexicon: SynonymSource): LanguageVerdict {
  let letters = 0;
  let latin = 0;
  for (const ch of text) {
    if (/\p{L}/u.test(ch)) {
      letters++;
      if (/\p{Script=Latin}/u.test(ch)) latin++;
    }
  }
  if (letters > 0 && latin / letters < 0.5) return 'non-latin script';
  const alpha = words.filter((w) => /\p{L}/u.test(w.lower));
  if (alpha.length === 0) return 'english';
  let known = 0;
  let fn = 0;
  for (const w of alpha) {
    if (FUNCTION_WORDS.has(w.lower)) {
      known++;
      fn++;
    } else if (isKnown(w.lower, w.lemma, lexicon)) known++;
  }
  const share = known / alpha.length;
  if (share < 0.5) return 'unknown vocabulary';
  // Lists of content words ("good action , good acting") are English too: only a long text that is
  // barely known and has no function word at all fails here.
  if (alpha.length >= 8 && fn === 0 && share < 0.8) return 'no english function words';
  return 'english';
}
