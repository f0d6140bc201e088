import type { SynonymSource } from './wordnet.ts';

/**
 * A cheap "is this English?" check so that grammar errors are not put into text the English tagger
 * cannot read. Two signals, both documented heuristics rather than a language model:
 *  - script: most letters outside the Latin script → not English;
 *  - vocabulary: at least 60% of the words are English words (WordNet lemmas or English function words),
 *    and a text of 6+ words contains at least one English function word (WordNet also lists loan words such
 *    as "chat" or "la", so a French sentence can pass the first test but not the second).
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those some any no every each all both either neither my your his her its our their ' +
    'i me you he him she it we us they them myself yourself himself herself itself ourselves themselves who whom whose which what ' +
    'is am are was were be been being have has had having do does did done will would shall should can could may might must ' +
    'not n\'t no nor and or but so yet for if then than because although though while when where why how as since until unless ' +
    'of in on at by to from with without about into onto over under between among through during before after above below up down out off ' +
    'there here also too very just only even still already again ever never more most less least much many few such own same other ' +
    '\'s s \'re \'ve \'ll \'d \'m it\'s don\'t doesn\'t isn\'t'
  ).split(' '),
);

export type LanguageVerdict = 'english' | 'non-latin script' | 'unknown vocabulary' | 'no english function words';

export function languageOf(
  words: readonly { lower: string; lemma: string }[],
  text: string,
  lexicon: SynonymSource,
): LanguageVerdict {
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
    } else if (lexicon.knows(w.lower) || lexicon.knows(w.lemma)) known++;
  }
  if (known / alpha.length < 0.6) return 'unknown vocabulary';
  if (alpha.length >= 6 && fn === 0) return 'no english function words';
  return 'english';
}
