/**
 * `textstress worker --queue redis://…`: takes blocks of examples from the queue and runs the same per-example code
 * as a local run (the same seeds: run seed + example id), storing each result in the run's Redis hash. Start as
 * many as you like, anywhere the model is reachable; BullMQ's guidance for CPU work is many processes with a low
 * in-process concurrency (default 1 job at a time; the examples of a block run together, sharing model batches).
 */
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { parseLabelMap } from '../attack/labels.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { openEngine, openModel, type ModelSpec } from '../runner/open.ts';
import { kindOf, prepareFor, type ExampleJob } from '../kinds/index.ts';
import { recipeSettings } from '../kinds/run.ts';
import { TextstressError } from '../util/errors.ts';
import { connectionFrom, QUEUE_NAME, resultsKey, type BlockJob } from './jobs.ts';

/** A run as a worker holds it open between its blocks: its model, engine and per-example job. */
interface Prepared {
  model: ModelAdapter;
  engine: QueryEngine;
  job: ExampleJob;
}

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
  const redis = new Redis(connection);
  const runs = new Map<string, Promise<Prepared>>();

  const prepare = async (job: BlockJob): Promise<Prepared> => {
    const { request } = job;
    const def = opts.registry.get(request.recipe);
    const settings = recipeSettings(def, request.settings);
    const model = await openModel(request as unknown as ModelSpec);
    const engine = openEngine(model, request as unknown as ModelSpec);
    const built = await prepareFor(def, settings, model.info, job.info, {
      seed: request.seed,
      labelMap: parseLabelMap(request.labelMap as string | undefined),
      observedLabels: job.observedLabels,
    });
    const perExample = kindOf(def).perExample;
    if (!perExample) throw new TextstressError(`the ${def.name} recipe is not run example by example, so no worker can take its jobs.`);
    return { model, engine, job: perExample.job(built, model, { seed: request.seed, compact: request.compact === true, engine }) };
  };

  const processor = async (job: Job<BlockJob>): Promise<{ stored: number }> => {
    const data = job.data;
    let p = runs.get(data.runId);
    if (!p) {
      p = prepare(data);
      runs.set(data.runId, p);
      p.catch(() => runs.delete(data.runId));
    }
    const run = await p;
    const key = resultsKey(data.runId);
    const maxQueries = data.request.maxQueries as number | undefined;
    let stored = 0;
    await Promise.all(
      data.examples.map(async (example) => {
        // At least once: a block that ran before (a stalled job) keeps what it stored.
        if (await redis.hexists(key, example.id)) return;
        const session = run.engine.session(maxQueries);
        const line = await run.job(example, session);
        await redis.hset(key, example.id, JSON.stringify(line));
        stored++;
      }),
    );
    await run.engine.flushed();
    return { stored };
  };

  const lockDuration = opts.lockMs ?? 30_000;
  const worker = new Worker<BlockJob>(QUEUE_NAME, processor, {
    connection,
    // Which process holds a job (job.processedBy), for operators and the crash test.
    name: `textstress-${hostname()}-${process.pid}`,
    concurrency: opts.concurrency ?? 1,
    lockDuration,
    stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
    maxStalledCount: 3,
  });
  worker.on('failed', (job, err) => opts.log?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`));
  worker.on('error', (err) => opts.log?.(`worker: ${err.message}`));
  await worker.waitUntilReady();
  opts.log?.(
    `worker listening on ${connection.host}:${connection.port} (queue "${QUEUE_NAME}", ${opts.concurrency ?? 1} job(s) at a time)`,
  );
  return {
    async close() {
      await worker.close();
      for (const p of runs.values()) {
        const r = await p.catch(() => undefined);
        await r?.engine.flushed();
        await r?.model.close?.();
      }
      redis.disconnect();
    },
  };
}
