/**
 * `attack … --queue redis://…`: the run as a coordinator. It prepares the recipe (so a bad setting fails here, not
 * in every worker), enqueues the examples in blocks with deterministic job ids (run id = hash of the request and
 * the data file; the same command re-attaches to the same jobs), waits while workers store results, reports jobs
 * that failed for good by example id, then writes results.jsonl in data order and lets the recipe finish the run
 * from it (a resume with nothing left to do) — the same outputs as a local run.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { parseLabelMap } from '../core/labels.ts';
import type { Example } from '../data/types.ts';
import { lockFolder, withLentLock } from '../runner/lock.ts';
import { alreadyHoldsRun, readStateFile } from '../runner/resume.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE } from '../runner/per-example.ts';
import { recipeSettings, runRecipe, type RecipeOutcome, type RunRequest } from '../kinds/run.ts';
import { runSettingsOf } from '../kinds/per-example.ts';
import { savedRequest } from '../kinds/request.ts';
import { assertSupports, kindOf, prepareFor } from '../kinds/index.ts';
import { closeBuilt } from '../kinds/prepare.ts';
import { fileFingerprint, openData, openModel, surveyExamples, type DataSpec } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { connectionFrom, connectRedis, QUEUE_NAME, type BlockJob } from './jobs.ts';
import { fingerprintDigest, fingerprintOf, type Fingerprint } from './fingerprint.ts';
import { attach, detach, waitForResults, type Block } from './watch.ts';

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
  const settings = recipeSettings(def, req.settings);
  const { queue: _q, blockSize: _b, attempts: _a, ...local } = req;
  const conn = connectionFrom(req.queue);
  // A finished run resumed: nothing to queue (its results left Redis when it finished).
  if (req.resume && readStateFile<{ status?: string }>(join(req.out, STATE_FILE))?.status === 'complete')
    return runRecipe({ ...local, resume: true });
  // The folder is this run's from now to its end, waiting for workers included: a second run or coordinator on it is
  // refused, and nothing there is removed under another run's feet (issue 35).
  const release = lockFolder(req.out);
  try {
    if (!req.overwrite && !req.resume && (existsSync(join(req.out, STATE_FILE)) || existsSync(join(req.out, RESULTS_FILE))))
      throw alreadyHoldsRun(req.out);
    return await coordinate(req, def, settings, local, conn, started);
  } finally {
    release();
  }
}

async function coordinate(
  req: QueuedRunRequest,
  def: ReturnType<QueuedRunRequest['registry']['get']>,
  settings: ReturnType<typeof recipeSettings>,
  local: Omit<QueuedRunRequest, 'queue' | 'blockSize' | 'attempts'>,
  conn: ReturnType<typeof connectionFrom>,
  started: number,
): Promise<RecipeOutcome> {
  const data = req as QueuedRunRequest & DataSpec;
  // Redis first: an unreachable queue fails in seconds, before the model is loaded.
  const redis = await connectRedis(req.queue, { offline: 'fail' });
  const queue = new Queue<BlockJob>(QUEUE_NAME, { connection: redis });
  queue.on('error', () => undefined);
  const instance = randomUUID();
  let runId = '';
  try {
    // The model is opened here for its info (task, labels), the recipe's checks and the run's fingerprint.
    const model = await openModel(req);
    const survey = await surveyExamples(await openData(data));
    const info = (await openData(data)).info;
    let select: ((e: Example) => boolean) | undefined;
    let made: Fingerprint;
    try {
      const built = await prepareFor(def, settings, model.info, info, {
        seed: req.seed,
        labelMap: parseLabelMap(req.labelMap),
        observedLabels: survey.labels,
      });
      select = kindOf(def).perExample?.select?.(built);
      made = fingerprintOf(model);
      // Built for its checks and selection only: what it opened is not used here.
      await closeBuilt(built);
    } finally {
      await model.close?.();
    }
    const request = savedRequest(req, settings) as BlockJob['request'];
    const fingerprint = await fileFingerprint(data.data);
    runId = createHash('sha256').update(JSON.stringify({ request, fingerprint, made })).digest('hex').slice(0, 16);
    const size = req.blockSize ?? 16;
    const observedLabels = [...survey.labels];
    const blocks: Block[] = [];
    let block: Example[] = [];
    for await (const e of (await openData(data)).examples()) {
      if (select && !select(e)) continue;
      block.push(e);
      if (block.length < size) continue;
      blocks.push({ jobId: `${runId}-${blocks.length}`, examples: block, requeued: 0 });
      block = [];
    }
    if (block.length) blocks.push({ jobId: `${runId}-${blocks.length}`, examples: block, requeued: 0 });
    const total = blocks.reduce((n, b) => n + b.examples.length, 0);
    const attempts = req.attempts ?? 3;
    // Deterministic ids: a second coordinator (or a re-run, or a re-queue of a lost job) adds nothing twice.
    const add = (b: Block): Promise<unknown> =>
      queue.add(
        'examples',
        { runId, request, info, observedLabels, examples: b.examples, fingerprint: made },
        { jobId: b.jobId, attempts, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: false },
      );
    const others = await attach(redis, runId, instance);
    if (others)
      req.log?.(`attached to run ${runId}: ${others} other coordinator(s) wait on it too; results stay until the last one is done`);
    for (const b of blocks) await add(b);
    req.log?.(
      `queued ${total} examples in ${blocks.length} jobs (run ${runId}) on ${conn.host}:${conn.port}; waiting ` +
        `for workers (textstress worker --queue ${req.queue})`,
    );
    const lines = await waitForResults({
      redis,
      queue,
      runId,
      instance,
      blocks,
      total,
      attempts,
      add,
      digest: fingerprintDigest(made),
      conn,
      req,
      name: def.name,
    });

    // The outputs one process writes: results in data order, then the recipe finishes the run.
    mkdirSync(req.out, { recursive: true });
    for (const f of [STATE_FILE, RESULTS_FILE, SUMMARY_FILE]) rmSync(join(req.out, f), { force: true });
    const resultsPath = join(req.out, RESULTS_FILE);
    writeFileSync(resultsPath, lines.map((l) => l + '\n').join(''));
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
    const outcome = await withLentLock(req.out, () => runRecipe({ ...local, resume: true, overwrite: false }));
    if (!(await detach(redis, runId, instance, true)))
      req.log?.(`another coordinator of run ${runId} is still waiting: its results stay in Redis for it`);
    runId = '';
    return outcome;
  } finally {
    // A coordinator that stops early lets go of its lease (results stay: a rerun picks them up).
    if (runId) await detach(redis, runId, instance, false).catch(() => undefined);
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}
