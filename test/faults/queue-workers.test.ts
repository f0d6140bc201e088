/**
 * Queue workers under faults (npm run test:faults): kill -9 of a worker that holds a job, and Redis lost and
 * restarted under an idle worker; the coordinator's outputs are compared with a local run's.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_SST2, SST2_DEV, runCli, startQueueWorker, tmp } from '../cli/helpers.ts';
import { HAS_REDIS, SKIP_REDIS, queueIt, startRedis } from '../support/redis.ts';

const read = (p: string): string => readFileSync(p, 'utf8');
const withoutTiming = (dir: string): unknown => {
  const { wall_seconds: _w, process: _p, ...rest } = JSON.parse(read(join(dir, 'summary.json'))) as Record<string, unknown>;
  return rest;
};

describe('--queue redis:// with textstress worker processes (BullMQ)', () => {
  let redis: ChildProcess;
  let url = '';
  let port = 0;
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
    ({ url, port, process: redis } = await startRedis());
  }, 30_000);
  afterAll(() => {
    for (const w of workers) w.kill('SIGKILL');
    redis?.kill('SIGKILL');
  });

  queueIt(
    '3 workers give the outputs of a local run; kill -9 of a worker holding a job loses and duplicates nothing',
    async () => {
      const common = [
        'attack',
        'typos',
        '--model',
        DEMO_SST2,
        '--data',
        SST2_DEV,
        '--limit',
        '60',
        '--k',
        '2',
        '--seed',
        '3',
        '--no-progress',
      ];
      const local = tmp('queue-local');
      expect((await runCli([...common, '--out', local])).code).toBe(0);

      await Promise.all([startWorker(), startWorker(), startWorker()]);
      const out = tmp('queue-out');
      const coordinator = runCli([...common, '--out', out, '--queue', url, '--block-size', '4']);
      // Once jobs are in hand, kill -9 the worker that holds one.
      const queue = new Queue('textstress', { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
      let killed = false;
      for (let i = 0; i < 200 && !killed; i++) {
        const active = await queue.getActive();
        const holder = active.map((j) => j.processedBy).find(Boolean);
        const victim = holder ? workers.find((w) => holder.endsWith(`-${w.pid}`)) : undefined;
        if (victim) {
          victim.kill('SIGKILL');
          killed = true;
        } else await sleep(50);
      }
      await queue.close();
      expect(killed).toBe(true);
      const r = await coordinator;
      expect(r.code, r.stderr).toBe(0);
      expect(read(join(out, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
      expect(withoutTiming(out)).toEqual(withoutTiming(local));
    },
    120_000,
  );

  queueIt(
    'a worker that loses Redis reconnects and takes the next run',
    async () => {
      const alive = workers.filter((w) => w.exitCode === null && w.signalCode === null);
      for (const w of alive.slice(1)) w.kill('SIGTERM');
      // Redis goes away under the idle worker and comes back (empty: no persistence) on the same port.
      redis.kill('SIGKILL');
      await sleep(1500);
      redis = (await startRedis(port)).process;
      const common = ['attack', 'noise', '--model', DEMO_SST2, '--data', SST2_DEV, '--limit', '8', '--no-progress'];
      const local = tmp('queue-reconnect-local');
      expect((await runCli([...common, '--out', local])).code).toBe(0);
      const out = tmp('queue-reconnect');
      const r = await runCli([...common, '--out', out, '--queue', url]);
      expect(r.code, r.stderr).toBe(0);
      expect(read(join(out, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
    },
    120_000,
  );
});
