/**
 * The Redis queue for real: a redis-server of our own on a free port (temporary folder, no persistence), worker
 * processes started as a user starts them, and the coordinator's outputs compared with a local run's. The faults
 * (kill -9 of a worker holding a job, Redis lost under a worker) are in test/faults/queue-workers.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { SST2_DEV, runCli, tmp, writeSst2Suite, readJson, stable } from '../cli/helpers.ts';
import { queueIt, useQueueWorkers } from '../support/redis.ts';

const read = (p: string): string => readFileSync(p, 'utf8');
const withoutTiming = (dir: string): unknown => stable(readJson(join(dir, 'summary.json')));

describe('--queue redis:// with textstress worker processes (BullMQ)', () => {
  // Workers are processes (one may be killed with -9 while it holds a job); the coordinator and the local runs
  // compared with it run in this process (runCli).
  const q = useQueueWorkers();

  queueIt(
    'a suite through --queue gives the outputs of a local suite run',
    async () => {
      while (q.alive().length < 2) await q.startWorker();
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
      const r = await runCli(['run', file, '--out', queued, '--queue', q.url, '--block-size', '5', '--no-progress']);
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
      if (!q.workers.some((w) => w.exitCode === null)) await q.startWorker();
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
        q.url,
        '--no-progress',
      ]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/job.* failed after 3 attempts/);
      expect(r.stderr).toMatch(/Examples without a result: .*dev\.tsv:2/);
    },
    120_000,
  );
});
