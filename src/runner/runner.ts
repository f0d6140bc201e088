import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attackExample, type Attack } from '../attack/attack.ts';
import type { ExampleResult } from '../attack/result.ts';
import type { Example } from '../data/types.ts';
import { SummaryAccumulator, type RunSummary } from '../metrics/summary.ts';
import type { QueryEngine, QueryEngineStats, QuerySession } from '../query/engine.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { Rng } from '../util/rng.ts';
import { appendResult, readCheckpointIds, readResults } from './checkpoint.ts';
import { lockFolder } from './lock.ts';
import { orderedPool } from './pool.ts';
import { alreadyHoldsRun, resumeState } from './resume.ts';

export type { RunSummary } from '../metrics/summary.ts';

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
}

/** The work done on one example: an attack's search, a probe's variants, … Model queries go through `session`. */
export type ExampleWork = (example: Example, session: QuerySession, rng: Rng) => Promise<ExampleResult>;

/** Options of {@link runAttack}: the output folder, the run's recorded settings, the examples and the per-example work. */
export interface RunOptions {
  outDir: string;
  settings: RunSettings;
  examples: AsyncIterable<Example>;
  /** The per-example work; or give `attack` (its search is the work). */
  work?: ExampleWork;
  attack?: Attack;
  engine: QueryEngine;
  /** Continue a run in outDir instead of refusing to touch it. */
  resume?: boolean;
  /** Replace whatever outDir holds. */
  overwrite?: boolean;
  /** Examples worked on at the same time; their queries share model batches. */
  concurrency?: number;
  /** Extra per-result work after the attack (e.g. the subword view). */
  enrich?: (result: ExampleResult) => Promise<void>;
  onProgress?: (done: number, resumed: number) => void;
  /** Counted bad rows, read after the examples are exhausted. */
  skippedRows?: () => number;
  /** Examples with U+FFFD in their text, read after the examples are exhausted. */
  replacementChars?: () => { rows: number; first?: string };
  /** The data file's fingerprint (size and hash): a resume refuses a data file that changed since the run started. */
  dataFingerprint?: string;
  /** Whether accuracy by edits means something for this work (default: from the attack's search). */
  editCurve?: boolean;
  /** The ids are unique by construction (line-based): skip the duplicate check and its set of every id. */
  uniqueIds?: boolean;
  /** Extractive QA data: the summary reports EM/F1 (null over zero examples). */
  qa?: boolean;
}

interface RunState {
  settings: RunSettings;
  data_fingerprint?: string;
  status: 'running' | 'complete' | 'failed';
  wall_seconds: number;
  error?: string;
  updated_at: string;
}

export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.json';
export const STATE_FILE = 'run.json';

/**
 * Streams a dataset through per-example work. Results are appended to results.jsonl in dataset order as they
 * finish, whatever the concurrency (a slow example does not hold the others up: they run past it and wait in a
 * bounded buffer); each example draws from an rng derived from the seed and its id, so the file, and the summary
 * computed from it, are the same bytes for the same seed and data (wall_seconds aside: it is a time);
 * summary.json is written only when every example is done, so a partial run is never presented as complete. An
 * interrupted run (even kill -9) continues with `resume`. When an example fails (its own model query failed),
 * no new example starts, the ones running finish and are kept, and the error names the failed examples.
 */
export async function runAttack(opts: RunOptions): Promise<{ summary: RunSummary }> {
  const release = lockFolder(opts.outDir);
  try {
    return await runLocked(opts);
  } finally {
    release();
  }
}

