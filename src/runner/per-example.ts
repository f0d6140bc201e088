/**
 * The loop every per-example run shares (attacks, probes, stress tests): a locked, resumable output folder, the
 * examples streamed through a bounded pool in dataset order, one results.jsonl line per finished example, and
 * summary.json written only when every example is done, from the results file alone.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Example } from '../data/types.ts';
import type { EngineSnapshot, QueryEngine, QuerySession } from '../query/engine.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { appendResultLine, readCheckpointIds } from './checkpoint.ts';
import { outputDigests, type Digests } from './digest.ts';
import { HELD_FILE, dropHeld, holdLine, readHeld } from './held.ts';
import { lockFolder } from './lock.ts';
import { orderedPool } from './pool.ts';
import { shardOf, type Shard } from './shard.ts';
import { alreadyHoldsRun, resumeState } from './resume.ts';

/** What identifies a run: a resume must match it exactly. */
export interface RunSettings {
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  limit?: number;
  options: Record<string, unknown>;
  /** Results written in compact form (see compactResult). */
  compact?: true;
  /** Only the examples of this shard (`--shard I/N`); `textstress merge` joins the shards. */
  shard?: Shard;
}

interface RunState {
  settings: RunSettings;
  /** How to open the run again (model and data options, recipe settings; no secrets): what `merge` re-runs with. */
  request?: Record<string, unknown>;
  data_fingerprint?: string;
  status: 'running' | 'complete' | 'failed';
  wall_seconds: number;
  error?: string;
  /** Content digests of results.jsonl and summary.json, written when the run completes (checked by merge). */
  digests?: Digests;
  updated_at: string;
}

/** One JSON line per finished example (or generated record): the checkpoint. */
export const RESULTS_FILE = 'results.jsonl';
/** The finished run's figures, written only when every example is done. */
export const SUMMARY_FILE = 'summary.json';
/** What wrote the folder and how far it got: settings, status, the request that reopens it. */
export const STATE_FILE = 'run.json';

/** What the summary of a per-example run is computed from, once every example is done. */
export interface FinishContext {
  resultsPath: string;
  /** Wall time of the whole run, resumed parts included, in seconds. */
  wallSeconds: number;
  /** The engine's counters when this process started the run. */
  stats0: EngineSnapshot;
}

/** Options of {@link runPerExample}. */
export interface PerExampleOptions<R extends { id: string }, S> {
  outDir: string;
  settings: RunSettings;
  examples: AsyncIterable<Example>;
  engine: QueryEngine;
  /** The work on one example; its queries go through `session`. */
  work(example: Example, session: QuerySession): Promise<R>;
  /** The line written for a result (default: the result itself). */
  line?(result: R): unknown;
  /** The summary, from the finished results file (so resumed and uninterrupted runs agree). */
  finish(ctx: FinishContext): Promise<S>;
  /**
   * The kind's other outputs, written from the finished results before the run is marked complete (e.g. a probe's
   * D_worst and D_best): when they fail, run.json says failed and a resume writes them again.
   */
  outputs?(resultsPath: string): Promise<void>;
  resume?: boolean;
  overwrite?: boolean;
  concurrency?: number;
  onProgress?: (done: number, resumed: number) => void;
  dataFingerprint?: string;
  /** The ids are unique by construction (line-based): skip the duplicate check and its set of every id. */
  uniqueIds?: boolean;
  /** Per-example query budget (distinct queries), handed to every example's session. */
  maxQueries?: number;
  /** Saved in run.json: how to open the run again (see RunState.request). */
  request?: Record<string, unknown>;
}

/**
 * Streams the examples through `work` into `outDir` (locked while it runs) and writes summary.json from
 * `finish`. Results are appended in dataset order as they finish, whatever the concurrency; an interrupted run
 * (even kill -9) continues with `resume`. When an example fails, no new example starts, the ones running finish
 * and are kept (those after the failed one held aside, see held.ts, so results.jsonl stays in data order), and
 * the error names the failed examples.
 */
export async function runPerExample<R extends { id: string }, S>(opts: PerExampleOptions<R, S>): Promise<S> {
  const release = lockFolder(opts.outDir);
  try {
    return await runLocked(opts);
  } finally {
    release();
  }
}

