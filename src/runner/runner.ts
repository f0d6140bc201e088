import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attackExample, type Attack } from '../attack/attack.ts';
import type { ExampleResult } from '../attack/result.ts';
import type { Example } from '../data/types.ts';
import { summarize, type RunMetrics } from '../metrics/summary.ts';
import type { QueryEngine, QueryEngineStats } from '../query/engine.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { Rng } from '../util/rng.ts';
import { appendResult, readCheckpoint } from './checkpoint.ts';

/** What identifies a run: a resume must match it exactly. */
export interface RunSettings {
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  limit?: number;
  options: Record<string, unknown>;
}

export interface RunSummary extends RunMetrics {
  complete: true;
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  settings: Record<string, unknown>;
  wall_seconds: number;
  /** Rows of the data file skipped as malformed (only with --skip-bad-rows). */
  skipped_rows: number;
  /**
   * This process's traffic (differs between a resumed and an uninterrupted run): inputs requested, served
   * from the shared cache (also across examples and earlier runs in the process), and really computed.
   */
  process: { requests: number; cache_hits: number; cache_hit_rate: number; model_inferences: number };
}

export interface RunOptions {
  outDir: string;
  settings: RunSettings;
  examples: AsyncIterable<Example>;
  attack: Attack;
  engine: QueryEngine;
  /** Continue a run in outDir instead of refusing to touch it. */
  resume?: boolean;
  /** Replace whatever outDir holds. */
  overwrite?: boolean;
  /** Examples attacked at the same time; their queries share model batches. */
  concurrency?: number;
  /** Extra per-result work after the attack (e.g. the subword view). */
  enrich?: (result: ExampleResult) => Promise<void>;
  onProgress?: (done: number, resumed: number) => void;
  /** Counted bad rows, read after the examples are exhausted. */
  skippedRows?: () => number;
}

interface RunState {
  settings: RunSettings;
  status: 'running' | 'complete' | 'failed';
  wall_seconds: number;
  error?: string;
  updated_at: string;
}

export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.json';
export const STATE_FILE = 'run.json';

/**
 * Streams a dataset through an attack. Results are appended to results.jsonl in dataset order as they
 * finish; summary.json is written only when every example is done, so a partial run is never presented
 * as complete. An interrupted run (even kill -9) continues with `resume`.
 */
