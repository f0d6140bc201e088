/**
 * The coordinator's wait, with every wait bounded: results are counted as workers store them; jobs that failed for
 * good are named by example; jobs that vanished with their results missing (Redis restarted without persistence,
 * a result made by other code discarded) are queued again, a bounded number of times, saying so; a Redis that stays
 * away fails the run after OUTAGE_MS; workers that refuse the run (other code or model) are named, and a run that
 * only such workers see fails after STALL_MS without progress. Coordinators of one run attach to it with a lease;
 * the last one to finish deletes the run's keys, so none deletes results another still waits for.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Example } from '../data/types.ts';
import type { RunRequest } from '../kinds/run.ts';
import { errorMessage, TextstressError } from '../util/errors.ts';
import { coordinatorsKey, refusalsKey, resultsKey, unreachable, type BlockJob } from './jobs.ts';

/** One job's examples, as the coordinator enqueued them. */
export interface Block {
  jobId: string;
  examples: Example[];
  /** Times this block was queued again after its job vanished. */
  requeued: number;
}

const POLL_MS = 300;
/** How often jobs are checked for having vanished (a hash read per unfinished block). */
const LOST_CHECK_MS = 3000;
/** Times one block may be queued again before the run fails naming it. */
const MAX_REQUEUES = 3;
/** A Redis away this long fails the run. */
const OUTAGE_MS = 60_000;
/** With workers refusing the run, this long without a new result fails it. */
const STALL_MS = 60_000;
/** A coordinator's lease on its run, renewed while it waits; one killed -9 stops counting after this. */
const LEASE_MS = 30_000;

/** Registers this coordinator on the run; returns how many others are attached (their lease still running). */
export async function attach(redis: Redis, runId: string, instance: string): Promise<number> {
  await redis.hset(coordinatorsKey(runId), instance, String(Date.now() + LEASE_MS));
  return (await liveCoordinators(redis, runId)).filter((id) => id !== instance).length;
}

/** Lets go of the run; when `cleanUp` and no other coordinator holds a lease, deletes its keys. True when none is left. */
export async function detach(redis: Redis, runId: string, instance: string, cleanUp: boolean): Promise<boolean> {
  await redis.hdel(coordinatorsKey(runId), instance);
  const left = await liveCoordinators(redis, runId);
  if (left.length) return false;
  if (cleanUp) await redis.del(resultsKey(runId), refusalsKey(runId), coordinatorsKey(runId));
  return true;
}

async function liveCoordinators(redis: Redis, runId: string): Promise<string[]> {
  const all = await redis.hgetall(coordinatorsKey(runId));
  return Object.entries(all)
    .filter(([, until]) => Number(until) > Date.now())
    .map(([id]) => id);
}

export interface Watch {
  redis: Redis;
  queue: Queue<BlockJob>;
  runId: string;
  instance: string;
  blocks: Block[];
  total: number;
  attempts: number;
  add: (b: Block) => Promise<unknown>;
  /** The run's fingerprint digest: a stored result with another is not used. */
  digest: string;
  conn: { host: string; port: number };
  req: RunRequest;
  name: string;
}

/** Waits until every example has a result made by the run's code and model; returns the results.jsonl lines in data order. */
export async function waitForResults(w: Watch): Promise<string[]> {
  const { redis, runId, req } = w;
  const key = resultsKey(runId);
  const progress = req.progress?.start(w.name, w.total);
  let outageSince: number | undefined;
  let lastCheck = Date.now();
  let lastProgress = Date.now();
  let lastDone = -1;
  let leaseAt = 0;
  const refusedSeen = new Set<string>();
  try {
    for (;;) {
      try {
        if (Date.now() - leaseAt > LEASE_MS / 6) {
          await redis.hset(coordinatorsKey(runId), w.instance, String(Date.now() + LEASE_MS));
          leaseAt = Date.now();
        }
        const done = await redis.hlen(key);
        if (outageSince !== undefined) req.log?.(`Redis at ${w.conn.host}:${w.conn.port} is back; checking the run's jobs`);
        if (outageSince !== undefined) lastCheck = 0;
        outageSince = undefined;
        progress?.update(Math.min(done, w.total));
        if (done !== lastDone) {
          lastDone = done;
          lastProgress = Date.now();
        }
        if (done >= w.total) {
          const lines = await collect(w);
          if (lines) return lines;
          lastCheck = 0;
        }
        await reportFailed(w);
        for (const [worker, json] of Object.entries(await redis.hgetall(refusalsKey(runId)))) {
          if (refusedSeen.has(worker)) continue;
          refusedSeen.add(worker);
          const diff = (JSON.parse(json) as { differences?: string[] }).differences ?? [];
          req.log?.(
            `worker ${worker} refused run ${runId}: its ${diff.join('; ')}. Its results are not used; other workers take the jobs.`,
          );
        }
        if (refusedSeen.size && Date.now() - lastProgress > STALL_MS)
          throw new TextstressError(
            `no result for ${STALL_MS / 1000} s, and worker(s) ${[...refusedSeen].join(', ')} refused run ${runId} (other code or model).`,
            { hint: 'Start workers from the same textstress version and source, with the same model, then rerun the same command.' },
          );
        if (Date.now() - lastCheck > LOST_CHECK_MS) {
          await requeueLost(w);
          lastCheck = Date.now();
        }
      } catch (err) {
        if (err instanceof TextstressError) throw err;
        if (outageSince === undefined) {
          outageSince = Date.now();
          req.log?.(`lost Redis at ${w.conn.host}:${w.conn.port} (${errorMessage(err)}); waiting up to ${OUTAGE_MS / 1000} s for it`);
        } else if (Date.now() - outageSince > OUTAGE_MS) throw unreachable(w.conn, err);
      }
      await sleep(POLL_MS);
    }
  } finally {
    progress?.stop();
  }
}

