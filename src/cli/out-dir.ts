/**
 * Where a run writes when no --out is given: a new folder per run under `runs/`, named after the command and the
 * local time (`runs/typos-20261127-064012`, then `-2`, `-3` … within the same second), so running the same command
 * twice never meets the folder the first run left. The folder is claimed with a non-recursive mkdir, which fails when
 * it exists, so two runs started at once never share one.
 */
import { mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { TextstressError } from '../util/errors.ts';

/** The parent of the default run folders (relative to the working folder). */
export const DEFAULT_RUNS_DIR = 'runs';

const two = (n: number): string => String(n).padStart(2, '0');

/** `20261127-064012` in local time: sorts by time, and reads as a date. */
export function stamp(at: Date): string {
  return `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
}

/** Creates and returns a folder `<parent>/<name>-<stamp>[-<i>]` that did not exist before. */
export function claimRunDir(name: string, opts: { parent?: string; at?: Date } = {}): string {
  const parent = opts.parent ?? DEFAULT_RUNS_DIR;
  mkdirSync(parent, { recursive: true });
  const base = join(parent, `${name}-${stamp(opts.at ?? new Date())}`);
  for (let i = 1; i < 1000; i++) {
    const dir = i === 1 ? base : `${base}-${i}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new TextstressError(`cannot find a free folder for the run beside ${base}.`, { hint: 'Name one with --out.' });
}

/**
 * The run's folder: --out when given; else a new one (see claimRunDir). --resume continues a folder, so it needs
 * --out to say which.
 */
export function runDirFor(name: string, given: { out?: string; resume?: boolean }): { out: string; fresh: boolean } {
  if (given.out !== undefined) return { out: given.out, fresh: false };
  if (given.resume) {
    throw new TextstressError('--resume continues a run folder: name it with --out.', {
      hint: `Without --out every run writes a new folder under ${DEFAULT_RUNS_DIR}/ (e.g. ${DEFAULT_RUNS_DIR}/${name}-${stamp(new Date())}).`,
    });
  }
  return { out: claimRunDir(name), fresh: true };
}

/** Removes a claimed folder the run left empty (it failed before writing); a folder with files stays. */
export function releaseRunDir(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Already gone or unreadable: nothing to tidy.
  }
}
