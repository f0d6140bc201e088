/**
 * The binary index of a word-vector text file, built once and reused: a 4 KiB JSON header, the unit-length vectors
 * (float32, row-major, page-aligned so onnxruntime can memory-map them) and the words, one per line. It lives next to
 * the text file (`glove.txt` → `glove.txt.tsidx`), or in the cache folder when that folder is not writable, and is
 * keyed by the text file's size, modification time and content hash: a changed file is indexed again. The user's
 * file is only ever read.
 */
import {
  createReadStream,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  accessSync,
  constants,
} from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultCacheDir } from '../../util/cache-dir.ts';
import { TextstressError } from '../../util/errors.ts';
import { readEmbeddingText } from './text-format.ts';

export const INDEX_VERSION = 1;
const MAGIC = 'textstress word-vector index\n';
/** Header bytes; the vectors start here (a page boundary, so they can be memory-mapped). */
export const HEADER_BYTES = 4096;

/** What the header of an index records. */
export interface IndexMeta {
  version: number;
  /** Words (duplicates of an earlier word are left out). */
  n: number;
  dim: number;
  /** The text file had a word2vec header line. */
  header: boolean;
  /** Lines whose word came earlier in the file: the first vector of a word is kept, as dictionaries keep it. */
  duplicates: number;
  source: SourceKey;
  vectorsOffset: number;
  wordsOffset: number;
  wordsBytes: number;
}

/** How an index knows its text file: size, modification time, a hash of three slices, and the whole file's SHA-256. */
export interface SourceKey {
  path: string;
  size: number;
  mtimeMs: number;
  sample: string;
  sha256: string;
}

/** An index ready to read, and whether this call built it. */
export interface IndexFile {
  path: string;
  meta: IndexMeta;
  built: boolean;
}

/** Where the index of `file` may live: next to it, then the cache folder. */
export function indexLocations(file: string, cacheDir: string = join(defaultCacheDir(), 'embeddings')): string[] {
  const abs = resolve(file);
  const keyed = `${createHash('sha1').update(abs).digest('hex').slice(0, 12)}-${basename(abs)}.tsidx`;
  return [`${abs}.tsidx`, join(cacheDir, keyed)];
}

/**
 * The index of `file`: an existing one whose key matches, else a new one built in one streaming pass (written to a
 * temporary file and renamed, so a run beside this one never reads half an index).
 */
export async function ensureIndex(file: string, opts: { cacheDir?: string } = {}): Promise<IndexFile> {
  const abs = resolve(file);
  let stat;
  try {
    stat = statSync(abs);
  } catch (err) {
    throw new TextstressError(`cannot read the word vectors ${abs}: ${(err as Error).message}`, {
      hint: 'Give --embeddings a GloVe-style text file (one "word v1 … vd" per line).',
    });
  }
  if (!stat.isFile()) throw new TextstressError(`the word vectors ${abs} are not a file.`);
  const sample = sampleHash(abs, stat.size);
  const locations = indexLocations(abs, opts.cacheDir);
  let fullHash: string | undefined;
  for (const path of locations) {
    const meta = readMeta(path);
    if (!meta || meta.source.size !== stat.size || meta.source.sample !== sample) continue;
    if (meta.source.mtimeMs !== stat.mtimeMs) {
      // Touched or copied: the same bytes still make the same index.
      fullHash ??= await fileSha256(abs);
      if (fullHash !== meta.source.sha256) continue;
    }
    return { path, meta, built: false };
  }
  const target = writableLocation(locations);
  const meta = await buildIndex(abs, target, { path: abs, size: stat.size, mtimeMs: stat.mtimeMs, sample, sha256: '' });
  return { path: target, meta, built: true };
}

/** The header of an index, or undefined when the file is missing, of another version, or cut short. */
export function readMeta(path: string): IndexMeta | undefined {
  if (!existsSync(path)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, head, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return undefined;
    const text = head.toString('utf8');
    if (!text.startsWith(MAGIC)) return undefined;
    const meta = JSON.parse(text.slice(MAGIC.length).trimEnd()) as IndexMeta;
    if (meta.version !== INDEX_VERSION) return undefined;
    if (statSync(path).size !== meta.wordsOffset + meta.wordsBytes) return undefined;
    return meta;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The first location whose folder takes a new file (the cache folder is made when needed). */
function writableLocation(locations: readonly string[]): string {
  for (const path of locations) {
    const dir = dirname(path);
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      return path;
    } catch {
      // Read-only next to the file: try the cache folder.
    }
  }
  throw new TextstressError(`no writable place for the index of the word vectors: tried ${locations.map(dirname).join(' and ')}.`, {
    hint: 'Point TEXTSTRESS_CACHE_DIR at a writable folder.',
  });
}

/** SHA-256 of the file's size and three 64 KiB slices (start, middle, end): cheap enough to check on every open. */
function sampleHash(path: string, size: number): string {
  const hash = createHash('sha256').update(String(size));
  const fd = openSync(path, 'r');
  try {
    const slice = Buffer.alloc(65536);
    for (const at of [0, Math.max(0, Math.floor(size / 2) - 32768), Math.max(0, size - 65536)]) {
      const n = readSync(fd, slice, 0, slice.length, at);
      hash.update(slice.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

const CHUNK_FLOATS = 1 << 20;

async function buildIndex(file: string, target: string, source: SourceKey): Promise<IndexMeta> {
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const seen = new Set<string>();
    const words: string[] = [];
    let duplicates = 0;
    let staged = new Float32Array(0);
    let used = 0;
    let pos = HEADER_BYTES;
    const flush = (): void => {
      if (!used) return;
      pos += writeSync(fd, new Uint8Array(staged.buffer, 0, used * 4), 0, used * 4, pos);
      used = 0;
    };
    const info = await readEmbeddingText(file, (word, vector) => {
      if (seen.has(word)) {
        duplicates++;
        return;
      }
      seen.add(word);
      words.push(word);
      const dim = vector.length;
      if (staged.length === 0) staged = new Float32Array(Math.max(dim, Math.floor(CHUNK_FLOATS / dim) * dim));
      if (used + dim > staged.length) flush();
      // Unit length, so a dot product is the cosine; a zero vector stays zero (similar to nothing).
      let norm = 0;
      for (let k = 0; k < dim; k++) norm += vector[k]! * vector[k]!;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let k = 0; k < dim; k++) staged[used + k] = vector[k]! * scale;
      used += dim;
    });
    flush();
    const wordBytes = Buffer.from(words.join('\n'), 'utf8');
    writeSync(fd, wordBytes, 0, wordBytes.length, pos);
    const meta: IndexMeta = {
      version: INDEX_VERSION,
      n: words.length,
      dim: info.dim,
      header: info.header,
      duplicates,
      source: { ...source, sha256: info.sha256 },
      vectorsOffset: HEADER_BYTES,
      wordsOffset: pos,
      wordsBytes: wordBytes.length,
    };
    const head = Buffer.alloc(HEADER_BYTES, ' ');
    const json = MAGIC + JSON.stringify(meta);
    if (Buffer.byteLength(json) > HEADER_BYTES) throw new Error(`the index header of ${file} is longer than ${HEADER_BYTES} bytes`);
    head.write(json, 0, 'utf8');
    writeSync(fd, head, 0, HEADER_BYTES, 0);
    closeSync(fd);
    renameSync(tmp, target);
    return meta;
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    if (existsSync(tmp)) unlinkSync(tmp);
    throw err;
  }
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}
