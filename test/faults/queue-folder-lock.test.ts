/**
 * Issue 35 item 3: a coordinator waiting for workers (`--queue`) did not hold its --out folder: a second run naming
 * the same folder was accepted (and its results deleted without --overwrite when the coordinator finished), and so
 * was a second coordinator. Real processes and a real Redis; the first coordinator waits with no worker running.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { runCli, startCliProcess, startQueueWorker, stderrMatch, tmp, typosOnSst2 } from '../cli/helpers.ts';
import { queueIt, startRedis } from '../support/redis.ts';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});
const keep = <T extends ChildProcess>(p: T): T => (started.push(p), p);
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null || p.signalCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', (code) => r(code)));
const attack = (out: string, ...more: string[]): string[] =>
  typosOnSst2('--limit', '8', '--k', '1', '--seed', '5', '--out', out, '--no-progress', ...more);

describe('a queued run holds its --out folder (issue 35 item 3)', () => {
  queueIt(
    'while the coordinator waits for workers, a second run and a second coordinator on its folder are refused; nothing of theirs is deleted',
    async () => {
      const redis = await startRedis();
      keep(redis.process);
      const out = tmp('q-lock');
      const a = keep(startCliProcess(attack(out, '--queue', redis.url, '--block-size', '4')));
      let aErr = '';
      a.stderr!.on('data', (d: Buffer) => (aErr += d.toString()));
      await stderrMatch(a, /queued 8 examples/, 'coordinator');
      // A plain run of the same folder (was: accepted, then its results deleted by the coordinator).
      const plain = await runCli(attack(out));
      expect(plain.code).toBe(1);
      expect(plain.stderr).toMatch(new RegExp(`${out} is in use by another textstress run \\(process ${a.pid} `));
      expect(existsSync(join(out, 'results.jsonl'))).toBe(false);
      // A second coordinator of the same folder (was: accepted and attached).
      const second = await runCli(attack(out, '--queue', redis.url, '--block-size', '4'));
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/is in use by another textstress run/);
      // The first one finishes as usual once a worker comes, and lets go of the folder.
      keep(await startQueueWorker(redis.url));
      expect(await exited(a), aErr).toBe(0);
      expect(readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(8);
      expect(existsSync(join(out, '.textstress.lock'))).toBe(false);
      const again = await runCli(attack(out, '--resume'));
      expect(again.code, again.stderr).toBe(0);
    },
    120_000,
  );
});