/**
 * The results in data order, or undefined when some are missing or were made by other code (those are deleted,
 * said, and their blocks go back to the queue).
 */
async function collect(w: Watch): Promise<string[] | undefined> {
  const key = resultsKey(w.runId);
  const lines: string[] = [];
  const foreign: string[] = [];
  let missing = 0;
  for (const b of w.blocks) {
    const values = await w.redis.hmget(key, ...b.examples.map((e) => e.id));
    values.forEach((v, i) => {
      const e = b.examples[i]!;
      if (v === null) missing++;
      else if (!v.startsWith(`${w.digest}\t`)) foreign.push(e.id);
      else lines.push(v.slice(w.digest.length + 1));
    });
  }
  if (foreign.length) {
    await w.redis.hdel(key, ...foreign);
    w.req.log?.(
      `${foreign.length} result(s) were stored by a worker of other code or another model (e.g. ${foreign.slice(0, 3).join(', ')}): ` +
        'not used; their examples go back to the queue',
    );
  }
  return missing || foreign.length ? undefined : lines;
}

/** Jobs that failed for good end the run, naming the examples without a result (once no job is pending). */
async function reportFailed(w: Watch): Promise<void> {
  const failed = (await w.queue.getFailed(0, -1)).filter((j) => j.id?.startsWith(`${w.runId}-`));
  if (!failed.length) return;
  const counts = await w.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  const pending = Object.values(counts).reduce((a, b) => a + b, 0);
  if (pending !== 0 && failed.length !== w.blocks.length) return;
  const key = resultsKey(w.runId);
  const missing: string[] = [];
  for (const j of failed) for (const e of j.data.examples) if (!(await w.redis.hexists(key, e.id))) missing.push(e.source ?? e.id);
  // Failed jobs are kept for this report; a rerun queues them afresh.
  for (const j of failed) await j.remove().catch(() => undefined);
  throw new TextstressError(
    `${failed.length} job${failed.length === 1 ? '' : 's'} failed after ${w.attempts} attempts: ${failed[0]!.failedReason}. ` +
      `Examples without a result: ${missing.slice(0, 8).join(', ')}${missing.length > 8 ? `, … (${missing.length})` : ''}.`,
    {
      hint: 'Fix the cause (the workers log it), then rerun the same command: results stored so far are kept and the failed jobs run again.',
    },
  );
}

/** Blocks with results missing whose job is gone (or completed): queued again, at most MAX_REQUEUES times each. */
async function requeueLost(w: Watch): Promise<void> {
  const key = resultsKey(w.runId);
  const ids = (b: Block): string[] => b.examples.map((e) => e.id);
  const incomplete = async (b: Block): Promise<boolean> => (await w.redis.hmget(key, ...ids(b))).some((v) => v === null);
  let again = 0;
  for (const b of w.blocks) {
    if (!(await incomplete(b))) continue;
    const state = await w.queue.getJobState(b.jobId);
    if (state !== 'unknown' && state !== 'completed') continue;
    // It may have completed between the two reads.
    if (!(await incomplete(b))) continue;
    if (++b.requeued > MAX_REQUEUES)
      throw new TextstressError(
        `job ${b.jobId} vanished from Redis ${MAX_REQUEUES} times with results missing (${b.examples[0]!.source ?? b.examples[0]!.id}, …).`,
        {
          hint:
            'Redis keeps losing the run (restarts without persistence, evictions: set maxmemory-policy noeviction), ' +
            'or workers of other code take its jobs.',
        },
      );
    if (state === 'completed') await w.queue.remove(b.jobId);
    await w.add(b);
    again++;
  }
  if (again)
    w.req.log?.(
      `${again} job(s) of run ${w.runId} were gone from Redis with results missing (Redis restarted without persistence?): queued again`,
    );
}
