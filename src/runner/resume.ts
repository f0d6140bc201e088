/**
 * What a --resume checks before it continues a folder, the same for attack runs, generators and experiments: a
 * state file that says which settings wrote the folder, the same settings now, and the same data file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { TextstressError, errorMessage } from '../util/errors.ts';

/** What every resumable folder's state file holds. */
export interface SavedState<S extends object> {
  settings: S;
  data_fingerprint?: string;
}

/** The refusal to touch a folder that holds a run when neither --resume nor --overwrite was given. */
export function alreadyHoldsRun(dir: string): TextstressError {
  return new TextstressError(`${dir} already holds a run.`, {
    hint: 'Pass --resume to continue it, --overwrite to replace it, or choose another --out.',
  });
}

/** A JSON state file, or undefined when there is none; a damaged one stops with its path. */
export function readStateFile<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new TextstressError(`cannot read the run state: ${errorMessage(err)}`, {
      where: path,
      hint: 'Start a fresh run with --overwrite.',
    });
  }
}

/**
 * The saved state of a folder about to be resumed, checked against this run: refused when the state file is
 * missing (nothing says what wrote `contentPath`), the settings differ, or the data file changed.
 */
export function resumeState<S extends object, T extends SavedState<S>>(
  statePath: string,
  contentPath: string,
  now: { settings: S; dataFingerprint?: string; dataset?: string | null },
): T {
  const prior = readStateFile<T>(statePath);
  if (!prior) {
    throw new TextstressError(`cannot resume: ${statePath} is missing, so nothing says which settings produced ${contentPath}.`, {
      hint: 'Start a fresh run with --overwrite (or another --out).',
    });
  }
  assertSameSettings(prior.settings, now.settings, statePath);
  assertSameData(prior.data_fingerprint, now.dataFingerprint, now.dataset ?? '', statePath);
  return prior;
}

/** Refuses a resume whose settings differ from the saved ones, naming the settings that differ. */
export function assertSameSettings<S extends object>(prior: S, now: S, where: string): void {
  if (JSON.stringify(prior) === JSON.stringify(now)) return;
  const a = prior as Record<string, unknown>;
  const b = now as Record<string, unknown>;
  const options = (x: Record<string, unknown>): Record<string, unknown> => (x.options ?? {}) as Record<string, unknown>;
  const differ = (x: Record<string, unknown>, y: Record<string, unknown>, skip?: string): string[] =>
    [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => k !== skip && JSON.stringify(x[k]) !== JSON.stringify(y[k]));
  const was = (x: Record<string, unknown>, k: string): string => short(k in x ? JSON.stringify(x[k]) : 'unset');
  const differing = [
    ...differ(a, b, 'options').map((k) => `${k} (was ${was(a, k)}, now ${was(b, k)})`),
    ...differ(options(a), options(b)).map((k) => `${k} (was ${was(options(a), k)}, now ${was(options(b), k)})`),
  ];
  const what = differing.length ? differing.join(', ') : 'the settings';
  throw new TextstressError(
    `--resume needs the same settings as the interrupted run, but ${what} ${differing.length === 1 ? 'differs' : 'differ'}.`,
    { where, hint: 'Rerun with the original options to continue it, start afresh with --overwrite, or write to another --out.' },
  );
}

/** Refuses a resume over a data file whose fingerprint changed (when both runs have one). */
export function assertSameData(prior: string | undefined, now: string | undefined, dataset: string, where: string): void {
  if (!prior || !now || prior === now) return;
  throw new TextstressError(`cannot resume: the data file ${dataset} changed since the run started (its size or content differs).`, {
    where,
    hint:
      'The whole file is fingerprinted, so any change counts, even in rows past --limit. Resume with the data the run ' +
      'started with, or start afresh with --overwrite.',
  });
}

/** A setting's value as a refusal shows it: long ones cut. */
function short(json: string): string {
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}
