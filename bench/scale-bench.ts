/**
 * Scale benchmark (hardening issue): a noise attack over N SST-2-style rows (default 1,000,000) must finish with a
 * summary in bounded memory — peak RSS under 500 MB and flat from 100,000 rows on — and the report must read the
 * run without holding it. Prints RSS at every 100,000 examples, the peak, wall time, results.jsonl size, and the
 * report's time and peak.
 *
 *   npx tsx bench/scale-bench.ts                          # 1,000,000 rows, a fast in-process lexicon model
 *   npx tsx bench/scale-bench.ts --rows 100000 --model models/demo-sst2
 *   npx tsx bench/scale-bench.ts --compact                # compact results.jsonl
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFunctionModel } from '../src/models/function-adapter.ts';
import { loadModel } from '../src/models/load.ts';
import type { ModelAdapter, ModelOutput } from '../src/models/types.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { builtinRegistry } from '../src/families/index.ts';
import { writeHtmlReport } from '../src/report/html/index.ts';
import { runRecipe } from '../src/kinds/run.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    model: { type: 'string', default: 'lexicon' },
    compact: { type: 'boolean', default: false },
    out: { type: 'string', default: join(tmpdir(), 'textstress-scale') },
    'cache-mb': { type: 'string', default: '32' },
  },
});
const ROWS = Number(values.rows);
const OUT = values.out!;
mkdirSync(OUT, { recursive: true });

/** A deterministic scorer with no model weights: P(positive) from a few sentiment words. */
function lexicon(): ModelAdapter {
  const pos = new Set(['good', 'great', 'fun', 'best', 'love', 'funny', 'beautiful', 'charming', 'smart', 'moving']);
  const neg = new Set(['bad', 'dull', 'worst', 'boring', 'mess', 'stupid', 'flat', 'tedious', 'waste', 'lame']);
  return createFunctionModel(
    (inputs) =>
      inputs.map((input): ModelOutput => {
        const words = input.kind === 'text' ? input.text.toLowerCase().split(/\s+/) : [];
        let s = 0;
        for (const w of words) s += pos.has(w) ? 1 : neg.has(w) ? -1 : 0;
        const p = 1 / (1 + Math.exp(-s));
        return { kind: 'classes', labels: ['negative', 'positive'], probs: [1 - p, p] };
      }),
    { id: 'function:lexicon', task: 'text-classification', labels: ['negative', 'positive'] },
    { maxBatchSize: 1024 },
  );
}

async function makeData(path: string): Promise<void> {
  const sst2 = join('..', 'shared', 'data', 'sst2', 'dev.tsv');
  const source = existsSync(sst2) ? sst2 : join('demo', 'reviews.tsv');
  const rows = readFileSync(source, 'utf8').split('\n').slice(1).filter(Boolean);
  const out = createWriteStream(path);
  out.write('sentence\tlabel\n');
  for (let i = 0; i < ROWS; i++) {
    if (!out.write(rows[i % rows.length] + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(r));
}

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const data = join(OUT, `rows-${ROWS}.tsv`);
  if (!existsSync(data)) await makeData(data);
  const model = values.model === 'lexicon' ? lexicon() : await loadModel(values.model!);
  const engine = new QueryEngine(model, { cacheBytes: Number(values['cache-mb']) * 1024 * 1024 });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const marks: [number, number][] = [];
  const t0 = performance.now();
  const run = join(OUT, values.compact ? 'run-compact' : 'run');
  const outcome = await runRecipe({
    registry: builtinRegistry(),
    recipe: 'noise',
    settings: { noise: 'swap' },
    model: values.model!,
    data,
    out: run,
    seed: 0,
    overwrite: true,
    compact: values.compact,
    shared: { model, engine },
    progress: {
      start: () => ({
        update(done) {
          if (done % 100_000 === 0) {
            // With --expose-gc, also the live heap after a full collection: what the run really holds.
            const gc = (globalThis as { gc?: () => void }).gc;
            if (gc) {
              gc();
              process.stderr.write(`  live heap after GC: ${mb(process.memoryUsage().heapUsed)}\n`);
            }
            marks.push([done, process.memoryUsage().rss]);
            process.stderr.write(
              `  ${done.toLocaleString('en')} examples · RSS ${mb(process.memoryUsage().rss)} · ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
            );
          }
        },
        stop() {},
      }),
    },
  });
  const attackSeconds = (performance.now() - t0) / 1000;
  const attackPeak = peak;
  if (outcome.kind !== 'attack') throw new Error('expected a run');
  peak = 0;
  const t1 = performance.now();
  const report = await writeHtmlReport([run], join(OUT, 'report.html'));
  const reportSeconds = (performance.now() - t1) / 1000;
  clearInterval(sampler);
  const result = {
    rows: ROWS,
    model: values.model,
    compact: values.compact,
    n: outcome.summary.n,
    attacked_accuracy: outcome.summary.attacked_accuracy,
    attack_seconds: Math.round(attackSeconds),
    attack_peak_rss_mb: Math.round(attackPeak / 1024 / 1024),
    rss_by_examples_mb: marks.map(([n, rss]) => [n, Math.round(rss / 1024 / 1024)]),
    results_jsonl_mb: Math.round(statSync(join(run, 'results.jsonl')).size / 1024 / 1024),
    bytes_per_example: Math.round(statSync(join(run, 'results.jsonl')).size / outcome.summary.n),
    report_seconds: Math.round(reportSeconds * 10) / 10,
    report_peak_rss_mb: Math.round(peak / 1024 / 1024),
    report_kib: Math.round(report.bytes / 1024),
    cache: engine.cacheUse,
  };
  writeFileSync(join(OUT, `scale-${ROWS}${values.compact ? '-compact' : ''}.json`), JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  await model.close?.();
}

await main();