async function runLocked<R extends { id: string }, S>(opts: PerExampleOptions<R, S>): Promise<S> {
  const started = Date.now();
  const { outDir, settings } = opts;
  const stats0 = opts.engine.snapshot();
  const resultsPath = join(outDir, RESULTS_FILE);
  const statePath = join(outDir, STATE_FILE);
  const summaryPath = join(outDir, SUMMARY_FILE);
  const heldPath = join(outDir, HELD_FILE);
  let previousWall = 0;
  let finished = new Set<string>();
  let held = new Map<string, string>();
  if (opts.overwrite) {
    for (const f of [resultsPath, statePath, summaryPath, heldPath]) rmSync(f, { force: true });
  } else if ([statePath, resultsPath, heldPath].some((f) => existsSync(f))) {
    if (!opts.resume) throw alreadyHoldsRun(outDir);
    const prior = resumeState<RunSettings, RunState>(statePath, resultsPath, {
      settings,
      dataFingerprint: opts.dataFingerprint,
      dataset: settings.dataset,
    });
    previousWall = prior.wall_seconds;
    finished = await readCheckpointIds(resultsPath);
    held = readHeld(heldPath, finished);
  }
  rmSync(summaryPath, { force: true });
  const wall = (): number => previousWall + (Date.now() - started) / 1000;
  const saveState = (status: RunState['status'], error?: string, digests?: Digests): void => {
    const state: RunState = {
      settings,
      ...(opts.request ? { request: opts.request } : {}),
      ...(opts.dataFingerprint ? { data_fingerprint: opts.dataFingerprint } : {}),
      status,
      wall_seconds: wall(),
      ...(error ? { error } : {}),
      ...(digests ? { digests } : {}),
      updated_at: new Date().toISOString(),
    };
    writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
  };
  saveState('running');

  const resumed = finished.size;
  let completedNow = 0;
  const failures: { example: Example; error: unknown }[] = [];
  const seen = new Set<string>();
  const shard = settings.shard;
  async function* pending(): AsyncGenerator<Example> {
    for await (const example of opts.examples) {
      if (opts.uniqueIds) {
        if (shard && shardOf(example.id, shard.count) !== shard.index) continue;
        if (!finished.has(example.id)) yield example;
        continue;
      }
      if (seen.has(example.id)) {
        throw new TextstressError(`two examples share the id "${example.id}".`, {
          where: example.source,
          hint: 'Ids must be unique for results and resume to be reliable; map a unique id column.',
        });
      }
      seen.add(example.id);
      if (shard && shardOf(example.id, shard.count) !== shard.index) continue;
      if (!finished.has(example.id)) yield example;
    }
  }

  // A held result is written in its place without the work (and its queries) being done again.
  const job = async (example: Example): Promise<{ line: string; wasHeld: boolean }> => {
    const line = held.get(example.id);
    if (line !== undefined) return { line, wasHeld: true };
    const result = await opts.work(example, opts.engine.session(opts.maxQueries));
    return { line: JSON.stringify(opts.line ? opts.line(result) : result), wasHeld: false };
  };

  try {
    for await (const outcome of orderedPool(pending(), job, { concurrency: opts.concurrency ?? 32 })) {
      if (!outcome.ok) {
        failures.push({ example: outcome.item, error: outcome.error });
        continue;
      }
      if (failures.length) {
        // Past a failed example: written now, this result would stand before it in the file.
        if (!outcome.value.wasHeld) holdLine(heldPath, outcome.value.line);
        held.set(outcome.item.id, outcome.value.line);
        continue;
      }
      appendResultLine(resultsPath, outcome.value.line);
      held.delete(outcome.item.id);
      completedNow++;
      opts.onProgress?.(resumed + completedNow, resumed);
    }
    if (failures.length) throw failureError(failures, { written: resumed + completedNow, resultsPath, held: held.size, heldPath });
    dropHeld(heldPath);
    // run.json says complete only once every output is written: a failure here is resumed like any other.
    const summary = await opts.finish({ resultsPath, wallSeconds: wall(), stats0 });
    await opts.outputs?.(resultsPath);
    writeFileSync(summaryPath, JSON.stringify(summary, null, 2) + '\n');
    saveState('complete', undefined, outputDigests(outDir, [RESULTS_FILE, SUMMARY_FILE]));
    return summary;
  } catch (err) {
    saveState('failed', errorMessage(err));
    throw err;
  }
}

interface Kept {
  written: number;
  resultsPath: string;
  /** Finished results after a failed example, waiting in heldPath for their place. */
  held: number;
  heldPath: string;
}

function failureError(
  failures: { example: Example; error: unknown }[],
  { written: kept, resultsPath, held, heldPath }: Kept,
): TextstressError {
  const where = (e: Example): string => e.source ?? e.id;
  const first = failures[0]!;
  const others =
    failures.length > 1
      ? ` (and ${failures.length - 1} more: ${failures
          .slice(1, 4)
          .map((f) => where(f.example))
          .join(', ')}${failures.length > 4 ? ', …' : ''})`
      : '';
  const heldText = held
    ? ` ${held} finished after it ${held === 1 ? 'waits' : 'wait'} in ${heldPath}, to be written in data order by --resume without querying again.`
    : '';
  const keptText =
    (kept ? `${kept} finished result${kept === 1 ? ' is' : 's are'} kept in ${resultsPath}.` : 'No example was finished yet.') + heldText;
  return new TextstressError(`the run stopped at example ${where(first.example)}${others}: ${errorMessage(first.error)} ${keptText}`, {
    cause: first.error,
    hint:
      kept + held
        ? 'Fix the cause, then rerun the same command with --resume to continue (finished examples are kept, not redone).'
        : 'Fix the cause, then rerun the same command with --resume (or --overwrite: nothing is kept yet).',
  });
}
