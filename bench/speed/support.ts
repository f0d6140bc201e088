/**
 * What the real-size speed benchmarks (bench/speed/*.ts, issue 33) share: the machine and its load, paired A/B
 * rounds with medians and distribution-free intervals, the model's FLOPs per row, synthetic rows, tables, and the
 * JSON every script writes (bench/.out/speed/<name>.json, plus one line appended to bench/.out/speed/runs.jsonl).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const OUT_DIR = 'bench/.out/speed';
/** The BERT-base-shaped benchmark model `npm run bench:model` builds. */
export const BENCH_MODEL = 'models/extra/bench-base';
export const SST2 = existsSync('../shared/data/sst2/dev.tsv') ? '../shared/data/sst2/dev.tsv' : 'demo/reviews.tsv';

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(path.join('node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** The machine, the software and the load now: what every table's heading states. */
export function machine(): Record<string, unknown> {
  const c = cpus();
  return {
    date: new Date().toISOString(),
    cpu: c[0]?.model.trim() ?? '?',
    cores: c.length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    onnxruntime_node: version('onnxruntime-node'),
    transformers_js: version('@huggingface/transformers'),
    load_avg_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** A model folder that must exist, or a one-line hint and exit. */
export function needModel(dir: string): string {
  if (!existsSync(path.join(dir, 'onnx', 'model.onnx'))) {
    console.error(`${dir}/onnx/model.onnx is missing: build it first with \`npm run bench:model\` (see BENCHMARKS.md).`);
    process.exit(2);
  }
  return dir;
}

/** Command-line options with string values (node:util parseArgs), defaults given. */
export function args<K extends string>(defaults: Record<K, string>): Record<K, string> {
  const options = Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, { type: 'string' as const, default: v as string }]));
  return parseArgs({ options, allowPositionals: false }).values as Record<K, string>;
}

export const list = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The model's shape as config.json gives it. */
export interface Shape {
  layers: number;
  hidden: number;
  inter: number;
  heads: number;
  labels: number;
  vocab: number;
}

export function shapeOf(dir: string): Shape {
  const c = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  return {
    layers: Number(c.num_hidden_layers),
    hidden: Number(c.hidden_size),
    inter: Number(c.intermediate_size),
    heads: Number(c.num_attention_heads),
    labels: Object.keys((c.id2label as object | undefined) ?? { 0: 0, 1: 1 }).length,
    vocab: Number(c.vocab_size),
  };
}

/**
 * Floating-point operations (a multiply-add counts 2) of one row of `t` tokens through a BERT encoder and its
 * classification head: per layer the Q, K, V and output projections (4 · 2tH²), the attention scores and the
 * weighted values (2 · 2t²H) and the feed-forward block (2 · 2tHI); then the pooler and classifier (2H² + 2HC).
 * Embedding look-ups, layer norms, softmax and GELU are left out (memory-bound, under 1% of the multiply-adds).
 */
export function flopsPerRow(s: Shape, t: number): number {
  const perLayer = 8 * t * s.hidden * s.hidden + 4 * t * t * s.hidden + 4 * t * s.hidden * s.inter;
  return s.layers * perLayer + 2 * s.hidden * s.hidden + 2 * s.hidden * s.labels;
}

/** `n` rows of `t` ids each (deterministic ids below `vocab`, past the first 1,000 where BERT keeps its special tokens). */
export function rows(n: number, t: number, vocab = 30_522, seed = 1): number[][] {
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: t }, (_, j) => 1000 + ((i * 7919 + j * 104_729 + seed * 31) % (vocab - 1000))),
  );
}

/**
 * Seconds one call takes, repeated until `minSeconds` have passed (at least `minRepeats` times): the mean over the
 * repeats, and the fastest one (`best`: on a machine shared with other work, the least disturbed repeat).
 */
export async function timeIt(
  f: () => Promise<unknown>,
  minSeconds = 1,
  minRepeats = 1,
): Promise<{ seconds: number; best: number; repeats: number }> {
  const t0 = performance.now();
  let repeats = 0;
  let best = Infinity;
  do {
    const t1 = performance.now();
    await f();
    best = Math.min(best, (performance.now() - t1) / 1000);
    repeats++;
  } while (performance.now() - t0 < minSeconds * 1000 || repeats < minRepeats);
  return { seconds: (performance.now() - t0) / 1000 / repeats, best, repeats };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The median of `xs` with a distribution-free interval from order statistics: the widest pair (x(k), x(n+1−k))
 * whose coverage 1 − 2·P(Binomial(n, ½) < k) is at least 95%; below 6 values no pair reaches 95%, so the interval
 * is the range and `coverage` says what it covers (n = 5: 93.8%).
 */
export function medianInterval(xs: readonly number[]): { median: number; low: number; high: number; n: number; coverage: number } {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const below = (k: number): number => {
    // P(Binomial(n, 1/2) < k)
    let p = 0;
    let c = 1;
    for (let i = 0; i < k; i++) {
      p += c;
      c = (c * (n - i)) / (i + 1);
    }
    return p / 2 ** n;
  };
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * below(k + 1) >= 0.95) k++;
  return { median: median(s), low: s[k - 1]!, high: s[n - k]!, n, coverage: Math.round((1 - 2 * below(k)) * 1000) / 1000 };
}

/**
 * Paired rounds: every arm runs once per round, in an order that rotates from round to round (A B C, B C A, …), so
 * a change in the machine's load falls on every arm alike. Returns each arm's seconds per round.
 */
export async function pairedRounds(
  arms: Record<string, () => Promise<number>>,
  rounds: number,
  onRound?: (round: number) => void,
): Promise<Record<string, number[]>> {
  const names = Object.keys(arms);
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length]!;
      out[name]!.push(await arms[name]!());
    }
    onRound?.(r);
  }
  return out;
}

/** Each arm's seconds against the reference arm's, round by round: median ratio and its interval. */
export function ratios(samples: Record<string, number[]>, reference: string): Record<string, ReturnType<typeof medianInterval>> {
  const ref = samples[reference]!;
  return Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, medianInterval(xs.map((x, i) => x / ref[i]!))]));
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
export const fmt = (x: number, digits = 2): string => x.toFixed(digits);
export const ratioText = (r: ReturnType<typeof medianInterval>): string => `${fmt(r.median)}× [${fmt(r.low)}, ${fmt(r.high)}]`;

/** A markdown table. */
export function table(headers: readonly string[], body: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...body.map(line)].join('\n');
}

/** Writes bench/.out/speed/<name>.json and appends the same record, one line, to runs.jsonl. */
export function record(name: string, payload: Record<string, unknown>): void {
  mkdirSync(OUT_DIR, { recursive: true });
  const entry = { bench: name, machine: machine(), ...payload };
  writeFileSync(path.join(OUT_DIR, `${name}.json`), JSON.stringify(entry, null, 2) + '\n');
  appendFileSync(path.join(OUT_DIR, 'runs.jsonl'), JSON.stringify(entry) + '\n');
  console.log(`\nwrote ${path.join(OUT_DIR, `${name}.json`)}`);
}

/** Resident set size of this process, in MB. */
export const rssMb = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);
