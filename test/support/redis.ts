/** A redis-server of a test's own: a free port on 127.0.0.1, a temporary folder, no persistence; resolved once it answers. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, it } from 'vitest';
import { freePort, startQueueWorker } from '../cli/helpers.ts';

/** Whether Debian's redis-server is installed (.ci/run installs it). */
export const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;
/** The user left the queue's checks out (TEXTSTRESS_SKIP_REDIS=1): they are skipped, and listed with this reason. */
export const SKIP_REDIS = process.env.TEXTSTRESS_SKIP_REDIS === '1' ? 'TEXTSTRESS_SKIP_REDIS=1: the Redis queue was not tested' : undefined;

/** Starts redis-server (on `port`, or a free one) and waits (5 s at most) until it takes connections. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; process: ChildProcess }> {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, lazyConnect: true });
  probe.on('error', () => undefined);
  for (let i = 0; i < 50; i++) {
    try {
      await probe.connect();
      break;
    } catch {
      await sleep(100);
    }
  }
  probe.disconnect();
  return { url: `redis://127.0.0.1:${port}`, port, process: child };
}

const MISSING =
  "redis-server not found: install Debian's redis-server (apt-get install redis-server), or set TEXTSTRESS_SKIP_REDIS=1 to leave these checks out";

/**
 * A queue test: skipped with the reason only when the user opted out (TEXTSTRESS_SKIP_REDIS=1); failed, saying why,
 * without redis-server (.ci/run installs it), as the browser test does without chromium.
 */
export function queueIt(name: string, fn: () => Promise<void>, timeout: number): void {
  it(
    name,
    async (ctx) => {
      if (SKIP_REDIS) ctx.skip(SKIP_REDIS);
      if (!HAS_REDIS) throw new Error(MISSING);
      await fn();
    },
    timeout,
  );
}

/** A file's Redis and queue workers (see {@link useQueueWorkers}). */
export interface QueueHarness {
  readonly url: string;
  readonly port: number;
  /** Worker processes started so far (some may have exited or been killed). */
  readonly workers: ChildProcess[];
  /** Starts one more `textstress worker` on this Redis (3 s job locks, so a killed worker's job comes back soon). */
  startWorker(): Promise<ChildProcess>;
  /** The workers still running. */
  alive(): ChildProcess[];
  /** Kills Redis and starts an empty one on the same port (no persistence: every queued job is gone). */
  restartRedis(): Promise<void>;
}

/** Starts a Redis for the file (unless the queue's checks are left out) and kills it and every worker afterwards. */
export function useQueueWorkers(): QueueHarness {
  let redis: ChildProcess | undefined;
  const h = {
    url: '',
    port: 0,
    workers: [] as ChildProcess[],
    async startWorker(): Promise<ChildProcess> {
      const w = await startQueueWorker(h.url, ['--lock-ms', '3000']);
      h.workers.push(w);
      return w;
    },
    alive: (): ChildProcess[] => h.workers.filter((w) => w.exitCode === null && w.signalCode === null),
    async restartRedis(): Promise<void> {
      redis?.kill('SIGKILL');
      await sleep(1500);
      redis = (await startRedis(h.port)).process;
    },
  };
  beforeAll(async () => {
    if (SKIP_REDIS || !HAS_REDIS) return;
    const r = await startRedis();
    Object.assign(h, { url: r.url, port: r.port });
    redis = r.process;
  }, 30_000);
  afterAll(() => {
    for (const w of h.workers) w.kill('SIGKILL');
    redis?.kill('SIGKILL');
  });
  return h;
}
