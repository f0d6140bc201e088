/**
 * Finding and loading finished runs for the report, the gate and the suite: a folder's runs and groups (tests,
 * experiments), each run loaded as its kind loads it (src/kinds), and the run that stands for each group.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { EXPERIMENT_FILE, leftoverRuns } from '../../kinds/experiment/manifest.ts';
import { kindOfSummary, type AnyLoadedRun, type GateRuntime, type KindRuntime } from '../../kinds/index.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { SUMMARY_FILE } from '../../runner/per-example.ts';
import { TextstressError, errorMessage } from '../../util/errors.ts';
import type { GeneratedRun, LoadedRun, RunGroup, StressRun } from './types.ts';

/** Group-level files: an experiment's manifest, which names the experiment's own files (curve.json …). */
export const GROUP_FILES = [EXPERIMENT_FILE] as const;

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
    // A command's own summary (`eval --out`) is no run: left out when found among runs, refused when named.
    const command = commandOf(dir);
    if (command !== undefined) {
      if (depth > 0) return [];
      throw new TextstressError(`${join(dir, SUMMARY_FILE)} is the summary of \`textstress ${command}\`, not of a run.`, {
        hint: 'The report reads the folders of attack, probe, stress, generator and suite runs.',
      });
    }
    return [{ name, dir, files: {}, ...split([await loadAnyRun(dir, name, name, opts)]) }];
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

type AnyRun = AnyLoadedRun;

/** The command whose own summary dir holds (`command: "eval"`, no recipe), or undefined for a run's (or none). */
function commandOf(dir: string): string | undefined {
  const summary = readJson(join(dir, SUMMARY_FILE)) as Record<string, unknown> | null;
  return summary && typeof summary === 'object' && typeof summary.command === 'string' && summary.recipe === undefined
    ? summary.command
    : undefined;
}

/** A run's summary.json, checked to be one; its kind decides how the run is loaded and where the group keeps it. */
async function loadAnyRun(dir: string, name: string, group: string, opts: LoadOptions): Promise<AnyRun> {
  const summary = readJson(join(dir, SUMMARY_FILE)) as Record<string, unknown> | null;
  if (typeof summary !== 'object' || summary === null || typeof summary.recipe !== 'string') {
    throw new TextstressError('summary.json is not a textstress run summary.', { where: join(dir, SUMMARY_FILE) });
  }
  const finished = kindOfSummary(summary, opts.registry).finished;
  if (!finished)
    throw new TextstressError(`summary.json names the recipe ${summary.recipe}, whose runs are not loaded on their own.`, { where: dir });
  const run = await finished.load(dir, name, group, summary, opts);
  // The kind says which list its runs go in; the loaded run must agree, or the gate would read the wrong fields.
  if (run.slot !== finished.slot) throw new Error(`internal error: a '${finished.slot}' kind loaded a '${run.slot}' run (${dir})`);
  return run;
}

/** Runs placed in their group's lists, by the list each says it belongs in. */
function split(runs: AnyRun[]): { runs: LoadedRun[]; generated: GeneratedRun[]; stress: StressRun[] } {
  return {
    runs: runs.filter((r): r is LoadedRun => r.slot === 'runs'),
    generated: runs.filter((r): r is GeneratedRun => r.slot === 'generated'),
    stress: runs.filter((r): r is StressRun => r.slot === 'stress'),
  };
}

export interface LoadOptions {
  /** Most examples kept per run for the example browser (an evenly spaced sample, successes first). Default BROWSER_MAX_EXAMPLES (src/options/command.ts). */
  sampleSize?: number;
  /** The recipes whose runs these are (their kinds decide how runs load); without, the summaries say. */
  registry?: Registry;
}

/** A finished attack or probe run in `dir` (summary.json + results.jsonl), as the report reads it. */
export async function loadRun(dir: string, name: string, group: string, opts: LoadOptions = {}): Promise<LoadedRun> {
  const run = await loadAnyRun(dir, name, group, opts);
  if (run.slot !== 'runs') throw new TextstressError(`the run in ${dir} is a ${run.slot} run, not an attack or probe run.`, { where: dir });
  return run;
}

/**
 * The run whose numbers stand for a group (test): a lone run; the sub-run an experiment names as its headline
 * (a typos curve's target-max run); else the last run by name (e.g. a grammar budget curve's largest budget).
 */
export function headlineRun(group: RunGroup): LoadedRun {
  if (group.runs.length === 0)
    throw new TextstressError(`${group.name} holds only generator runs, which have no headline attack run.`, { where: group.dir });
  const named = (group.files[EXPERIMENT_FILE] as { headline?: unknown } | undefined)?.headline;
  return group.runs.find((r) => r.name === named) ?? group.runs[group.runs.length - 1]!;
}

/** What stands for a group in tables and the gate, with its kind: its headline run, else its (first) stress or generator run. */
export interface GroupSubject {
  run: AnyLoadedRun;
  kind: KindRuntime;
  /** What the gate reads of it. */
  gate: GateRuntime;
}

/** The subject of a group (see GroupSubject); `registry` tells its recipe's kind where the summary alone cannot. */
export function groupSubject(group: RunGroup, registry?: Registry): GroupSubject {
  const run: AnyLoadedRun = group.runs.length ? headlineRun(group) : (group.stress[0] ?? group.generated[0]!);
  const kind = kindOfSummary(run.summary, registry);
  return { run, kind, gate: kind.finished!.gate };
}
