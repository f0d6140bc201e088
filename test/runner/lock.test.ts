/**
 * The folder lock: a stale lock is taken over by exactly one of two processes that judge it stale at once, a
 * lock from another machine is refused naming the file to delete, and SIGINT / SIGTERM release the lock.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, lockFolder } from '../../src/runner/lock.ts';
import { ROOT, tmp } from '../cli/helpers.ts';

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const holderOf = (dir: string): { pid: number; token?: string } =>
  JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number; token?: string };
const leftovers = (dir: string): string[] => readdirSync(dir).filter((f) => f.includes('.stale-'));

function writeStale(dir: string): void {
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), started: '2020-01-01T00:00:00.000Z' }));
}

describe('the folder lock', () => {
  it("two takers of one stale lock: the one that moves second puts the first one's lock back, so exactly one holds", () => {
    const dir = tmp('lock-race');
    writeStale(dir);
    let releaseA: (() => void) | undefined;
    // B judges the lock stale; before B moves it aside, A judges it stale too, takes it over and holds it.
    const b = (): (() => void) => lockFolder(dir, { beforeTakeover: () => void (releaseA ??= lockFolder(dir)) });
    expect(b).toThrow(/is in use by another textstress run \(process \d+ on /);
    expect(releaseA).toBeDefined();
    const a = holderOf(dir);
    expect(a.pid).toBe(process.pid);
    expect(typeof a.token).toBe('string');
    expect(leftovers(dir)).toEqual([]);
    releaseA!();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    // Free again: the next acquire holds it.
    const release = lockFolder(dir);
    expect(holderOf(dir).token).not.toBe(a.token);
    release();
  });

  it('a stale lock that vanishes before the takeover (its owner released it) is retried, not an error', () => {
    const dir = tmp('lock-gone');
    writeStale(dir);
    const release = lockFolder(dir, { beforeTakeover: () => rmSync(join(dir, LOCK_FILE)) });
    expect(holderOf(dir).pid).toBe(process.pid);
    expect(leftovers(dir)).toEqual([]);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('a half-written lock is taken over once it is old, and refused while fresh', () => {
    const dir = tmp('lock-half');
    const path = join(dir, LOCK_FILE);
    writeFileSync(path, '');
    expect(() => lockFolder(dir)).toThrow(/in use by another textstress run \(a process that is still starting\)/);
    expect(() => lockFolder(dir)).toThrow(
      expect.objectContaining({
        hint: `Wait for it to finish, or write to another --out. If no such process is running any more, delete ${path} and rerun (with --resume to continue).`,
      }),
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const release = lockFolder(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    release();
  });

  it('a lock of another machine is refused, naming the file to delete', () => {
    const dir = tmp('lock-host');
    const path = join(dir, LOCK_FILE);
    writeFileSync(path, JSON.stringify({ pid: 12345, host: 'ci-container-1', started: '2024-05-01T10:00:00.000Z' }));
    let message = '';
    try {
      lockFolder(dir);
    } catch (err) {
      message = `${(err as Error).message} ${(err as { hint?: string }).hint ?? ''}`;
    }
    expect(message).toContain(`${dir} is locked by process 12345 on another machine (ci-container-1, since 2024-05-01T10:00:00.000Z)`);
    expect(message).toContain(`delete ${path} and rerun (with --resume to continue it)`);
    expect(existsSync(path)).toBe(true);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} releases the lock and exits ${code}`, async () => {
      const dir = tmp('lock-signal');
      const script = `import { lockFolder } from ${JSON.stringify(join(ROOT, 'src/runner/lock.ts'))};
lockFolder(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
      // A process: the signal must end it, with the exit code a shell gives that signal's death.
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()));
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
      child.kill(signal);
      expect(await closed).toEqual([code, null]);
      expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    });
  }
});
