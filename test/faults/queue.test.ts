/**
 * Issue 25, item 4: the queue's failures replayed with real processes — Redis that is not there, a Redis restarted
 * empty in the middle of a run, two coordinators of one run, a worker running other code, SIGTERM with Redis gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEMO_SST2,
  ROOT,
  runCli,
  runCliProcess,
  startCliProcess,
  startQueueWorker,
  stderrMatch,
  tmp,
  typosOnSst2,
} from '../cli/helpers.ts';
import { queueIt, startRedis } from '../support/redis.ts';

const read = (p: string): string => readFileSync(p, 'utf8');
const exited = (p: ChildProcess): Promise<number | null> =>
  p.exitCode !== null || p.signalCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', (code) => r(code)));
const attack = (out: string, limit: number): string[] =>
  typosOnSst2('--limit', String(limit), '--k', '2', '--seed', '5', '--out', out, '--no-progress');

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});
const keep = <T extends ChildProcess>(p: T): T => (started.push(p), p);

describe('queue faults (issue 25, item 4)', () => {
  it('--queue redis://127.0.0.1:1 (nothing listening): attack and worker exit non-zero in seconds with one error, no ioredis traces', async () => {
    for (const args of [
      [...attack(tmp('q-unreachable'), 4), '--queue', 'redis://127.0.0.1:1'],
      ['worker', '--queue', 'redis://127.0.0.1:1'],
    ]) {
      const t0 = Date.now();
      const r = await runCliProcess(args);
      expect(Date.now() - t0).toBeLessThan(30_000);
      expect(r.code).toBe(1);
      expect(r.stderr).not.toMatch(/Unhandled error event|\n\s+at /);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
      expect(r.stderr).toMatch(/cannot reach Redis at 127\.0\.0\.1:1: connect ECONNREFUSED/);
    }
  }, 120_000);

  queueIt(
    'a worker whose Redis is gone stops on SIGTERM within seconds',
    async () => {
      const redis = await startRedis();
      keep(redis.process);
      const worker = keep(await startQueueWorker(redis.url));
      redis.process.kill('SIGKILL');
      await stderrMatch(worker, /ECONNREFUSED/, 'worker losing Redis');
      const t0 = Date.now();
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
    },
    90_000,
  );

  queueIt(
    "Redis restarted empty mid-run: the coordinator says so, queues the lost jobs again and gives the local run's results",
    async () => {
      const local = tmp('q-restart-local');
      expect((await runCli(attack(local, 24))).code).toBe(0);
      let redis = await startRedis();
      keep(redis.process);
      for (let i = 0; i < 2; i++) keep(await startQueueWorker(redis.url, ['--lock-ms', '3000']));
      const out = tmp('q-restart');
      const coordinator = runCli([...attack(out, 24), '--queue', redis.url, '--block-size', '4']);
      // Once some results are stored, Redis goes away and comes back empty (no persistence) on the same port.
      const probe = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1, lazyConnect: true });
      probe.on('error', () => undefined);
      await probe.connect();
      let stored = 0;
      for (let i = 0; i < 400 && stored < 4; i++) {
        const keys = await probe.keys('textstress:run:*:results');
        stored = keys.length ? await probe.hlen(keys[0]!) : 0;
        if (stored < 4) await sleep(50);
      }
      probe.disconnect();
      expect(stored).toBeGreaterThanOrEqual(4);
      redis.process.kill('SIGKILL');
      await sleep(1000);
      redis = await startRedis(redis.port);
      keep(redis.process);
      const r = await coordinator;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /job\(s\) of run \w+ were gone from Redis with results missing \(Redis restarted without persistence\?\): queued again/,
      );
      expect(read(join(out, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
    },
    120_000,
  );

  queueIt(
    "two coordinators of the same run: the second attaches, both finish with the same results, neither deletes the other's",
    async () => {
      const local = tmp('q-two-local');
      expect((await runCli(attack(local, 24))).code).toBe(0);
      const redis = await startRedis();
      keep(redis.process);
      // Both wait before any worker runs, so their waits overlap.
      const outA = tmp('q-two-a');
      const a = keep(startCliProcess([...attack(outA, 24), '--queue', redis.url, '--block-size', '4']));
      let aErr = '';
      a.stderr!.on('data', (d: Buffer) => (aErr += d.toString()));
      await stderrMatch(a, /queued 24 examples/, 'first coordinator');
      const outB = tmp('q-two-b');
      const b = runCli([...attack(outB, 24), '--queue', redis.url, '--block-size', '4']);
      await sleep(500);
      keep(await startQueueWorker(redis.url));
      const rb = await b;
      expect(rb.code, rb.stderr).toBe(0);
      expect(rb.stderr).toMatch(/attached to run \w+: 1 other coordinator\(s\) wait on it too/);
      expect(await exited(a), aErr).toBe(0);
      // Whichever finished first left the results to the other, saying so.
      expect(aErr + rb.stderr).toMatch(/another coordinator of run \w+ is still waiting: its results stay in Redis for it/);
      expect(read(join(outA, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
      expect(read(join(outB, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
      // The last one out cleaned up.
      const probe = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 });
      expect(await probe.keys('textstress:run:*')).toEqual([]);
      probe.disconnect();
    },
    120_000,
  );

  queueIt(
    'workers of other code (one file edited) or another model (config.json edited) refuse the run; the coordinator names each, uses none of their results',
    async () => {
      const local = tmp('q-other-local');
      expect((await runCli(attack(local, 12))).code).toBe(0);
      // A copy of this checkout with one rule edited, run as a user would run it.
      const copy = tmp('q-other-code');
      mkdirSync(copy, { recursive: true });
      for (const f of ['bin', 'src', 'package.json']) cpSync(join(ROOT, f), join(copy, f), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      appendFileSync(join(copy, 'src', 'perturb', 'keyboard.ts'), '\n// one rule edited\n');
      // The same relative model path names another model in the other worker's folder.
      const elsewhere = tmp('q-model-elsewhere');
      const folder = join(elsewhere, 'models', 'demo-sst2');
      cpSync(DEMO_SST2, folder, { recursive: true });
      const config = JSON.parse(read(join(folder, 'config.json'))) as Record<string, unknown>;
      writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...config, edited: true }));
      const redis = await startRedis();
      keep(redis.process);
      const otherCode = keep(spawn(process.execPath, [join(copy, 'bin', 'textstress.mjs'), 'worker', '--queue', redis.url], { cwd: ROOT }));
      const otherModel = keep(
        spawn(process.execPath, [join(ROOT, 'bin', 'textstress.mjs'), 'worker', '--queue', redis.url], { cwd: elsewhere }),
      );
      await Promise.all([
        stderrMatch(otherCode, /worker listening/, 'worker of other code'),
        stderrMatch(otherModel, /worker listening/, 'worker with another model'),
      ]);
      const out = tmp('q-other');
      const relative = attack(out, 12).map((a) => (a === DEMO_SST2 ? 'models/demo-sst2' : a));
      const coordinator = runCli([...relative, '--queue', redis.url, '--block-size', '4']);
      await Promise.all([
        stderrMatch(otherCode, /refused job/, 'worker of other code refusing'),
        stderrMatch(otherModel, /refused job/, 'worker with another model refusing'),
      ]);
      keep(await startQueueWorker(redis.url));
      const r = await coordinator;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(`worker textstress-[^ ]+-${otherCode.pid} refused run \\w+: its code [0-9a-f]{16} \\(run: [0-9a-f]{16}\\)`),
      );
      expect(r.stderr).toMatch(
        new RegExp(
          `worker textstress-[^ ]+-${otherModel.pid} refused run \\w+: its model demo-sst2#[0-9a-f]{16} \\(run: demo-sst2#[0-9a-f]{16}\\)`,
        ),
      );
      expect(read(join(out, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
    },
    180_000,
  );
});
