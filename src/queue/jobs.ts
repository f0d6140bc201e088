/**
 * What the coordinator and the workers share: the Redis connection, the queue's name, a job's payload and the keys
 * a run keeps its results under. BullMQ is at-least-once (a stalled job can run twice), so results are stored in a
 * Redis hash keyed by example id: writing one twice leaves it once, and a worker skips examples already stored.
 */
import type { ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { DatasetInfo, Example } from '../data/types.ts';
import { errorMessage, TextstressError } from '../util/errors.ts';
import type { Fingerprint } from './fingerprint.ts';

/** The one queue every textstress worker takes jobs from (jobs carry their run). */
export const QUEUE_NAME = 'textstress';

/** A block of examples of one run: everything a worker needs, the examples themselves included (no data file needed). */
export interface BlockJob {
  runId: string;
  /** The run's request as run.json keeps it (recipe, settings, seed, model and data options; no secrets). */
  request: Record<string, unknown> & { recipe: string; settings: Record<string, unknown>; seed: number; model: string };
  info: DatasetInfo;
  /** Gold labels seen in the whole data (label alignment must not depend on the block). */
  observedLabels: string[];
  examples: Example[];
  /** The code and model that made the run: a worker whose own differ refuses the job (absent: a job of older code). */
  fingerprint?: Fingerprint;
}

/** The hash that holds a run's results: example id → results.jsonl line. */
export function resultsKey(runId: string): string {
  return `textstress:run:${runId}:results`;
}

/** The coordinators attached to a run: instance id → when its lease ends (ms); the last one to finish cleans up. */
export function coordinatorsKey(runId: string): string {
  return `textstress:run:${runId}:coordinators`;
}

/** Workers that refused a run's jobs: worker name → JSON {worker, differences}. */
export function refusalsKey(runId: string): string {
  return `textstress:run:${runId}:refused`;
}

/** A stored result: the digest of the fingerprint of the worker that made it, a tab, the results.jsonl line. */
export function storedResult(digest: string, line: string): string {
  return `${digest}\t${line}`;
}

/** How long to try to reach Redis at start before giving up (a wrong URL fails in seconds, not never). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A connected ioredis client, or a one-line error naming the address and the cause. Every client gets an error
 * listener (else ioredis prints "[ioredis] Unhandled error event" with a stack trace on every failed reconnect);
 * `offline: 'fail'` makes commands reject at once while Redis is away, so the caller's waits stay bounded.
 */
export async function connectRedis(url: string, opts: { offline: 'fail' | 'queue' }): Promise<Redis> {
  const conn = connectionFrom(url);
  let connected = false;
  let firstError: unknown;
  const client = new Redis({
    ...conn,
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: opts.offline === 'queue',
    maxRetriesPerRequest: opts.offline === 'queue' ? null : 1,
    // No retry at start (the error is the answer); later, reconnect (a Redis restart) at most every 2 s.
    retryStrategy: (times) => (connected ? Math.min(times * 200, 2000) : null),
  });
  client.on('error', (err) => (firstError ??= err));
  let timer: NodeJS.Timeout | undefined;
  try {
    // connectTimeout bounds the TCP connect only: a server that accepts and never answers would hold us forever.
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new NotRedis(`it accepted the connection but did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)),
        CONNECT_TIMEOUT_MS,
      );
    });
    await Promise.race([client.connect(), silent]);
    connected = true;
  } catch (err) {
    client.disconnect();
    throw unreachable(conn, err instanceof NotRedis ? err : (firstError ?? err));
  } finally {
    clearTimeout(timer);
  }
  return client;
}

class NotRedis extends Error {}

/** The error for a Redis that cannot be reached, or a server there that is not Redis. */
export function unreachable(conn: { host: string; port: number }, err: unknown): TextstressError {
  const where = `redis://${conn.host}:${conn.port}`;
  // ioredis's parser says "Protocol error, got "H" as reply type byte. Please report this." of an HTTP server.
  const protocol = /Protocol error/i.test(errorMessage(err));
  if (protocol || err instanceof NotRedis) {
    const why = protocol ? 'it answered in another protocol (an HTTP server, say)' : errorMessage(err);
    return new TextstressError(`the queue URL ${where} is not a Redis server: ${why}.`, {
      hint: 'Give the port redis-server listens on (6379 by default): --queue redis://host:port.',
    });
  }
  return new TextstressError(`cannot reach Redis at ${conn.host}:${conn.port}: ${errorMessage(err).replace(/\.$/, '')}.`, {
    hint: 'Start redis-server there, or give the right --queue redis://host:port.',
  });
}

/** BullMQ connection options from a redis:// URL, with what BullMQ's guide asks of workers (maxRetriesPerRequest null). */
export function connectionFrom(url: string): ConnectionOptions & { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TextstressError(`--queue "${url}" is not a URL.`, {
      hint: 'E.g. --queue redis://127.0.0.1:6379 (rediss:// for TLS, redis://:password@host:port/db).',
    });
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new TextstressError(`--queue "${url}" is not a redis:// or rediss:// URL.`);
  const db = u.pathname.replace(/^\//, '');
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}
