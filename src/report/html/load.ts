import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { basename, join, relative, resolve } from 'node:path';
import type { ExampleResult } from '../../attack/result.ts';
import { SummaryAccumulator, type GenerateSummary, type RunSummary } from '../../metrics/summary.ts';
import { STEPS_FILE } from '../../runner/generate.ts';
import { EXPERIMENT_FILE, leftoverRuns } from '../../runner/experiment.ts';
import { RESULTS_FILE, SUMMARY_FILE } from '../../runner/runner.ts';
import { TextstressError, errorMessage } from '../../util/errors.ts';
import { headlineMetrics } from './headline.ts';
import type { StressResult } from '../../attack/stress.ts';
import type { StressSummary } from '../../metrics/stress.ts';
import type { GeneratedRun, LoadedRun, RunGroup, RunProfile, StressRun } from './types.ts';

/** Group-level files a family may read (see the families); an experiment's manifest names its own. */
export const GROUP_FILES = [EXPERIMENT_FILE, 'curve.json', 'budget-curve.json'] as const;

const MAX_DEPTH = 4;

/**
 * Finds every finished run under the given folders. A folder with summary.json is a run; a folder holding
 * runs in sub-folders (a typos-curve folder, a suite output folder) is searched, and each of its direct
 * sub-folders becomes a group (a test). An unfinished run (run.json without summary.json) is reported.
 */
export async function loadGroups(paths: readonly string[], opts: LoadOptions = {}): Promise<RunGroup[]> {
  const groups: RunGroup[] = [];
  for (const p of paths) {
    const root = resolve(p);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new TextstressError(`no run folder at ${p}.`, { hint: 'Pass folders written by attack, typos-curve or run.' });
    }
    const found = await collect(root, root, 0, paths.length > 1 ? basename(root) : undefined, opts);
    if (found.length === 0) {
      const unfinished = existsSync(join(root, 'run.json'));
      throw new TextstressError(
        unfinished ? `the run in ${p} is not finished (no summary.json).` : `no finished runs (summary.json) under ${p}.`,
        { hint: unfinished ? 'Finish it with --resume first.' : 'Pass folders written by attack, typos-curve or run.' },
      );
    }
    groups.push(...found);
  }
  return groups;
}

async function collect(dir: string, root: string, depth: number, prefix: string | undefined, opts: LoadOptions): Promise<RunGroup[]> {
  const name = [prefix, relative(root, dir).split('\\').join('/')].filter(Boolean).join('/') || basename(dir);
  if (existsSync(join(dir, SUMMARY_FILE))) {
    const run = await loadAnyRun(dir, name, name, opts);
    return [{ name, dir, files: {}, ...split([run]) }];
  }
  const subdirs = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const files = groupFiles(dir);
  const runsHere = experimentRuns(
    dir,
    files,
    subdirs.filter((d) => existsSync(join(dir, d, SUMMARY_FILE))),
  );
  // A folder with group files (curve.json …) is one group made of its runs.
  if (Object.keys(files).length > 0 && runsHere.length > 0) {
    const runs: AnyRun[] = [];
    for (const d of runsHere) runs.push(await loadAnyRun(join(dir, d), d, name, opts));
    return [{ name, dir, files, ...split(runs) }];
  }
  if (depth >= MAX_DEPTH) return [];
  const out: RunGroup[] = [];
  for (const d of subdirs) out.push(...(await collect(join(dir, d), root, depth + 1, prefix, opts)));
  return out;
}

function groupFiles(dir: string): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (const f of GROUP_FILES) {
    const p = join(dir, f);
    if (existsSync(p)) files[f] = readJson(p);
  }
  const listed = (files[EXPERIMENT_FILE] as { files?: unknown } | undefined)?.files;
  if (Array.isArray(listed)) {
    for (const f of listed) {
      if (typeof f !== 'string' || f.includes('/') || f.includes('\\') || f in files) continue;
      const p = join(dir, f);
      if (existsSync(p)) files[f] = readJson(p);
    }
  }
  return files;
}

