/**
 * Queries per success, before and after a change to the searches (issue 33 item 3: "spend no query you do not
 * need"). Runs each recipe in this process on the same model over the first N sentences of a data file, with a fixed
 * seed, and records per example its outcome (status and attacked text), `queries` (distinct model inputs: what the
 * user pays for), `requests` (every input the search asked for, repeats included: a repeat is answered from the
 * example's own session and never sent) and the engine's model inferences.
 *
 *   --save FILE    write the per-example records (run it on the code before the change)
 *   --before FILE  compare with such a file: the table gives before → after, and says whether every example's
 *                  outcome (status, attacked text, edits) is identical
 *
 * Usage: npx tsx bench/queries-bench.ts [--n 200] [--model models/demo-sst2] [--data ../shared/data/sst2/dev.tsv]
 *          [--recipes typos:k=1,typos:k=3,grammar:search=greedy,…] [--seed 0] [--save FILE] [--before FILE]
 * A recipe spec is `name:key=value:key=value` (values parsed as JSON when they are, else strings; lists comma-free
 * with '+': sources=pronounce+swap).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ExampleResult } from '../src/core/result.ts';
import { builtinRegistry } from '../src/families/index.ts';
import { runRecipe } from '../src/kinds/run.ts';
import type { RunSummary } from '../src/metrics/summary.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { openModel } from '../src/runner/open.ts';

const DEFAULT_RECIPES = [
  'typos:k=1',
  'typos:k=3',
  'typos:k=3:sources=pronounce',
  'typos:k=2:target=min',
  'grammar:search=greedy',
  'grammar:search=beam',
  'grammar:search=genetic',
  'pwws',
  'deepwordbug',
  'textbugger',
  'checklist',
];

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    model: { type: 'string', default: 'models/demo-sst2' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
    recipes: { type: 'string', default: DEFAULT_RECIPES.join(',') },
    seed: { type: 'string', default: '0' },
    save: { type: 'string' },
    before: { type: 'string' },
  },
});

interface Record_ {
  id: string;
  status: string;
  /** sha1 of the attacked text and the edits: equal outcomes, equal digests. */
  outcome: string;
  queries: number;
  requests: number;
}
interface RunRecord {
  spec: string;
  inferences: number;
  seconds: number;
  examples: Record_[];
}

function parseSpec(spec: string): { recipe: string; settings: Record<string, unknown> } {
  const [recipe, ...pairs] = spec.split(':');
  const settings: Record<string, unknown> = {};
  for (const p of pairs) {
    const [k, v] = p.split('=') as [string, string];
    let value: unknown;
    try {
      value = JSON.parse(v);
    } catch {
      value = v.includes('+') || k === 'sources' ? v.split('+') : v;
    }
    settings[k] = value;
  }
  return { recipe: recipe!, settings };
}

const model = await openModel({ model: values.model! });
const registry = builtinRegistry();
const runs: RunRecord[] = [];
for (const spec of values.recipes!.split(',')) {
  const { recipe, settings } = parseSpec(spec);
  const out = join(tmpdir(), `queries-bench-${process.pid}-${runs.length}`);
  const engine = new QueryEngine(model);
  const t0 = performance.now();
  await runRecipe({
    registry,
    recipe,
    settings,
    model: values.model!,
    data: values.data!,
    limit: Number(values.n),
    seed: Number(values.seed),
    out,
    overwrite: true,
    shared: { model, engine },
  });
  const seconds = (performance.now() - t0) / 1000;
  const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);
  runs.push({
    spec,
    inferences: engine.stats.inferences,
    seconds,
    examples: results.map((r) => ({
      id: r.id,
      status: r.status,
      outcome: createHash('sha1')
        .update(JSON.stringify([r.status, r.perturbed, r.edits, r.perturbed_prediction.label]))
        .digest('hex')
        .slice(0, 16),
      queries: r.queries,
      requests: r.requests,
    })),
  });
  const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
  process.stderr.write(`${spec}: ${s.succeeded}/${s.attacked} succeeded, ${seconds.toFixed(1)} s\n`);
}
await model.close?.();

if (values.save) writeFileSync(values.save, JSON.stringify({ model: values.model, data: values.data, n: Number(values.n), runs }, null, 1));

const before = values.before ? (JSON.parse(readFileSync(values.before, 'utf8')) as { runs: RunRecord[] }).runs : undefined;
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const perSuccess = (r: RunRecord): number => mean(r.examples.filter((e) => e.status === 'succeeded').map((e) => e.queries));
const sum = (r: RunRecord, k: 'queries' | 'requests'): number => r.examples.reduce((a, e) => a + e[k], 0);
const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const lines = [
  `| recipe | n | attacked | success | queries / success | queries / example | requests / example | model inferences | outcomes |`,
  `|---|---|---|---|---|---|---|---|---|`,
];
for (const r of runs) {
  const attacked = r.examples.filter((e) => e.status !== 'skipped').length;
  const ok = r.examples.filter((e) => e.status === 'succeeded').length;
  const b = before?.find((x) => x.spec === r.spec);
  const arrow = (x: number, y: number): string => (b ? `${f(x)} → ${f(y)}` : f(y));
  const n = r.examples.length;
  const same = b
    ? b.examples.length === n && b.examples.every((e, i) => e.id === r.examples[i]!.id && e.outcome === r.examples[i]!.outcome)
      ? 'identical'
      : `${b.examples.filter((e, i) => e.outcome !== r.examples[i]?.outcome).length} differ`
    : '—';
  lines.push(
    `| ${r.spec} | ${n} | ${attacked} | ${ok} (${((100 * ok) / Math.max(1, attacked)).toFixed(1)}%) | ` +
      `${arrow(b ? perSuccess(b) : NaN, perSuccess(r))} | ${arrow(b ? sum(b, 'queries') / n : NaN, sum(r, 'queries') / n)} | ` +
      `${arrow(b ? sum(b, 'requests') / n : NaN, sum(r, 'requests') / n)} | ${b ? `${b.inferences} → ` : ''}${r.inferences} | ${same} |`,
  );
}
process.stdout.write(lines.join('\n') + '\n');
