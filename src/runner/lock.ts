/**
 * One writer per output folder. A lock file made with O_EXCL names the process holding it; a second process
 * (a second --resume, or a --resume beside a running run) is refused. A lock left by a process that no longer
 * exists on this machine (kill -9, a crash) is taken over; one left by a process on another machine is not (we
 * cannot tell whether it still runs), and the error names the file to delete. Held locks are released when the
 * process exits, and on SIGINT / SIGTERM before it exits.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { TextstressError } from '../util/errors.ts';
import { processAlive } from '../util/process.ts';

export const LOCK_FILE = '.textstress.lock';

interface Holder {
  pid: number;
  host: string;
  started: string;
  /** Tells two locks of one process apart (a release removes only its own). */
  token?: string;
}

/** A lock file as read at one moment: its bytes, its modification time and the holder they name. */
interface Seen {
  raw: string;
  mtimeMs: number;
  holder?: Holder;
}

/** Test seams: run between the steps of an acquire, to interleave two of them deterministically. */
export interface LockHooks {
  /** After the lock was judged stale, before it is moved aside. */
  beforeTakeover?: () => void;
}

const ATTEMPTS = 5;
/** A lock file that names no holder (its writer died between create and write) is stale after this long. */
const HALF_WRITTEN_STALE_MS = 10_000;

/** Lock files this process holds and has lent to its next lockFolder() of the same folder (see lendLock). */
const lent = new Set<string>();

/**
 * Runs `fn` with the lock this process holds on `dir` lent to the first lockFolder(dir) within it, which then takes
 * nothing and releases nothing: a queue coordinator holds its --out folder from start to end and finishes the run
 * through the per-example runner, which locks the folder itself (issue 35).
 */
export async function withLentLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const path = resolve(dir, LOCK_FILE);
  lent.add(path);
  try {
    return await fn();
  } finally {
    lent.delete(path);
  }
}

/** Takes the folder's lock or throws a TextstressError naming the holder; returns the release function. */
export function lockFolder(dir: string, hooks: LockHooks = {}): () => void {
  if (lent.delete(resolve(dir, LOCK_FILE))) return () => undefined;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (create(path, me)) return hold(path, me);
    const seen = look(path);
    // Released between our create and our look: try again.
    if (!seen) continue;
    const h = seen.holder;
    if (h && h.host !== me.host) {
      throw new TextstressError(
        `${dir} is locked by process ${h.pid} on another machine (${h.host}, since ${h.started}); textstress cannot tell whether it still runs.`,
        {
          hint:
            `If that run is gone (a finished or killed CI container, say), delete ${path} and rerun (with --resume to ` +
            `continue it). Otherwise write to another --out.`,
        },
      );
    }
    const stale = h ? !processAlive(h.pid) : Date.now() - seen.mtimeMs > HALF_WRITTEN_STALE_MS;
    if (!stale) {
      const who = h ? `process ${h.pid} on ${h.host}, since ${h.started}` : 'a process that is still starting';
      throw new TextstressError(`${dir} is in use by another textstress run (${who}).`, {
        hint: `Wait for it to finish, or write to another --out. If no such process is running any more, delete ${path} and rerun (with --resume to continue).`,
      });
    }
    hooks.beforeTakeover?.();
    moveAsideIfSame(path, seen);
  }
  throw new TextstressError(`cannot take the lock of ${dir}.`, { where: path, hint: 'Another process keeps creating it; retry.' });
}

/** Creates the lock file naming `me`; false when one exists. */
function create(path: string, me: Holder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock only if it is still the file that was judged stale. Two processes may judge one lock
 * stale at once: the rename is atomic, so only one of them moves that file. The other then moves whatever is
 * there now (the first one's new lock); seeing other bytes, it links that file back (a link never replaces a
 * lock a third process made meanwhile) and drops its copy, and its next create finds the new holder.
 */
function moveAsideIfSame(path: string, judged: Seen): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = look(aside);
  if (moved && (moved.raw !== judged.raw || moved.mtimeMs !== judged.mtimeMs)) {
    try {
      linkSync(aside, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  rmSync(aside, { force: true });
}

/** The lock file as it is now, read through one descriptor (bytes and time of the same file); undefined if gone. */
function look(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const mtimeMs = fstatSync(fd).mtimeMs;
    const raw = readFileSync(fd, 'utf8');
    const holder = parseHolder(raw);
    return { raw, mtimeMs, ...(holder ? { holder } : {}) };
  } finally {
    closeSync(fd);
  }
}

function parseHolder(raw: string): Holder | undefined {
  try {
    const h = JSON.parse(raw) as Partial<Holder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string') return undefined;
    return { pid: h.pid, host: h.host, started: String(h.started ?? ''), ...(typeof h.token === 'string' ? { token: h.token } : {}) };
  } catch {
    return undefined;
  }
}

// Locks this process holds, released on exit and on SIGINT / SIGTERM.
const held = new Set<() => void>();

function releaseAll(): void {
  for (const release of [...held]) release();
}

function onSignal(signal: NodeJS.Signals): void {
  releaseAll();
  // Listening turns off Node's default (exit); with no other listener left, exit as that default would, with
  // the code a shell gives a signal's death. Another listener (a host program, `serve`) decides for itself.
  if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGTERM' ? 143 : 130);
}

function watch(on: boolean): void {
  if (on) process.on('exit', releaseAll).on('SIGINT', onSignal).on('SIGTERM', onSignal);
  else process.off('exit', releaseAll).off('SIGINT', onSignal).off('SIGTERM', onSignal);
}

function hold(path: string, me: Holder): () => void {
  const release = (): void => {
    if (!held.delete(release)) return;
    if (held.size === 0) watch(false);
    try {
      if (look(path)?.holder?.token === me.token) unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  if (held.size === 0) watch(true);
  held.add(release);
  return release;
}
