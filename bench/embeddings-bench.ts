/**
 * The word-vector index behind `--embeddings` (src/data/embeddings) on a synthetic GloVe-format file: building the
 * index once (throughput, peak memory), opening it again, and nearest-neighbour queries — the onnxruntime Gemm+TopK
 * graph against a plain JavaScript loop over the same unit vectors, alternated A B A B (paired, same words), with
 * both answers checked equal.
 *
 * The file holds `--words` random words × `--dim` seeded pseudo-random numbers (4 decimals), written once to a
 * temporary folder: not real vectors (their neighbours mean nothing), the same size and parsing work as real ones.
 * GloVe 6B is 400,000 × 300; counter-fitted PARAGRAM (TextFooler's) 65,713 × 300; GloVe 840B 2.2 M × 300.
 *
 * Usage: npx tsx bench/embeddings-bench.ts [--words 100000] [--dim 300] [--queries 20] [--k 50] [--rounds 5]
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WordEmbeddings, ensureIndex, readMeta } from '../src/data/embeddings/index.ts';
import { Rng } from '../src/util/rng.ts';

const { values } = parseArgs({
  options: {
    words: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '300' },
    queries: { type: 'string', default: '20' },
    k: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
  },
});
const N = Number(values.words);
const D = Number(values.dim);
const Q = Number(values.queries);
const K = Number(values.k);

async function writeFile(path: string): Promise<void> {
  const rng = new Rng('embeddings-bench');
  const out = createWriteStream(path);
  for (let i = 0; i < N; i++) {
    let line = `w${i}`;
    for (let d = 0; d < D; d++) line += ` ${(rng.next() * 2 - 1).toFixed(4)}`;
    if (!out.write(line + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

/** The k nearest by a JavaScript loop over all unit vectors (the baseline), the word itself left out. */
function bruteForce(vectors: Float32Array, words: readonly number[], k: number): number[][] {
  return words.map((w) => {
    const q = vectors.subarray(w * D, (w + 1) * D);
    const scores = new Float32Array(N);
    for (let r = 0; r < N; r++) {
      let s = 0;
      const base = r * D;
      for (let d = 0; d < D; d++) s += vectors[base + d]! * q[d]!;
      scores[r] = s;
    }
    return Array.from(scores.keys())
      .filter((r) => r !== w)
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, k);
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'emb-bench-'));
  try {
    const file = join(dir, 'vectors.txt');
    let t = performance.now();
    await writeFile(file);
    const mb = statSync(file).size / 1e6;
    process.stderr.write(`wrote ${mb.toFixed(0)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);

    const rss0 = process.resourceUsage().maxRSS / 1024;
    t = performance.now();
    await ensureIndex(file, { cacheDir: join(dir, 'cache') });
    const buildS = (performance.now() - t) / 1000;
    const rss1 = process.resourceUsage().maxRSS / 1024;
    t = performance.now();
    const emb = await WordEmbeddings.open(file, { cacheDir: join(dir, 'cache') });
    const openS = (performance.now() - t) / 1000;
    const rss2 = process.resourceUsage().maxRSS / 1024;

    // The baseline reads the same unit vectors the index holds.
    const meta = readMeta(emb.info.index)!;
    const raw = readFileSync(emb.info.index).subarray(meta.vectorsOffset, meta.vectorsOffset + N * D * 4);
    const vectors = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));

    const rng = new Rng('queries');
    const onnxMs: number[] = [];
    const jsMs: number[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      // Fresh words each round: nothing answered from the index's cache.
      const ids = Array.from({ length: Q }, () => rng.int(N));
      t = performance.now();
      const got = await emb.neighbours(
        ids.map((i) => `w${i}`),
        K,
      );
      onnxMs.push((performance.now() - t) / Q);
      t = performance.now();
      const want = bruteForce(vectors, ids, K);
      jsMs.push((performance.now() - t) / Q);
      ids.forEach((w, j) => {
        const a = got.get(`w${w}`)!.map((n) => n.word);
        const b = want[j]!.map((r) => `w${r}`);
        if (a.join() !== b.join()) throw new Error(`round ${round}: the neighbours of w${w} differ between the graph and the loop`);
      });
    }
    await emb.close();
    const lines = [
      `Word-vector index on ${N.toLocaleString('en')} × ${D} synthetic vectors (${mb.toFixed(0)} MB of text); ` +
        `k = ${K}, ${Q} words a query, ${values.rounds} rounds.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| index build (one streaming pass) | ${buildS.toFixed(1)} s (${(mb / buildS).toFixed(0)} MB/s) |`,
      `| index size | ${(statSync(emb.info.index).size / 1e6).toFixed(0)} MB |`,
      `| peak RSS after the build | ${rss1.toFixed(0)} MB (${rss0.toFixed(0)} MB before) |`,
      `| open the built index (words read, onnxruntime session made) | ${(openS * 1000).toFixed(0)} ms; peak RSS ${rss2.toFixed(0)} MB |`,
      `| neighbours per word, onnxruntime graph (median of rounds) | ${median(onnxMs).toFixed(2)} ms |`,
      `| neighbours per word, JavaScript loop (median of rounds) | ${median(jsMs).toFixed(2)} ms |`,
      `| ratio, loop / graph (per round: ${onnxMs.map((o, i) => (jsMs[i]! / o).toFixed(0)).join(', ')}) | ${(median(jsMs) / median(onnxMs)).toFixed(0)}× |`,
      '',
      'Both give the same neighbours in the same order (checked for every query).',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