/**
 * The finished runs of a folder; with an experiment manifest, only the sub-runs it lists as finished (an
 * interrupted experiment shows those). A run folder the manifest does not plan is refused, never mixed in.
 */
function experimentRuns(dir: string, files: Record<string, unknown>, finished: string[]): string[] {
  const manifest = files[EXPERIMENT_FILE] as { runs?: unknown; planned?: unknown } | undefined;
  if (!manifest || !Array.isArray(manifest.runs)) return finished;
  const listed = manifest.runs as unknown[];
  const planned = Array.isArray(manifest.planned) ? (manifest.planned as unknown[]) : listed;
  const strangers = finished.filter((d) => !planned.includes(d));
  if (strangers.length) throw leftoverRuns(dir, strangers);
  return finished.filter((d) => listed.includes(d));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw new TextstressError(`cannot read ${basename(path)}: ${errorMessage(err)}`, { where: path });
  }
}

/** Records of a generator run the report carries (the sample table and family charts). */
export const SAMPLE_RECORDS = 200;

type AnyRun = LoadedRun | GeneratedRun | StressRun;
const kindOf = (r: AnyRun): unknown => (r.summary as { kind?: unknown }).kind;

function split(runs: AnyRun[]): { runs: LoadedRun[]; generated: GeneratedRun[]; stress: StressRun[] } {
  return {
    runs: runs.filter((r): r is LoadedRun => kindOf(r) === undefined),
    generated: runs.filter((r): r is GeneratedRun => kindOf(r) === 'generate'),
    stress: runs.filter((r): r is StressRun => kindOf(r) === 'stress'),
  };
}

async function loadAnyRun(dir: string, name: string, group: string, opts: LoadOptions): Promise<AnyRun> {
  const summary = readJson(join(dir, SUMMARY_FILE)) as RunSummary | GenerateSummary | StressSummary;
  if (typeof summary !== 'object' || summary === null || typeof summary.recipe !== 'string') {
    throw new TextstressError('summary.json is not a textstress run summary.', { where: join(dir, SUMMARY_FILE) });
  }
  if ((summary as GenerateSummary).kind === 'generate') {
    const steps: Record<string, number>[] = [];
    for await (const st of readLines<Record<string, number>>(join(dir, STEPS_FILE))) steps.push(st);
    const sample: Record<string, unknown>[] = [];
    for await (const rec of readLines<Record<string, unknown>>(join(dir, RESULTS_FILE))) {
      sample.push(rec);
      if (sample.length >= SAMPLE_RECORDS) break;
    }
    return { dir, name, group, summary: summary as GenerateSummary, steps, sample };
  }
  if ((summary as StressSummary).kind === 'stress') return loadStressRun(dir, name, group, summary as StressSummary, opts);
  return loadRun(dir, name, group, opts);
}

/**
 * A stress run with an evenly spaced sample of whole result lines: as many examples as fit the sample size when
 * each brings its mean number of cases (the example browser shows cases).
 */
async function loadStressRun(dir: string, name: string, group: string, summary: StressSummary, opts: LoadOptions): Promise<StressRun> {
  const quota = opts.sampleSize ?? 3000;
  const n = summary.n ?? 0;
  const perExample = n ? Math.max(1, (summary.cases ?? 0) / n) : 1;
  const keep = spacedPositions(n, Math.floor(quota / perExample));
  const sample: StressResult[] = [];
  let i = 0;
  if (keep.size) {
    for await (const r of readLines<StressResult>(join(dir, RESULTS_FILE))) {
      if (keep.has(i++)) sample.push(r);
      if (sample.length >= keep.size) break;
    }
  }
  return { dir, name, group, summary, sample };
}

export interface LoadOptions {
  /** Most examples kept per run for the example browser (an evenly spaced sample, successes first). Default 3000. */
  sampleSize?: number;
}

