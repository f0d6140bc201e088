/**
 * What the coordinator and the workers share: the Redis connection, the queue's name, a job's payload and the keys
 * a run keeps its results under. BullMQ is at-least-once (a stalled job can run twice), so results are stored in a
 * Redis hash keyed by example id: writing one twice leaves it once, and a worker skips examples already stored.
 */
import type { ConnectionOptions } from 'bullmq';
import type { DatasetInfo, Example } from '../data/types.ts';
import { TextstressError } from '../util/errors.ts';

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
}

/** The hash that holds a run's results: example id → results.jsonl line. */
export function resultsKey(runId: string): string {
  return `textstress:run:${runId}:results`;
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
