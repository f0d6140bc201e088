/**
 * The Redis queue for real: a redis-server of our own on a free port (temporary folder, no persistence), worker
 * processes started as a user starts them, and the coordinator's outputs compared with a local run's. The faults
 * (kill -9 of a worker holding a job, Redis lost under a worker) are in test/faults/queue-workers.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { SST2_DEV, runCli, startQueueWorker, tmp, writeSst2Suite } from '../cli/helpers.ts';
import { HAS_REDIS, SKIP_REDIS, queueIt, startRedis } from '../support/redis.ts';

const read = (p: string): string => readFileSync(p, 'utf8');
const withoutTiming = (dir: string): unknown => {
  const { wall_seconds: _w, process: _p, ...rest } = JSON.parse(read(join(dir, 'summary.json'))) as Record<string, unknown>;
  return rest;
};

describe('--queue redis:// with textstress worker processes (BullMQ)', () => {
  let redis: ChildProcess;
  let url = '';
  const workers: ChildProcess[] = [];
  // Workers are processes: one is killed with -9 while it holds a job, and each runs until a signal. The
  // coordinator and the local runs compared with it run in this process (runCli).
  const startWorker = async (): Promise<ChildProcess> => {
    const w = await startQueueWorker(url, ['--lock-ms', '3000']);
    workers.push(w);
    return w;
  };

  beforeAll(async () => {
    if (SKIP_REDIS || !HAS_REDIS) return;
    ({ url, process: redis } = await startRedis());
  }, 30_000);
  afterAll(() => {
    for (const w of workers) w.kill('SIGKILL');
    redis?.kill('SIGKILL');
  });

  queueIt(
    'a suite through --queue gives the outputs of a local suite run',
    async () => {
      while (workers.filter((w) => w.exitCode === null && w.signalCode === null).length < 2) await startWorker();
      const dir = tmp('queue-suite');
      const file = writeSst2Suite(
        dir,
        [
          '{ name: typos-k2, recipe: typos, settings: { k: 2 }, thresholds: ["attack_success_rate <= 1"] }',
          '{ name: grammar, recipe: grammar, thresholds: ["attack_success_rate <= 1"] }',
        ],
        24,
      );
      const local = join(dir, 'local');
      const queued = join(dir, 'queued');
      expect((await runCli(['run', file, '--out', local, '--no-progress'])).code).toBe(0);
      const r = await runCli(['run', file, '--out', queued, '--queue', url, '--block-size', '5', '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
      for (const t of ['typos-k2', 'grammar']) {
        expect(read(join(queued, t, 'results.jsonl'))).toBe(read(join(local, t, 'results.jsonl')));
        expect(withoutTiming(join(queued, t))).toEqual(withoutTiming(join(local, t)));
      }
    },
    180_000,
  );

  queueIt(
    'a job that fails on every attempt is reported by example instead of hanging',
    async () => {
      if (!workers.some((w) => w.exitCode === null)) await startWorker();
      const r = await runCli([
        'attack',
        'typos',
        '--model',
        'http://127.0.0.1:9',
        '--task',
        'text-classification',
        '--labels',
        'negative,positive',
        '--retries',
        '0',
        '--data',
        SST2_DEV,
        '--limit',
        '4',
        '--out',
        tmp('queue-fail'),
        '--queue',
        url,
        '--no-progress',
      ]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/job.* failed after 3 attempts/);
      expect(r.stderr).toMatch(/Examples without a result: .*dev\.tsv:2/);
    },
    120_000,
  );
});
