// Report generation at scale: 10,000 example results → one HTML report.
//   npx tsx bench/report-bench.ts [--n 10000]
// Writes synthetic but realistic run folders (SST-2-like sentences, 1–3 typed edits each, all outcomes) into
// bench/.out/report-bench, then times `writeHtmlReport` (read JSONL, metrics, charts, example browser, write)
// and checks the goals: < 5 s and < 5 MB.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import type { ExampleResult } from '../src/core/result.ts';
import { writeHtmlReport } from '../src/report/html/index.ts';
import { Rng } from '../src/util/rng.ts';
import { fakeResult, replaceEdit, writeRun } from '../test/report/fixtures.ts';

const arg = (name: string, d: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const N = arg('--n', 10_000);
const OUT = join(import.meta.dirname, '.out', 'report-bench');

function sentences(): string[] {
  const sst2 = join(import.meta.dirname, '..', '..', 'shared', 'data', 'sst2', 'dev.tsv');
  const own = join(import.meta.dirname, '..', 'demo', 'reviews.tsv');
  const file = existsSync(sst2) ? sst2 : own;
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]!)
    .filter((s) => s.split(' ').length > 3);
}

function synth(n: number, family: 'typos' | 'noise' | 'grammar', types: string[], seed: number): ExampleResult[] {
  const rng = new Rng(seed);
  const pool = sentences();
  const out: ExampleResult[] = [];
  for (let i = 0; i < n; i++) {
    const text = pool[i % pool.length]!;
    const roll = rng.next();
    if (roll < 0.15) {
      out.push(fakeResult(i, { text, status: 'skipped' }));
      continue;
    }
    const words = text.split(' ').filter((w) => w.length > 2);
    let perturbed = text;
    const edits = [];
    const k = 1 + Math.floor(rng.next() * 3);
    const used = new Set<string>();
    for (let e = 0; e < k && words.length; e++) {
      const w = words[Math.floor(rng.next() * words.length)]!;
      if (used.has(w) || !perturbed.includes(` ${w} `)) continue;
      used.add(w);
      const after = family === 'grammar' ? `${w}s` : `${w.slice(1)}${w[0]}`;
      const r = replaceEdit(perturbed, ` ${w} `, ` ${after} `, types[Math.floor(rng.next() * types.length)]!);
      edits.push({ ...r.edit, start: r.edit.start + 1, before: w, after });
      perturbed = r.perturbed;
    }
    out.push(fakeResult(i, { text, perturbed, edits, ...(roll < 0.4 || edits.length === 0 ? { status: 'failed' } : {}) }));
  }
  return out;
}

rmSync(OUT, { recursive: true, force: true });
// 10,000 examples over three families: typos (60%), noise (20%), grammar (20%, two searches).
const typoTypes = ['typo:swap', 'typo:mistype', 'typo:insertion', 'typo:deletion', 'typo:pronounce', 'typo:replace-word'];
const grammarTypes = ['grammar:ArtOrDet', 'grammar:Prep', 'grammar:SVA', 'grammar:Vform', 'grammar:Nn', 'grammar:Wchoice'];
writeRun(join(OUT, 'runs', 'typos-max-k3'), 'typos', { target: 'max', k: 3 }, synth(Math.round(N * 0.6), 'typos', typoTypes, 1));
writeRun(join(OUT, 'runs', 'noise-swap'), 'noise', { noise: 'swap' }, synth(Math.round(N * 0.2), 'noise', ['noise:swap'], 2));
writeRun(
  join(OUT, 'runs', 'grammar-greedy'),
  'grammar',
  { search: 'greedy', budget: 0.45 },
  synth(Math.round(N * 0.1), 'grammar', grammarTypes, 3),
);
writeRun(
  join(OUT, 'runs', 'grammar-beam'),
  'grammar',
  { search: 'beam', budget: 0.45 },
  synth(N - Math.round(N * 0.6) - Math.round(N * 0.2) - Math.round(N * 0.1), 'grammar', grammarTypes, 4),
);
const jsonl = ['typos-max-k3', 'noise-swap', 'grammar-greedy', 'grammar-beam'].reduce(
  (s, d) => s + statSync(join(OUT, 'runs', d, 'results.jsonl')).size,
  0,
);

const file = join(OUT, 'report.html');
const times: number[] = [];
let last = { bytes: 0, runs: 0, examples: 0 };
for (let rep = 0; rep < 3; rep++) {
  const t0 = performance.now();
  last = await writeHtmlReport([join(OUT, 'runs')], file);
  times.push((performance.now() - t0) / 1000);
}
const best = Math.min(...times);
const first = times[0]!;
const mb = last.bytes / 1024 / 1024;
process.stdout.write(
  [
    `report-bench: ${last.examples} examples in ${last.runs} runs (${(jsonl / 1024 / 1024).toFixed(1)} MB of ` +
      `results.jsonl), ${cpus().length} cores, node ${process.version}`,
    `  report time: first ${first.toFixed(2)} s (cold: module + chart compile), best of 3 ${best.toFixed(2)} s   goal < 5 s  ${first < 5 ? 'OK' : 'MISSED'}`,
    `  report size: ${mb.toFixed(2)} MB (example browser: a sample of ≤ 3000 of ${last.examples})   goal < 5 MB  ${mb < 5 ? 'OK' : 'MISSED'}`,
    `  file: ${file}`,
  ].join('\n') + '\n',
);