async function runLocked(opts: RunOptions): Promise<{ summary: RunSummary }> {
  const started = Date.now();
  const { outDir, settings } = opts;
  const work = workOf(opts);
  const stats0 = { ...opts.engine.stats };
  const resultsPath = join(outDir, RESULTS_FILE);
  const statePath = join(outDir, STATE_FILE);
  const summaryPath = join(outDir, SUMMARY_FILE);
  let previousWall = 0;
  let finished = new Set<string>();
  if (opts.overwrite) {
    for (const f of [resultsPath, statePath, summaryPath]) rmSync(f, { force: true });
  } else if (existsSync(statePath) || existsSync(resultsPath)) {
    if (!opts.resume) throw alreadyHoldsRun(outDir);
    const prior = resumeState<RunSettings, RunState>(statePath, resultsPath, { settings, dataFingerprint: opts.dataFingerprint, dataset: settings.dataset });
    previousWall = prior.wall_seconds;
    finished = await readCheckpointIds(resultsPath);
  }
  rmSync(summaryPath, { force: true });
  const saveState = (status: RunState['status'], error?: string): void => {
    const state: RunState = {
      settings,
      ...(opts.dataFingerprint ? { data_fingerprint: opts.dataFingerprint } : {}),
      status,
      wall_seconds: previousWall + (Date.now() - started) / 1000,
      ...(error ? { error } : {}),
      updated_at: new Date().toISOString(),
    };
    writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
  };
  saveState('running');

  const resumed = finished.size;
  let completedNow = 0;
  const failures: { example: Example; error: unknown }[] = [];
  const seen = new Set<string>();
  async function* pending(): AsyncGenerator<Example> {
    for await (const example of opts.examples) {
      if (opts.uniqueIds) {
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
      if (!finished.has(example.id)) yield example;
    }
  }
  const job = async (example: Example): Promise<ExampleResult> => {
    const result = await work(example, opts.engine.session(), Rng.derive(settings.seed, example.id));
    if (opts.enrich) await opts.enrich(result);
    return result;
  };

  try {
    for await (const outcome of orderedPool(pending(), job, { concurrency: opts.concurrency ?? 32 })) {
      if (!outcome.ok) {
        failures.push({ example: outcome.item, error: outcome.error });
        continue;
      }
      appendResult(resultsPath, settings.compact ? compactResult(outcome.value) : outcome.value);
      completedNow++;
      opts.onProgress?.(resumed + completedNow, resumed);
    }
    if (failures.length) throw failureError(failures, resumed + completedNow, resultsPath);
  } catch (err) {
    saveState('failed', errorMessage(err));
    throw err;
  }

  // The summary depends on the file's content only, resumed or not; it is read back in one streaming pass.
  const acc = new SummaryAccumulator({ qa: opts.qa === true });
  for await (const r of readResults(resultsPath)) acc.add(r);
  const wall = previousWall + (Date.now() - started) / 1000;
  const summary: RunSummary = {
    complete: true,
    recipe: settings.recipe,
    model: settings.model,
    dataset: settings.dataset,
    seed: settings.seed,
    settings: { ...settings.options, ...(settings.limit !== undefined ? { limit: settings.limit } : {}) },
    ...acc.finish(opts.editCurve ?? (opts.attack ? opts.attack.search.incremental !== false : true)),
    wall_seconds: round(wall, 3),
    ...(settings.compact ? { compact_results: true as const } : {}),
    skipped_rows: opts.skippedRows?.() ?? 0,
    ...(opts.replacementChars?.().rows ? { replacement_chars: { ...opts.replacementChars() } } : {}),
    process: processStats(stats0, opts.engine.stats),
  };
  writeFileSync(summaryPath, JSON.stringify(summary, null, 2) + '\n');
  saveState('complete');
  return { summary };
}

/**
 * A result as compact results keep it (for runs of millions of examples): no search trace, subword view or class
 * probabilities; texts and edits only of successful attacks (the others keep their edits counted by type). Every
 * count the summary and the report's charts need stays, so the summary is the same as with full results.
 */
export function compactResult(r: ExampleResult): ExampleResult {
  const { trace: _trace, subwords: _subwords, ...rest } = r;
  const { probs: _p1, ...before } = r.original_prediction;
  const { probs: _p2, ...after } = r.perturbed_prediction;
  if (r.status === 'succeeded') return { ...rest, trace: [], original_prediction: before, perturbed_prediction: after };
  const counts: Record<string, number> = {};
  for (const e of r.edits) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return { ...rest, trace: [], original: {}, perturbed: {}, edits: [], ...(r.edits.length ? { edit_counts: counts } : {}), original_prediction: before, perturbed_prediction: after };
}

function workOf(opts: RunOptions): ExampleWork {
  if (opts.work) return opts.work;
  const attack = opts.attack;
  if (!attack) throw new Error('runAttack needs `work` or `attack`');
  return (example, session, rng) => attackExample(attack, example, session, rng);
}

function failureError(failures: { example: Example; error: unknown }[], kept: number, resultsPath: string): TextstressError {
  const where = (e: Example): string => e.source ?? e.id;
  const first = failures[0]!;
  const others = failures.length > 1 ? ` (and ${failures.length - 1} more: ${failures.slice(1, 4).map((f) => where(f.example)).join(', ')}${failures.length > 4 ? ', …' : ''})` : '';
  const keptText = kept ? `${kept} finished result${kept === 1 ? ' is' : 's are'} kept in ${resultsPath}.` : 'No example was finished yet.';
  return new TextstressError(`the run stopped at example ${where(first.example)}${others}: ${errorMessage(first.error)} ${keptText}`, {
    cause: first.error,
    hint: kept
      ? 'Fix the cause, then rerun the same command with --resume to continue (finished examples are kept, not redone).'
      : 'Fix the cause, then rerun the same command with --resume (or --overwrite: nothing is kept yet).',
  });
}

/** The query engine's work during a run; a hit rate over zero requests is null (n/a), not 0. */
export function processStats(before: QueryEngineStats, after: QueryEngineStats): RunSummary['process'] {
  const requests = after.requests - before.requests;
  const hits = after.cacheHits - before.cacheHits;
  return {
    requests,
    cache_hits: hits,
    cache_hit_rate: requests ? round(hits / requests, 4) : null,
    model_inferences: after.inferences - before.inferences,
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
