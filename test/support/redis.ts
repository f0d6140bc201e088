/** A redis-server of a test's own: a free port on 127.0.0.1, a temporary folder, no persistence; resolved once it answers. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { it } from 'vitest';
import { freePort } from '../cli/helpers.ts';

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
