/**
 * An experiment's manifest (experiment.json), written before the first sub-run and rewritten as each one
 * finishes, so an interrupted experiment says which sub-runs it planned and which are done: `--resume` continues
 * it (after the same checks as a run's resume) and the report shows the finished ones. A sub-folder holding a run
 * that this experiment does not plan (left by another experiment in the same --out) is refused, never mixed in.
 */
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextstressError, errorMessage } from '../../util/errors.ts';
import { alreadyHoldsRun, assertSameData, assertSameSettings, readStateFile, type SavedState } from '../../runner/resume.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE } from '../attack/run.ts';

/** The manifest an experiment leaves in its folder; the report reads it to group the sub-runs. */
export const EXPERIMENT_FILE = 'experiment.json';

/** What identifies an experiment: a resume must match it exactly. */
export interface ExperimentSettings {
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  options: Record<string, unknown>;
  data_options?: Record<string, unknown>;
}

export interface ExperimentManifest extends SavedState<ExperimentSettings> {
  recipe: string;
  status: 'running' | 'complete' | 'failed';
  /** Every sub-run folder the experiment writes. */
  planned: string[];
  /** The sub-runs finished so far (all of `planned` once complete). */
  runs: string[];
  /** The experiment's own files (written by its combine step). */
  files: string[];
  headline?: string;
  error?: string;
  updated_at: string;
}

export interface ExperimentLog {
  /** Sub-runs a resumed experiment finished before: their summary.json stands, they are not run again. */
  done: ReadonlySet<string>;
  finished(dir: string): void;
  failed(err: unknown): void;
  complete(files: string[], headline: string | undefined): void;
}

/**
 * Checks the folder and writes the manifest of an experiment about to run. Refused: a folder with a manifest
 * without --resume, a resume with other settings or data, and sub-folders holding runs this experiment does not
 * plan. --overwrite removes the previous manifest, its files and the sub-runs it planned (only those).
 */
export function beginExperiment(
  dir: string,
  now: { settings: ExperimentSettings; dataFingerprint?: string; planned: string[] },
  mode: { resume?: boolean; overwrite?: boolean },
): ExperimentLog {
  // A sub-run folder is one plain name inside the experiment's folder: never a path out of it, never twice.
  for (const [i, d] of now.planned.entries()) {
    if (!isPlainName(d) || d.startsWith('.'))
      throw new Error(`experiment sub-run folder "${d}" must be a plain folder name (no "/", "\\" or leading ".")`);
    if (now.planned.indexOf(d) !== i) throw new Error(`experiment sub-run folder "${d}" is planned twice`);
  }
  const path = join(dir, EXPERIMENT_FILE);
  const prior = readStateFile<Partial<ExperimentManifest>>(path);
  let done: string[] = [];
  if (prior && mode.overwrite) {
    for (const f of [...(prior.files ?? []), ...(prior.planned ?? prior.runs ?? [])]) {
      if (isPlainName(f) && !now.planned.includes(f)) rmSync(join(dir, f), { recursive: true, force: true });
    }
    rmSync(path, { force: true });
  } else if (prior) {
    if (!mode.resume) throw alreadyHoldsRun(dir);
    if (prior.settings) assertSameSettings(prior.settings, now.settings, path);
    assertSameData(prior.data_fingerprint, now.dataFingerprint, now.settings.dataset, path);
    done = (prior.runs ?? []).filter((d) => now.planned.includes(d) && existsSync(join(dir, d, SUMMARY_FILE)));
  }
  const strangers = runFolders(dir).filter((d) => !now.planned.includes(d));
  if (strangers.length) throw leftoverRuns(dir, strangers);

  const manifest: ExperimentManifest = {
    recipe: now.settings.recipe,
    settings: now.settings,
    ...(now.dataFingerprint ? { data_fingerprint: now.dataFingerprint } : {}),
    status: 'running',
    planned: now.planned,
    runs: done,
    files: [],
    updated_at: '',
  };
  const save = (): void => {
    manifest.updated_at = new Date().toISOString();
    // Replaced atomically: a kill mid-write leaves the previous manifest, not a torn one.
    writeFileSync(`${path}.tmp`, JSON.stringify(manifest, null, 2) + '\n');
    renameSync(`${path}.tmp`, path);
  };
  save();
  return {
    done: new Set(done),
    finished(d) {
      if (!manifest.runs.includes(d)) manifest.runs.push(d);
      save();
    },
    failed(err) {
      manifest.status = 'failed';
      manifest.error = errorMessage(err);
      save();
    },
    complete(files, headline) {
      manifest.status = 'complete';
      manifest.runs = now.planned.filter((d) => manifest.runs.includes(d));
      manifest.files = files;
      if (headline) manifest.headline = headline;
      delete manifest.error;
      save();
    },
  };
}

/** Direct sub-folders of `dir` that hold a run (finished or not). */
export function runFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && [STATE_FILE, SUMMARY_FILE, RESULTS_FILE].some((f) => existsSync(join(dir, e.name, f))))
    .map((e) => e.name)
    .sort();
}

/** The refusal to mix sub-runs of another experiment (or other runs) into this one. */
export function leftoverRuns(dir: string, names: string[]): TextstressError {
  const list = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
  return new TextstressError(
    `${dir} holds run folders that this experiment does not write (${list}): left by another experiment or run, they would be mixed into its report.`,
    {
      hint:
        'Move those folders out of it, or write the experiment to another --out (--overwrite removes only the sub-runs ' +
        "that the folder's experiment.json plans).",
    },
  );
}

function isPlainName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\');
}
