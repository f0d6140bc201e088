import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { ExampleResult } from '../../attack/result.ts';
import type { GenerateSummary, RunSummary } from '../../metrics/summary.ts';
import { STEPS_FILE } from '../../runner/generate.ts';
import { EXPERIMENT_FILE } from '../../runner/recipe-run.ts';
import { RESULTS_FILE, SUMMARY_FILE } from '../../runner/runner.ts';
import { TextstressError, errorMessage } from '../../util/errors.ts';
import { headlineMetrics } from './headline.ts';
import type { GeneratedRun, LoadedRun, RunGroup } from './types.ts';

/** Group-level files a family may read (see the families); an experiment's manifest names its own. */
export const GROUP_FILES = [EXPERIMENT_FILE, 'curve.json', 'budget-curve.json'] as const;

const MAX_DEPTH = 4;

/**
 * Finds every finished run under the given folders. A folder with summary.json is a run; a folder holding
 * runs in sub-folders (a typos-curve folder, a suite output folder) is searched, and each of its direct
 * sub-folders becomes a group (a test). An unfinished run (run.json without summary.json) is reported.
 */
export function loadGroups(paths: readonly string[]): RunGroup[] {
  const groups: RunGroup[] = [];
  for (const p of paths) {
    const root = resolve(p);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new TextstressError(`no run folder at ${p}.`, { hint: 'Pass folders written by attack, typos-curve or run.' });
    }
    const found = collect(root, root, 0, paths.length > 1 ? basename(root) : undefined);
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

function collect(dir: string, root: string, depth: number, prefix: string | undefined): RunGroup[] {
  const name = [prefix, relative(root, dir).split('\\').join('/')].filter(Boolean).join('/') || basename(dir);
  if (existsSync(join(dir, SUMMARY_FILE))) {
    const run = loadAnyRun(dir, name, name);
    return [{ name, dir, files: {}, ...split([run]) }];
  }
  const subdirs = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const files = groupFiles(dir);
  const runsHere = subdirs.filter((d) => existsSync(join(dir, d, SUMMARY_FILE)));
  // A folder with group files (curve.json …) is one group made of its runs.
  if (Object.keys(files).length > 0 && runsHere.length > 0) {
    return [{ name, dir, files, ...split(runsHere.map((d) => loadAnyRun(join(dir, d), d, name))) }];
  }
  if (depth >= MAX_DEPTH) return [];
  return subdirs.flatMap((d) => collect(join(dir, d), root, depth + 1, prefix));
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

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw new TextstressError(`cannot read ${basename(path)}: ${errorMessage(err)}`, { where: path });
  }
}

/** Records of a generator run the report carries (the sample table and family charts). */
export const SAMPLE_RECORDS = 200;

function split(runs: (LoadedRun | GeneratedRun)[]): { runs: LoadedRun[]; generated: GeneratedRun[] } {
  return {
    runs: runs.filter((r): r is LoadedRun => !isGenerated(r)),
    generated: runs.filter(isGenerated),
  };
}

function isGenerated(r: LoadedRun | GeneratedRun): r is GeneratedRun {
  return (r.summary as { kind?: unknown }).kind === 'generate';
}

function loadAnyRun(dir: string, name: string, group: string): LoadedRun | GeneratedRun {
  const summary = readJson(join(dir, SUMMARY_FILE)) as RunSummary | GenerateSummary;
  if (typeof summary !== 'object' || summary === null || typeof summary.recipe !== 'string') {
    throw new TextstressError('summary.json is not a textstress run summary.', { where: join(dir, SUMMARY_FILE) });
  }
  if ((summary as GenerateSummary).kind === 'generate') {
    const steps = readResults(join(dir, STEPS_FILE)) as unknown as Record<string, number>[];
    const sample = (readResults(join(dir, RESULTS_FILE), SAMPLE_RECORDS) as unknown as Record<string, unknown>[]);
    return { dir, name, group, summary: summary as GenerateSummary, steps, sample };
  }
  return loadRun(dir, name, group);
}

export function loadRun(dir: string, name: string, group: string): LoadedRun {
  const summary = readJson(join(dir, SUMMARY_FILE)) as RunSummary;
  if (typeof summary !== 'object' || summary === null || typeof summary.recipe !== 'string') {
    throw new TextstressError('summary.json is not a textstress run summary.', { where: join(dir, SUMMARY_FILE) });
  }
  const results = readResults(join(dir, RESULTS_FILE));
  return { dir, name, group, summary, results, headline: headlineMetrics(summary, results) };
}

function readResults(path: string, max = Infinity): ExampleResult[] {
  if (!existsSync(path)) return [];
  const out: ExampleResult[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as ExampleResult);
    } catch (err) {
      throw new TextstressError(`line ${i + 1} is not valid JSON: ${errorMessage(err)}`, { where: path });
    }
  }
  return out;
}

/**
 * The run whose numbers stand for a group (test): a lone run; the sub-run an experiment names as its headline
 * (a typos curve's target-max run); else the last run by name (e.g. a grammar budget curve's largest budget).
 */
export function headlineRun(group: RunGroup): LoadedRun {
  if (group.runs.length === 0) throw new TextstressError(`${group.name} holds only generator runs, which have no headline attack run.`, { where: group.dir });
  const named = (group.files[EXPERIMENT_FILE] as { headline?: unknown } | undefined)?.headline;
  return (
    group.runs.find((r) => r.name === named) ?? group.runs.find((r) => r.name === 'target-max') ?? group.runs[group.runs.length - 1]!
  );
}

/** What stands for a group in tables and the gate: its headline attack run, or its (first) generator run. */
export function groupSubject(group: RunGroup): { kind: 'run'; run: LoadedRun } | { kind: 'generated'; run: GeneratedRun } {
  return group.runs.length ? { kind: 'run', run: headlineRun(group) } : { kind: 'generated', run: group.generated[0]! };
}
