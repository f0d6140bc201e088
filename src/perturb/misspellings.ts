/**
 * Common human misspellings, from the cspell "Common English Misspellings" dictionary
 * (@cspell/dict-en-common-misspellings, CC BY-SA 4.0; compiled from Wikipedia's "Lists of common
 * misspellings" and crate-ci/typos' words.csv, MIT). The package maps misspelling → correct words;
 * we build the reverse map, correct word → misspellings, all lower case.
 *
 * Loaded lazily on first use and cached (≈ 50–100 ms for 2.8 MB of JSON, ~94k entries).
 * Entries whose misspelling or correction is not a single WordSeq word ("about a", "aircrafts'")
 * are dropped, so a replacement never changes how the text splits into words; so are one-letter
 * corrections.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The npm package the common-misspellings list is read from. */
export const MISSPELLINGS_PACKAGE = '@cspell/dict-en-common-misspellings';
/** License of that list, for attribution. */
export const MISSPELLINGS_LICENSE = 'CC BY-SA 4.0 (includes crate-ci/typos data, MIT)';

/** Dictionary files read, in this order: general English, then the US- and UK-specific lists. */
const FILES = ['dict/dict-en.json', 'dict/dict-en-us.json', 'dict/dict-en-gb.json'];

const TOKEN = /^[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*$/u;

interface CspellDictFile {
  dictionaryDefinitions: { flagWords?: string[]; suggestWords?: string[] }[];
}

let table: Map<string, readonly string[]> | undefined;

/** The reverse map correct word → misspellings (lower case, dictionary order), loaded once. */
export function misspellingTable(): ReadonlyMap<string, readonly string[]> {
  if (!table) table = load();
  return table;
}

const NONE: readonly string[] = [];

/** Known misspellings of `word` (matched case-insensitively), lower case; [] when there are none. */
export function misspellingsOf(word: string): readonly string[] {
  return misspellingTable().get(word.toLowerCase()) ?? NONE;
}

function load(): Map<string, string[]> {
  // The package only exports cspell-ext.json; the dictionaries sit next to it.
  const root = dirname(createRequire(import.meta.url).resolve(MISSPELLINGS_PACKAGE));
  const map = new Map<string, string[]>();
  for (const file of FILES) {
    const text = readFileSync(join(root, file), 'utf8');
    if (text.includes('\\')) {
      // Escapes present: take the slow, exact road.
      const data = JSON.parse(text) as CspellDictFile;
      for (const def of data.dictionaryDefinitions) {
        for (const list of [def.flagWords, def.suggestWords]) {
          if (list) for (const entry of list) addEntry(map, entry, 0, entry.length);
        }
      }
    } else {
      // No escapes: every "…->…" string literal is an entry; read them straight off the text.
      // (About twice as fast as JSON.parse + walking the arrays; this is most of the load time.)
      let p = 0;
      for (;;) {
        const a = text.indexOf('"', p);
        if (a < 0) break;
        const b = text.indexOf('"', a + 1);
        if (b < 0) break;
        p = b + 1;
        addEntry(map, text, a + 1, b);
      }
    }
  }
  return map;
}

/**
 * One "misspelling->correct1, correct2" entry, text[from, to). Entries without "->" are skipped.
 * Hot loop (~94k entries): no split/regex on the common all-lower-case ASCII path.
 */
function addEntry(map: Map<string, string[]>, text: string, from: number, to: number): void {
  const arrow = text.indexOf('->', from);
  if (arrow < 0 || arrow + 2 > to) return;
  const wrong = normalise(text.slice(from, arrow));
  if (wrong === null) return;
  let p = arrow + 2;
  while (p < to) {
    let q = text.indexOf(',', p);
    if (q < 0 || q > to) q = to;
    while (p < q && text.charCodeAt(p) === 32) p++;
    const right = normalise(text.slice(p, q));
    p = q + 1;
    // (one-letter targets are noise: the only one is "xwindows->x")
    if (right === null || right === wrong || right.length < 2) continue;
    const list = map.get(right);
    if (list === undefined) map.set(right, [wrong]);
    else if (!list.includes(wrong)) list.push(wrong);
  }
}

/** Lower-cased word, or null when it is not a single WordSeq word. */
function normalise(s: string): string | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 97 || c > 122) {
      const lower = s.toLowerCase();
      return TOKEN.test(lower) ? lower : null;
    }
  }
  return s.length > 0 ? s : null;
}