export async function runAttack(opts: RunOptions): Promise<{ summary: RunSummary; results: ExampleResult[] }> {
  const started = Date.now();
  const { outDir, settings } = opts;
  const stats0 = { ...opts.engine.stats };
  const resultsPath = join(outDir, RESULTS_FILE);
  const statePath = join(outDir, STATE_FILE);
  const summaryPath = join(outDir, SUMMARY_FILE);
  mkdirSync(outDir, { recursive: true });

  let previousWall = 0;
  let finishedIds: string[] = [];
  if (opts.overwrite) {
    for (const f of [resultsPath, statePath, summaryPath]) rmSync(f, { force: true });
  } else if (existsSync(statePath) || existsSync(resultsPath)) {
    if (!opts.resume) {
      throw new TextstressError(`${outDir} already holds a run.`, {
        hint: 'Pass --resume to continue it, --overwrite to replace it, or choose another --out.',
      });
    }
    const prior = readState(statePath);
    if (prior) {
      assertSameSettings(prior.settings, settings, statePath);
      previousWall = prior.wall_seconds;
    }
    finishedIds = readCheckpoint(resultsPath).map((r) => r.id);
  }
  rmSync(summaryPath, { force: true });
  const saveState = (status: RunState['status'], error?: string): void => {
    const state: RunState = {
      settings,
      status,
      wall_seconds: previousWall + (Date.now() - started) / 1000,
      ...(error ? { error } : {}),
      updated_at: new Date().toISOString(),
    };
    writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
  };
  saveState('running');

  const finished = new Set(finishedIds);
  const resumed = finished.size;
  const concurrency = Math.max(1, opts.concurrency ?? 32);
  type Settled = { ok: true; result: ExampleResult } | { ok: false; error: unknown; example: Example };
  const queue: Promise<Settled>[] = [];
  const iterator = opts.examples[Symbol.asyncIterator]();
  let exhausted = false;
  let completedNow = 0;
  const seen = new Set<string>();

  const launch = (example: Example): Promise<Settled> =>
    (async (): Promise<Settled> => {
      const result = await attackExample(
        opts.attack,
        example,
        opts.engine.session(),
        Rng.derive(settings.seed, example.id),
      );
      if (opts.enrich) await opts.enrich(result);
      return { ok: true, result };
    })().catch((error: unknown) => ({ ok: false, error, example }));

  try {
    for (;;) {
      while (!exhausted && queue.length < concurrency) {
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const example = next.value;
        if (seen.has(example.id)) {
          throw new TextstressError(`two examples share the id "${example.id}".`, {
            where: example.source,
            hint: 'Ids must be unique for results and resume to be reliable; map a unique id column.',
          });
        }
        seen.add(example.id);
        if (finished.has(example.id)) continue;
        queue.push(launch(example));
      }
      const head = queue.shift();
      if (!head) break;
      const settled = await head;
      if (!settled.ok) {
        await Promise.all(queue); // let in-flight attacks settle; their results are not written
        const where = settled.example.source ?? settled.example.id;
        throw new TextstressError(
          `the run stopped at example ${where}: ${errorMessage(settled.error)} ` +
            `${resumed + completedNow} finished results are kept in ${resultsPath}; ` +
            `fix the cause and rerun the same command with --resume to continue.`,
          { cause: settled.error },
        );
      }
      appendResult(resultsPath, settled.result);
      completedNow++;
      opts.onProgress?.(resumed + completedNow, resumed);
    }
  } catch (err) {
    saveState('failed', errorMessage(err));
    throw err;
  }

  // Re-read the checkpoint: the summary depends on the file's content only, resumed or not.
  const results = readCheckpoint(resultsPath);
  const wall = previousWall + (Date.now() - started) / 1000;
  const summary: RunSummary = {
    complete: true,
    recipe: settings.recipe,
    model: settings.model,
    dataset: settings.dataset,
    seed: settings.seed,
    settings: { ...settings.options, ...(settings.limit !== undefined ? { limit: settings.limit } : {}) },
    ...summarize(results),
    wall_seconds: round(wall, 3),
    skipped_rows: opts.skippedRows?.() ?? 0,
    process: processStats(stats0, opts.engine.stats),
  };
  writeFileSync(summaryPath, JSON.stringify(summary, null, 2) + '\n');
  saveState('complete');
  return { summary, results };
}

function processStats(before: QueryEngineStats, after: QueryEngineStats): RunSummary['process'] {
  const requests = after.requests - before.requests;
  const hits = after.cacheHits - before.cacheHits;
  return {
    requests,
    cache_hits: hits,
    cache_hit_rate: requests ? round(hits / requests, 4) : 0,
    model_inferences: after.inferences - before.inferences,
  };
}

function readState(path: string): RunState | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunState;
  } catch (err) {
    throw new TextstressError(`cannot read the run state: ${errorMessage(err)}`, {
      where: path,
      hint: 'Start a fresh run with --overwrite.',
    });
  }
}

function assertSameSettings(prior: RunSettings, now: RunSettings, where: string): void {
  const a = JSON.stringify(prior);
  const b = JSON.stringify(now);
  if (a === b) return;
  const top = (x: RunSettings, k: string): unknown => (x as unknown as Record<string, unknown>)[k];
  const differing = [
    ...[...new Set([...Object.keys(prior), ...Object.keys(now)])]
      .filter((k) => k !== 'options' && JSON.stringify(top(prior, k)) !== JSON.stringify(top(now, k))),
    ...[...new Set([...Object.keys(prior.options ?? {}), ...Object.keys(now.options ?? {})])]
      .filter((k) => JSON.stringify(prior.options?.[k]) !== JSON.stringify(now.options?.[k])),
  ];
  const what = differing.length ? differing.join(', ') : 'the settings';
  throw new TextstressError(
    `--resume needs the same settings as the interrupted run, but ${what} ${differing.length === 1 ? 'differs' : 'differ'}.`,
    { where, hint: 'Rerun with the original options, or start afresh with --overwrite.' },
  );
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
