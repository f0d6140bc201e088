/**
 * `textstress worker --queue redis://…`: takes blocks of examples from the queue and runs the same per-example code
 * as a local run (the same seeds: run seed + example id), storing each result in the run's Redis hash. Start as
 * many as you like, anywhere the model is reachable; BullMQ's guidance for CPU work is many processes with a low
 * in-process concurrency (default 1 job at a time; the examples of a block run together, sharing model batches).
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { DelayedError, Worker, type Job } from 'bullmq';
import { parseLabelMap } from '../core/labels.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { openEngine, openModel } from '../runner/open.ts';
import { kindOf, prepareFor, type ExampleJob } from '../kinds/index.ts';
import { closeBuilt } from '../kinds/prepare.ts';
import type { Built } from '../recipes/registry/define.ts';
import { recipeSettings } from '../kinds/run.ts';
import { TextstressError } from '../util/errors.ts';
import { packageVersion } from '../util/package-root.ts';
import { connectionFrom, connectRedis, QUEUE_NAME, refusalsKey, resultsKey, storedResult, type BlockJob } from './jobs.ts';
import { codeDigest, differences, fingerprintDigest, fingerprintOf, type Fingerprint } from './fingerprint.ts';
import { modelPool } from './model-pool.ts';

/** A run as a worker holds it open between its blocks: its model, engine and per-example job (or why it refuses it). */
interface Prepared {
  model: ModelAdapter;
  /** The recipe as built for this run (closed with the worker: what it opened). */
  built: Built;
  engine: QueryEngine;
  job: ExampleJob;
  /** This worker's fingerprint digest, stored with each result. */
  digest: string;
  /** How this worker differs from the run's fingerprint: non-empty = its jobs are refused. */
  refused: string[];
}

/** A refused job goes back to the queue for another worker after this long (without using up an attempt). */
const REFUSED_DELAY_MS = 1000;
/** SIGTERM: the jobs in hand get this long to finish, then the worker lets go of them (another worker takes them). */
const GRACE_MS = 4000;

export interface WorkerOptions {
  registry: Registry;
  /** Jobs this process runs at once (default 1). */
  concurrency?: number;
  /** BullMQ lock duration: a job whose worker died is handed to another after about this long (default 30 000 ms). */
  lockMs?: number;
  log?: (line: string) => void;
}

/** A running worker; `close()` finishes the jobs in hand and closes the models. */
export interface RunningWorker {
  close(): Promise<void>;
}