/**
 * Reads a finished run in one streaming pass over results.jsonl: an evenly spaced sample of its examples (the
 * successful attacks first, as the example browser wants them) and a small profile for the charts, so a run of
 * any size is read in bounded memory. The summary's counts say in advance which positions to keep.
 */
export async function loadRun(dir: string, name: string, group: string, opts: LoadOptions = {}): Promise<LoadedRun> {
  const summary = readJson(join(dir, SUMMARY_FILE)) as RunSummary;
  if (typeof summary !== 'object' || summary === null || typeof summary.recipe !== 'string') {
    throw new TextstressError('summary.json is not a textstress run summary.', { where: join(dir, SUMMARY_FILE) });
  }
  const quota = opts.sampleSize ?? 3000;
  const wins = summary.succeeded ?? 0;
  const rest = Math.max(0, (summary.n ?? 0) - wins);
  const nWins = Math.min(wins, Math.max(Math.ceil(quota * 0.6), quota - rest));
  const keepWin = spacedPositions(wins, nWins);
  const keepRest = spacedPositions(rest, quota - nWins);
  const results: ExampleResult[] = [];
  const successByPct = new Map<number, number>();
  const acc = new SummaryAccumulator();
  let w = 0;
  let o = 0;
  for await (const r of readLines<ExampleResult>(join(dir, RESULTS_FILE))) {
    const win = r.status === 'succeeded';
    if (win ? keepWin.has(w) : keepRest.has(o)) results.push(r);
    if (win) {
      w++;
      const pct = Math.round(r.perturbed_word_pct * 1e6) / 1e6;
      successByPct.set(pct, (successByPct.get(pct) ?? 0) + 1);
    } else o++;
    acc.add(r);
  }
  const counted = acc.finish(false);
  const profile: RunProfile = {
    examples: counted.n,
    attacked: counted.attacked,
    successByPct: [...successByPct].sort((a, b) => a[0] - b[0]),
  };
  return { dir, name, group, summary, results, profile, headline: headlineMetrics(summary, counted) };
}

/** n positions out of `total`, evenly spaced (all of them when n ≥ total). */
function spacedPositions(total: number, n: number): Set<number> {
  if (n >= total) return new Set(Array.from({ length: total }, (_, i) => i));
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(Math.floor((i * total) / n));
  return out;
}

/** JSONL lines of a file, streamed; a malformed line names its number. */
async function* readLines<T>(path: string): AsyncGenerator<T> {
  if (!existsSync(path)) return;
  let i = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    i++;
    if (!line.trim()) continue;
    try {
      yield JSON.parse(line) as T;
    } catch (err) {
      throw new TextstressError(`line ${i} is not valid JSON: ${errorMessage(err)}`, { where: path });
    }
  }
}

/**
 * The run whose numbers stand for a group (test): a lone run; the sub-run an experiment names as its headline
 * (a typos curve's target-max run); else the last run by name (e.g. a grammar budget curve's largest budget).
 */
export function headlineRun(group: RunGroup): LoadedRun {
  if (group.runs.length === 0)
    throw new TextstressError(`${group.name} holds only generator runs, which have no headline attack run.`, { where: group.dir });
  const named = (group.files[EXPERIMENT_FILE] as { headline?: unknown } | undefined)?.headline;
  return group.runs.find((r) => r.name === named) ?? group.runs.find((r) => r.name === 'target-max') ?? group.runs[group.runs.length - 1]!;
}

/** What stands for a group in tables and the gate: its headline attack run, else its (first) stress or generator run. */
export function groupSubject(
  group: RunGroup,
): { kind: 'run'; run: LoadedRun } | { kind: 'generated'; run: GeneratedRun } | { kind: 'stress'; run: StressRun } {
  if (group.runs.length) return { kind: 'run', run: headlineRun(group) };
  return group.stress.length ? { kind: 'stress', run: group.stress[0]! } : { kind: 'generated', run: group.generated[0]! };
}
