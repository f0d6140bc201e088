/**
 * `attack … --queue redis://…`: the run as a coordinator. It prepares the recipe (so a bad setting fails here, not
 * in every worker), enqueues the examples in blocks with deterministic job ids (run id = hash of the request and
 * the data file; the same command re-attaches to the same jobs), waits while workers store results, reports jobs
 * that failed for good by example id, then writes results.jsonl in data order and lets the recipe finish the run
 * from it (a resume with nothing left to do) — the same outputs as a local run.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { parseLabelMap } from '../attack/labels.ts';
import type { Example } from '../data/types.ts';
import { alreadyHoldsRun, readStateFile } from '../runner/resume.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE } from '../runner/per-example.ts';
import { recipeSettings, runRecipe, type RecipeOutcome, type RunRequest } from '../kinds/run.ts';
import { runSettingsOf } from '../kinds/per-example.ts';
import { savedRequest } from '../kinds/request.ts';
import { assertSupports, kindOf, prepareFor } from '../kinds/index.ts';
import { fileFingerprint, openData, openModel, surveyExamples, type DataSpec } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { connectionFrom, QUEUE_NAME, resultsKey, type BlockJob } from './jobs.ts';

export interface QueuedRunRequest extends RunRequest {
  /** redis:// URL of the queue. */
  queue: string;
  /** Examples per job (default 16). */
  blockSize?: number;
  /** Attempts per job before it counts as failed (default 3). */
  attempts?: number;
}

export async function runQueued(req: QueuedRunRequest): Promise<RecipeOutcome> {
  const started = Date.now();
  const def = req.registry.get(req.recipe);
  assertSupports(def, 'queue');
  if (req.maxQueries !== undefined) assertSupports(def, 'maxQueries');
  if (!req.data) throw new TextstressError(`the ${def.name} recipe needs a dataset.`, { hint: 'Pass --data <file>.' });
  if (req.shard) throw new TextstressError('--queue and --shard do not go together: the queue spreads the examples itself.');
  const data = req as QueuedRunRequest & DataSpec;
  const settings = recipeSettings(def, req.settings);
  const { queue: _q, blockSize: _b, attempts: _a, ...local } = req;
  // A finished run resumed: nothing to queue (its results left Redis when it finished).
  if (req.resume && readStateFile<{ status?: string }>(join(req.out, STATE_FILE))?.status === 'complete')
    return runRecipe({ ...local, resume: true });
  if (!req.overwrite && !req.resume && (existsSync(join(req.out, STATE_FILE)) || existsSync(join(req.out, RESULTS_FILE))))
    throw alreadyHoldsRun(req.out);

  // The model is opened here only for its info (task, labels) and the recipe's checks; the workers ask it.
  const model = await openModel(req);
  const survey = await surveyExamples(await openData(data));
  const info = (await openData(data)).info;
  let select: ((e: Example) => boolean) | undefined;
  try {
    const built = await prepareFor(def, settings, model.info, info, {
      seed: req.seed,
      labelMap: parseLabelMap(req.labelMap),
      observedLabels: survey.labels,
    });
    select = kindOf(def).perExample?.select?.(built);
  } finally {
    await model.close?.();
  }
  const request = savedRequest(req, settings) as BlockJob['request'];
  const fingerprint = await fileFingerprint(data.data);
  const runId = createHash('sha256').update(JSON.stringify({ request, fingerprint })).digest('hex').slice(0, 16);

  const connection = connectionFrom(req.queue);
  const queue = new Queue<BlockJob>(QUEUE_NAME, { connection });
  const redis = new Redis(connection);
  const key = resultsKey(runId);
  try {
    // Enqueue: deterministic ids, so a second coordinator (or a re-run) adds nothing twice.
    const size = req.blockSize ?? 16;
    const observedLabels = [...survey.labels];
    let block: Example[] = [];
    let blocks = 0;
    let total = 0;
    const enqueue = async (): Promise<void> => {
      if (!block.length) return;
      const jobId = `${runId}-${blocks++}`;
      await queue.add(
        'examples',
        { runId, request, info, observedLabels, examples: block },
        {
          jobId,
          attempts: req.attempts ?? 3,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: false,
        },
      );
      block = [];
    };
    for await (const e of (await openData(data)).examples()) {
      if (select && !select(e)) continue;
      total++;
      block.push(e);
      if (block.length >= size) await enqueue();
    }
    await enqueue();
    req.log?.(
      `queued ${total} examples in ${blocks} jobs (run ${runId}) on ${connection.host}:${connection.port}; waiting ` +
        `for workers (textstress worker --queue ${req.queue})`,
    );

    // Wait for every result, reporting progress; jobs that failed for good are named by example.
    const progress = req.progress?.start(def.name, total);
    try {
      for (;;) {
        const done = await redis.hlen(key);
        progress?.update(done);
        if (done >= total) break;
        const failed = (await queue.getFailed(0, -1)).filter((j) => j.id?.startsWith(`${runId}-`));
        if (failed.length) {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          const pending = Object.values(counts).reduce((a, b) => a + b, 0);
          if (pending === 0 || failed.length === blocks) {
            const missing: string[] = [];
            for (const j of failed) for (const e of j.data.examples) if (!(await redis.hexists(key, e.id))) missing.push(e.source ?? e.id);
            throw new TextstressError(
              `${failed.length} job${failed.length === 1 ? '' : 's'} failed after ${req.attempts ?? 3} attempts: ` +
                `${failed[0]!.failedReason}. Examples without a result: ` +
                `${missing.slice(0, 8).join(', ')}${missing.length > 8 ? `, … (${missing.length})` : ''}.`,
              {
                hint: 'Fix the cause (the workers log it), then rerun the same command: results stored so far are kept and the failed jobs run again.',
              },
            );
          }
        }
        await sleep(300);
      }
    } finally {
      progress?.stop();
    }
    for (const j of (await queue.getFailed(0, -1)).filter((x) => x.id?.startsWith(`${runId}-`))) await j.remove();

    // The outputs one process writes: results in data order, then the recipe finishes the run.
    mkdirSync(req.out, { recursive: true });
    for (const f of [STATE_FILE, RESULTS_FILE, SUMMARY_FILE]) rmSync(join(req.out, f), { force: true });
    const resultsPath = join(req.out, RESULTS_FILE);
    writeFileSync(resultsPath, '');
    for await (const e of (await openData(data)).examples()) {
      if (select && !select(e)) continue;
      const line = await redis.hget(key, e.id);
      if (line === null)
        throw new TextstressError(`example ${e.source ?? e.id} has no result in the queue's store (run ${runId}).`, {
          hint: 'Rerun the same command: it waits for it again.',
        });
      appendFileSync(resultsPath, line + '\n');
    }
    writeFileSync(
      join(req.out, STATE_FILE),
      JSON.stringify(
        {
          settings: runSettingsOf(def, settings, data),
          request,
          data_fingerprint: fingerprint,
          status: 'running',
          wall_seconds: (Date.now() - started) / 1000,
          updated_at: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
    const outcome = await runRecipe({ ...local, resume: true, overwrite: false });
    await redis.del(key);
    return outcome;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
