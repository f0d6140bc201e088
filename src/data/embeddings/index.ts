/**
 * Word embeddings a user names with `--embeddings FILE` (GloVe, counter-fitted PARAGRAM, any `word v1 … vd` text
 * file): indexed once (index-file.ts), then looked up word by word and searched for nearest neighbours by cosine
 * (nearest.ts), as TextFooler's and TextBugger's word swaps and TextFooler's embedding-distance constraint need.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { ensureIndex, type IndexMeta } from './index-file.ts';
import { NearestSearch } from './nearest.ts';

export { ensureIndex, indexLocations, readMeta, type IndexFile, type IndexMeta } from './index-file.ts';
export { readEmbeddingText, type EmbeddingTextInfo } from './text-format.ts';

/** A neighbour of a word: another word of the vocabulary and its cosine similarity to it. */
export interface Neighbour {
  word: string;
  cosine: number;
}

/** What the run records about the embeddings it used. */
export interface EmbeddingsInfo {
  file: string;
  /** The binary index read (built by this open when `built`). */
  index: string;
  built: boolean;
  words: number;
  dim: number;
  duplicates: number;
  sha256: string;
}

/** How many vectors of looked-up words are kept in memory. */
const VECTOR_CACHE = 50_000;
/** How many words' neighbour lists are kept. */
const NEIGHBOUR_CACHE = 20_000;

/** Word vectors opened from a text file (`--embeddings`), indexed once: lookups, cosines, nearest neighbours. */
export class WordEmbeddings {
  /** Nearest-neighbour searches run (words sent to the graph; cached answers are not counted). */
  searches = 0;
  private readonly vectors = new Map<number, Float32Array>();
  private readonly neighbourCache = new Map<string, Neighbour[]>();

  private constructor(
    readonly info: EmbeddingsInfo,
    private readonly meta: IndexMeta,
    private readonly fd: number,
    private readonly ids: ReadonlyMap<string, number>,
    private readonly words: readonly string[],
    private readonly search: NearestSearch,
  ) {}

  /** Opens (indexing first when needed) the word vectors in `file`. */
  static async open(file: string, opts: { cacheDir?: string } = {}): Promise<WordEmbeddings> {
    const index = await ensureIndex(file, opts);
    const { meta } = index;
    const fd = openSync(index.path, 'r');
    try {
      const raw = Buffer.alloc(meta.wordsBytes);
      readSync(fd, raw, 0, meta.wordsBytes, meta.wordsOffset);
      const words = meta.n ? raw.toString('utf8').split('\n') : [];
      const ids = new Map<string, number>();
      words.forEach((w, i) => ids.set(w, i));
      const search = await NearestSearch.open(index.path, meta);
      const info: EmbeddingsInfo = {
        file: meta.source.path,
        index: index.path,
        built: index.built,
        words: meta.n,
        dim: meta.dim,
        duplicates: meta.duplicates,
        sha256: meta.source.sha256,
      };
      return new WordEmbeddings(info, meta, fd, ids, words, search);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Is `word` in the vocabulary (exactly as written)? */
  has(word: string): boolean {
    return this.ids.has(word);
  }

  /** The unit-length vector of `word`, or undefined when it is not in the vocabulary. */
  vector(word: string): Float32Array | undefined {
    const id = this.ids.get(word);
    return id === undefined ? undefined : this.row(id);
  }

  /** Cosine similarity of two words, or undefined when either is not in the vocabulary. */
  cosine(a: string, b: string): number | undefined {
    const va = this.vector(a);
    const vb = this.vector(b);
    if (!va || !vb) return undefined;
    let dot = 0;
    for (let k = 0; k < va.length; k++) dot += va[k]! * vb[k]!;
    return dot;
  }

  /**
   * The `k` nearest other words of each word, by cosine, best first (a word not in the vocabulary has none). All
   * words not answered before are searched in one batch; `onSearched` learns how many.
   */
  async neighbours(words: readonly string[], k: number, onSearched?: (n: number) => void): Promise<Map<string, Neighbour[]>> {
    const out = new Map<string, Neighbour[]>();
    const todo: string[] = [];
    for (const w of new Set(words)) {
      const hit = this.neighbourCache.get(w);
      if (hit && hit.length >= Math.min(k, this.meta.n - 1)) out.set(w, hit.slice(0, k));
      else if (this.ids.has(w)) todo.push(w);
      else out.set(w, []);
    }
    if (todo.length) {
      const queries = new Float32Array(todo.length * this.meta.dim);
      todo.forEach((w, r) => queries.set(this.row(this.ids.get(w)!), r * this.meta.dim));
      // One more than asked: the word itself comes first (or tied first) and is dropped.
      const rows = await this.search.top(queries, k + 1);
      this.searches += todo.length;
      onSearched?.(todo.length);
      todo.forEach((w, r) => {
        const self = this.ids.get(w)!;
        const { ids, cosines } = rows[r]!;
        const list: Neighbour[] = [];
        for (let j = 0; j < ids.length && list.length < k; j++) {
          if (ids[j] !== self) list.push({ word: this.words[ids[j]!]!, cosine: cosines[j]! });
        }
        remember(this.neighbourCache, w, list, NEIGHBOUR_CACHE);
        out.set(w, list);
      });
    }
    return out;
  }

  async close(): Promise<void> {
    await this.search.close();
    closeSync(this.fd);
  }

  private row(id: number): Float32Array {
    const hit = this.vectors.get(id);
    if (hit) return hit;
    const bytes = Buffer.alloc(this.meta.dim * 4);
    readSync(this.fd, bytes, 0, bytes.length, this.meta.vectorsOffset + id * this.meta.dim * 4);
    const v = new Float32Array(bytes.buffer, bytes.byteOffset, this.meta.dim).slice();
    remember(this.vectors, id, v, VECTOR_CACHE);
    return v;
  }
}

/** Map insertion with the oldest entry dropped past `max`. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}
