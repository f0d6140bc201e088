/**
 * Queue workers under faults (npm run test:faults): kill -9 of a worker that holds a job, and Redis lost and
 * restarted under an idle worker; the coordinator's outputs are compared with a local run's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { describe, expect } from 'vitest';
import { DEMO_SST2, SST2_DEV, runCli, tmp, readJson, stable, typosOnSst2 } from '../cli/helpers.ts';
import { queueIt, useQueueWorkers } from '../support/redis.ts';

const read = (p: string): string => readFileSync(p, 'utf8');
const withoutTiming = (dir: string): unknown => stable(readJson(join(dir, 'summary.json')));

describe('--queue redis:// with textstress worker processes (BullMQ)', () => {
  // Workers are processes (one may be killed with -9 while it holds a job); the coordinator and the local runs
  // compared with it run in this process (runCli).
  const q = useQueueWorkers();

  queueIt(
    '3 workers give the outputs of a local run; kill -9 of a worker holding a job loses and duplicates nothing',
    async () => {
      const common = typosOnSst2('--limit', '60', '--k', '2', '--seed', '3', '--no-progress');
      const local = tmp('queue-local');
      expect((await runCli([...common, '--out', local])).code).toBe(0);

      await Promise.all([q.startWorker(), q.startWorker(), q.startWorker()]);
      const out = tmp('queue-out');
      const coordinator = runCli([...common, '--out', out, '--queue', q.url, '--block-size', '4']);
      // Once jobs are in hand, kill -9 the worker that holds one.
      const queue = new Queue('textstress', { connection: { host: '127.0.0.1', port: q.port, maxRetriesPerRequest: null } });
      let killed = false;
      for (let i = 0; i < 200 && !killed; i++) {
        const active = await queue.getActive();
        const holder = active.map((j) => j.processedBy).find(Boolean);
        const victim = holder ? q.workers.find((w) => holder.endsWith(`-${w.pid}`)) : undefined;
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
      const alive = q.alive();
      for (const w of alive.slice(1)) w.kill('SIGTERM');
      // Redis goes away under the idle worker and comes back (empty: no persistence) on the same port.
      await q.restartRedis();
      const common = ['attack', 'noise', '--model', DEMO_SST2, '--data', SST2_DEV, '--limit', '8', '--no-progress'];
      const local = tmp('queue-reconnect-local');
      expect((await runCli([...common, '--out', local])).code).toBe(0);
      const out = tmp('queue-reconnect');
      const r = await runCli([...common, '--out', out, '--queue', q.url]);
      expect(r.code, r.stderr).toBe(0);
      expect(read(join(out, 'results.jsonl'))).toBe(read(join(local, 'results.jsonl')));
    },
    120_000,
  );
});
