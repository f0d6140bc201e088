/**
 * `textstress worker --queue redis://…`: takes blocks of examples from the queue and runs the same per-example code
 * as a local run (the same seeds: run seed + example id), storing each result in the run's Redis hash. Start as
 * many as you like, anywhere the model is reachable; BullMQ's guidance for CPU work is many processes with a low
 * in-process concurrency (default 1 job at a time; the examples of a block run together, sharing model batches).
 */
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { ExampleResult } from '../attack/result.ts';
import { stressExample } from '../attack/stress.ts';
import { parseLabelMap } from '../attack/labels.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { parseSettings } from '../recipes/registry/settings.ts';
import { attackResult, compactResult, type ExampleWork } from '../runner/runner.ts';
import { openEngine, openModel, type ModelSpec } from '../runner/setup.ts';
import { subwordEnricher } from '../runner/subwords.ts';
import { prepareRecipe } from '../runner/work.ts';
import type { Built } from '../recipes/registry/define.ts';
import { connectionFrom, QUEUE_NAME, resultsKey, type BlockJob } from './jobs.ts';

/** A run as a worker holds it open between its blocks. */
interface Prepared {
  model: ModelAdapter;
  engine: QueryEngine;
  built: Built;
  work?: ExampleWork;
  enrich?: (r: ExampleResult) => Promise<void>;
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
    const settings = parseSettings(def, request.settings) as Record<string, unknown>;
    const model = await openModel(request as unknown as ModelSpec);
    const engine = openEngine(model, request as unknown as ModelSpec);
    const { built, work } = await prepareRecipe(def, settings, model.info, job.info, {
      seed: request.seed,
      labelMap: parseLabelMap(request.labelMap as string | undefined),
      observedLabels: job.observedLabels,
    });
    const enrich = subwordEnricher(model);
    return { model, engine, built, ...(work ? { work } : {}), ...(enrich ? { enrich } : {}) };
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
        let line: unknown;
        if (run.built.kind === 'stress') line = await stressExample(run.built.suite, example, session, data.request.seed);
        else {
          const r = await attackResult(run.work!, example, session, data.request.seed, run.engine, run.enrich);
          line = data.request.compact ? compactResult(r) : r;
        }
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
