/**
 * Word embeddings from a GloVe-style text file (src/data/embeddings): the index is built once, reused while the file
 * is unchanged, built again when it changes, never writes to the user's file, and answers nearest-neighbour queries
 * exactly as a brute-force cosine ranking of the text file does. Malformed files fail naming file:line.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { WordEmbeddings, indexLocations, readEmbeddingText } from '../../src/data/embeddings/index.ts';
import { DataError } from '../../src/util/errors.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/embeddings/demo-mlm-8d.txt', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ts-emb-'));
const cacheDir = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text file parsed independently of the reader: word → unit vector, in file order. */
function parse(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const [w, ...xs] = line.trim().split(' ');
    const v = xs.map(Number);
    const n = Math.hypot(...v);
    if (!out.has(w!))
      out.set(
        w!,
        v.map((x) => x / n),
      );
  }
  return out;
}

function bruteForce(vectors: Map<string, number[]>, word: string, k: number): { word: string; cosine: number }[] {
  const q = vectors.get(word)!;
  return [...vectors]
    .filter(([w]) => w !== word)
    .map(([w, v]) => ({ word: w, cosine: v.reduce((s, x, i) => s + x * q[i]!, 0) }))
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, k);
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

function copyFixture(name: string): string {
  const path = join(dir, name);
  copyFileSync(FIXTURE, path);
  return path;
}

describe('word embeddings from a text file', () => {
  it('indexes once next to the file, answers k nearest neighbours as a brute-force cosine ranking, and leaves the file alone', async () => {
    const file = copyFixture('vectors.txt');
    const before = { sha: sha(file), mtime: statSync(file).mtimeMs };
    const emb = await WordEmbeddings.open(file, { cacheDir });
    try {
      expect(emb.info).toMatchObject({ built: true, words: 300, dim: 8, duplicates: 0, index: `${file}.tsidx` });
      const truth = parse(readFileSync(FIXTURE, 'utf8'));
      const got = await emb.neighbours(['good', 'film', 'notaword'], 5);
      for (const w of ['good', 'film']) {
        const expected = bruteForce(truth, w, 5);
        expect(got.get(w)!.map((n) => n.word)).toEqual(expected.map((n) => n.word));
        got.get(w)!.forEach((n, i) => expect(n.cosine).toBeCloseTo(expected[i]!.cosine, 5));
      }
      expect(got.get('notaword')).toEqual([]);
      expect(emb.searches).toBe(2);
      // Answered from memory the second time; a larger k searches again.
      await emb.neighbours(['good'], 5);
      expect(emb.searches).toBe(2);
      expect((await emb.neighbours(['good'], 50)).get('good')!.map((n) => n.word)).toEqual(
        bruteForce(truth, 'good', 50).map((n) => n.word),
      );
      expect(emb.cosine('good', 'film')).toBeCloseTo(
        truth.get('good')!.reduce((s, x, i) => s + x * truth.get('film')![i]!, 0),
        6,
      );
      expect(emb.cosine('good', 'notaword')).toBeUndefined();
    } finally {
      await emb.close();
    }
    expect({ sha: sha(file), mtime: statSync(file).mtimeMs }).toEqual(before);

    // Reused while the file is unchanged, and while only its modification time changed (same bytes).
    const again = await WordEmbeddings.open(file, { cacheDir });
    expect(again.info.built).toBe(false);
    await again.close();
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const touched = await WordEmbeddings.open(file, { cacheDir });
    expect(touched.info.built).toBe(false);
    await touched.close();

    // A changed file is indexed again, and its new words are found.
    appendFileSync(file, 'zzword 1 0 0 0 0 0 0 0\n');
    const changed = await WordEmbeddings.open(file, { cacheDir });
    try {
      expect(changed.info).toMatchObject({ built: true, words: 301 });
      expect(changed.has('zzword')).toBe(true);
      expect((await changed.neighbours(['zzword'], 1)).get('zzword')).toHaveLength(1);
    } finally {
      await changed.close();
    }
  });

  it('finds an index kept in the cache folder, keyed by the file path', async () => {
    const file = copyFixture('cached.txt');
    const [beside, cached] = indexLocations(file, cacheDir);
    expect(beside).toBe(`${file}.tsidx`);
    expect(cached!.startsWith(cacheDir)).toBe(true);
    // Built beside the file, then moved to the cache folder as a read-only folder would have had it.
    const first = await WordEmbeddings.open(file, { cacheDir });
    await first.close();
    const { mkdirSync, renameSync } = await import('node:fs');
    mkdirSync(cacheDir, { recursive: true });
    renameSync(beside!, cached!);
    const second = await WordEmbeddings.open(file, { cacheDir });
    expect(second.info).toMatchObject({ built: false, index: cached });
    await second.close();
  });

  it('reads a word2vec header line, CRLF line ends, words with spaces, and keeps the first of duplicate words', async () => {
    const file = join(dir, 'w2v.txt');
    writeFileSync(file, '4 3\r\nup 1 0 0 \r\n. . . 0 1 0\r\nup 0 0 1\r\ndown 0.9 0.1 0');
    const emb = await WordEmbeddings.open(file, { cacheDir });
    try {
      expect(emb.info).toMatchObject({ words: 3, dim: 3, duplicates: 1 });
      expect(emb.has('. . .')).toBe(true);
      expect((await emb.neighbours(['up'], 2)).get('up')!.map((n) => n.word)).toEqual(['down', '. . .']);
    } finally {
      await emb.close();
    }
  });

  it('names file and line of a malformed vector, and a header that does not match the file', async () => {
    const cases: [string, number, RegExp][] = [
      ['a 1 2 3\nb 1 2\n', 2, /a word and 3 numbers.*found 2/],
      ['a 1 2 3\nb 1 x 3\n', 2, /"x" \(field 3\) is not a finite number/],
      ['a 1 2 3\n\nb 1 2 NaN\n', 3, /"NaN"/],
      ['3 2\na 1 2\nb 1 2\n', 3, /header line says 3 vectors, the file has 2/],
      ['\n\n', 2, /no word vectors/],
    ];
    for (const [text, line, message] of cases) {
      const file = join(dir, `bad-${line}-${cases.findIndex((c) => c[0] === text)}.txt`);
      writeFileSync(file, text);
      const err = await WordEmbeddings.open(file, { cacheDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).where).toBe(`${file}:${line}`);
      expect((err as DataError).message).toMatch(message);
      // Nothing half-built is left behind.
      expect(() => statSync(`${file}.tsidx`)).toThrow();
    }
  });

  it('streams the file: the reader reports each vector with its line number', async () => {
    const seen: [string, number][] = [];
    const info = await readEmbeddingText(FIXTURE, (w, _v, line) => {
      if (line <= 3) seen.push([w, line]);
    });
    expect(seen).toEqual([
      ['the', 1],
      ['a', 2],
      ['and', 3],
    ]);
    expect(info).toMatchObject({ dim: 8, count: 300, header: false, sha256: sha(FIXTURE) });
  });
});
