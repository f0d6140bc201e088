/**
 * One writer per output folder. A lock file made with O_EXCL names the process holding it; a second process
 * (a second --resume, or a --resume beside a running run) is refused. A lock left by a process that no longer
 * exists on this machine (kill -9, a crash) is taken over.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { TextstressError } from '../util/errors.ts';

export const LOCK_FILE = '.textstress.lock';

interface Holder {
  pid: number;
  host: string;
  started: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? { pid: h.pid, host: h.host, started: String(h.started ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the folder's lock or throws a TextstressError naming the holder; returns the release function. */
export function lockFolder(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readHolder(path)?.pid === me.pid) unlinkSync(path);
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    // A holder on this machine that is gone, or a lock file left half-written long ago, is stale.
    const stale = holder ? holder.host === me.host && !alive(holder.pid) : Date.now() - statSync(path).mtimeMs > 10_000;
    if (!stale) {
      const who = holder ? `process ${holder.pid} on ${holder.host}, since ${holder.started}` : 'a process that is still starting';
      throw new TextstressError(`${dir} is in use by another textstress run (${who}).`, {
        hint: `Wait for it to finish, or write to another --out. If no such process is running any more, delete ${path}.`,
      });
    }
    if (existsSync(path)) unlinkSync(path);
  }
  throw new TextstressError(`cannot take the lock of ${dir}.`, { where: path, hint: 'Another process keeps creating it; retry.' });
}