export async function startWorker(url: string, opts: WorkerOptions): Promise<RunningWorker> {
  const connection = connectionFrom(url);
  // Fails in seconds, in one line, when Redis cannot be reached at start.
  const redis = await connectRedis(url, { offline: 'queue' });
  const name = `textstress-${hostname()}-${process.pid}`;
  const runs = new Map<string, Promise<Prepared>>();
  /** Runs whose engine stopped (their model failed for good): closed with the worker. */
  const retired: Prepared[] = [];

  // Runs on the same model share it (src/queue/model-pool.ts): one copy of the weights per worker.
  const models = modelPool(async (spec) => {
    const model = await openModel(spec);
    return { model, fingerprint: fingerprintOf(model) };
  });

  const prepare = async (job: BlockJob): Promise<Prepared> => {
    const { request } = job;
    const def = opts.registry.get(request.recipe);
    const settings = recipeSettings(def, request.settings);
    const { model, fingerprint: mine } = await models.get(request);
    const engine = openEngine(model, request);
    const built = await prepareFor(def, settings, model.info, job.info, {
      seed: request.seed,
      labelMap: parseLabelMap(request.labelMap as string | undefined),
      observedLabels: job.observedLabels,
    });
    const perExample = kindOf(def).perExample;
    if (!perExample) throw new TextstressError(`the ${def.name} recipe is not run example by example, so no worker can take its jobs.`);
    return {
      model,
      built,
      engine,
      job: perExample.job(built, model, { seed: request.seed, compact: request.compact === true, engine }),
      digest: fingerprintDigest(mine),
      refused: refusal(job.fingerprint, mine),
    };
  };

  /** Refuses the job: says why where the coordinator reads it, and puts the job back for another worker. */
  const refuse = async (job: Job<BlockJob>, token: string | undefined, diff: string[]): Promise<never> => {
    await redis.hset(refusalsKey(job.data.runId), name, JSON.stringify({ worker: name, differences: diff }));
    opts.log?.(`refused job ${job.id} of run ${job.data.runId}: this worker's ${diff.join(', ')}`);
    await job.moveToDelayed(Date.now() + REFUSED_DELAY_MS, token);
    throw new DelayedError();
  };

  const processor = async (job: Job<BlockJob>, token?: string): Promise<{ stored: number }> => {
    const data = job.data;
    // The code is compared before the model is opened: a worker of other code does nothing for the run.
    const codeDiff = refusal(data.fingerprint, undefined);
    if (codeDiff.length) return refuse(job, token, codeDiff);
    let p = runs.get(data.runId);
    if (!p) {
      p = prepare(data);
      runs.set(data.runId, p);
      p.catch(() => runs.delete(data.runId));
    }
    const run = await p;
    if (run.refused.length) return refuse(job, token, run.refused);
    const key = resultsKey(data.runId);
    const maxQueries = data.request.maxQueries as number | undefined;
    let stored = 0;
    try {
      await Promise.all(
        data.examples.map(async (example) => {
          // At least once: a block that ran before (a stalled job) keeps what it stored.
          if (await redis.hexists(key, example.id)) return;
          const session = run.engine.session(maxQueries);
          const line = await run.job(example, session);
          await redis.hset(key, example.id, storedResult(run.digest, JSON.stringify(line)));
          stored++;
        }),
      );
    } catch (err) {
      // The model failed for good and the engine stopped asking it (a run-wide circuit, query/engine.ts): the next
      // job of the run opens the model afresh rather than failing at once without a try.
      if (run.engine.failure !== undefined && runs.get(data.runId) === p) {
        runs.delete(data.runId);
        retired.push(run);
      }
      throw err;
    } finally {
      await run.engine.flushed();
    }
    return { stored };
  };

  const lockDuration = opts.lockMs ?? 30_000;
  const worker = new Worker<BlockJob>(QUEUE_NAME, processor, {
    connection,
    // Which process holds a job (job.processedBy), for operators and the crash test.
    name,
    concurrency: opts.concurrency ?? 1,
    lockDuration,
    stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
    maxStalledCount: 3,
  });
  worker.on('failed', (job, err) => opts.log?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`));
  // While Redis is away BullMQ reports every failed reconnect: one line per new message, not dozens.
  let lastError = '';
  worker.on('error', (err) => {
    if (err.message !== lastError) opts.log?.(`worker: ${err.message}`);
    lastError = err.message;
  });
  worker.on('ready', () => (lastError = ''));
  await worker.waitUntilReady();
  opts.log?.(
    `worker listening on ${connection.host}:${connection.port} (queue "${QUEUE_NAME}", ${opts.concurrency ?? 1} job(s) at a time)`,
  );
  return {
    async close() {
      // Bounded, Redis or not: the jobs in hand get GRACE_MS, then the worker lets go of them (their lock lapses and
      // another worker takes them; results already stored are kept).
      const graceful = await Promise.race([worker.close().then(() => true), sleep(GRACE_MS).then(() => false)]);
      if (!graceful) {
        opts.log?.(`not closed after ${GRACE_MS / 1000} s (a job in hand, or Redis gone): letting go`);
        await Promise.race([worker.close(true).catch(() => undefined), sleep(1000)]);
        void worker.disconnect().catch(() => undefined);
      }
      redis.disconnect();
      for (const r of retired) await r.model.close?.();
      for (const p of runs.values()) {
        const r = await Promise.race([p.catch(() => undefined), sleep(1000).then(() => undefined)]);
        if (graceful) await Promise.race([r?.engine.flushed(), sleep(1000)]);
        await closeBuilt(r?.built);
      }
      await models.close();
    },
  };
}

/** How this worker differs from the run's fingerprint (`mine` undefined: compare the version and code only). */
function refusal(theirs: Fingerprint | undefined, mine: Fingerprint | undefined): string[] {
  if (!theirs) return ['code (the job carries no fingerprint: it comes from an older coordinator)'];
  const own = mine ?? { ...theirs, version: packageVersion(), code: codeDigest() };
  return differences(theirs, own);
}
