/**
 * Runs a generator step by step into a resumable folder: each step's records go to results.jsonl and its stats to
 * steps.jsonl; then state.json (the checkpoint: the generator's state and how many bytes of both files belong to
 * the finished steps) is replaced atomically. A run killed mid-step resumes from the last checkpoint, cutting
 * whatever the unfinished step had appended; every step draws from an rng derived from the seed and the step
 * index, so a resumed run writes exactly what an uninterrupted one would have.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { GenerateContext, Generator, GeneratorFinish } from '../../core/generate.ts';
import type { Example } from '../../data/types.ts';
import type { GenerateSummary } from '../../metrics/summary.ts';
import type { QueryEngine } from '../../query/engine.ts';

export type { GenerateSummary };
import { TextstressError, errorMessage } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { appendResult, readResults } from '../../runner/checkpoint.ts';
import { lockFolder } from '../../runner/lock.ts';
import { alreadyHoldsRun, assertSameSettings, resumeState, type SavedState } from '../../runner/resume.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE } from '../attack/run.ts';

/** A generator run's per-step numbers, one JSON line per step. */
export const STEPS_FILE = 'steps.jsonl';
const CHECKPOINT_FILE = 'state.json';

/** What identifies a generator run: a resume must match it exactly. */
export interface GenerateSettings {
  recipe: string;
  model: string;
  dataset: string | null;
  seed: number;
  options: Record<string, unknown>;
  /** The data options that decide which examples and labels it sees (when it takes data and any are given). */
  data_options?: Record<string, unknown>;
}

interface Checkpoint {
  settings: GenerateSettings;
  /** Steps finished. */
  done: number;
  state: unknown;
  results_bytes: number;
  steps_bytes: number;
  queries: number;
  wall_seconds: number;
}

/** Options of {@link runGenerator}: the folder, the generator, the engine and the run's identity. */
export interface GenerateOptions {
  outDir: string;
  generator: Generator;
  engine: QueryEngine;
  settings: GenerateSettings;
  resume?: boolean;
  overwrite?: boolean;
  /** The data file's fingerprint, for generators that take data: a resume refuses a data file that changed. */
  dataFingerprint?: string;
  /** The run's examples in data order (generators that take data). */
  examples?: () => AsyncIterable<Example>;
  onStep?: (done: number) => void;
}

/** Runs a generator into `outDir` (locked while it runs), resumable after each step; resolves with the summary written. */
export async function runGenerator(opts: GenerateOptions): Promise<GenerateSummary> {
  const release = lockFolder(opts.outDir);
  try {
    return await generateLocked(opts);
  } finally {
    release();
  }
}

async function generateLocked(opts: GenerateOptions): Promise<GenerateSummary> {
  const started = Date.now();
  const { outDir, generator, settings } = opts;
  const paths = {
    results: join(outDir, RESULTS_FILE),
    steps: join(outDir, STEPS_FILE),
    checkpoint: join(outDir, CHECKPOINT_FILE),
    state: join(outDir, STATE_FILE),
    summary: join(outDir, SUMMARY_FILE),
  };
  mkdirSync(outDir, { recursive: true });
  let cp: Checkpoint | undefined;
  if (opts.overwrite) {
    for (const p of Object.values(paths)) rmSync(p, { force: true });
  } else if ([paths.state, paths.checkpoint, paths.results, paths.steps].some((p) => existsSync(p))) {
    if (!opts.resume) throw alreadyHoldsRun(outDir);
    // run.json is written before the first step, so a folder without it was not written by a generator.
    resumeState<GenerateSettings, SavedState<GenerateSettings>>(paths.state, paths.results, {
      settings,
      dataFingerprint: opts.dataFingerprint,
      dataset: settings.dataset,
    });
    cp = readCheckpoint(paths.checkpoint);
    if (cp) assertSameSettings(cp.settings, settings, paths.checkpoint);
    // Cut what an unfinished step appended after the last checkpoint (everything, before the first one).
    cutTo(paths.results, cp?.results_bytes ?? 0);
    cutTo(paths.steps, cp?.steps_bytes ?? 0);
  }
  rmSync(paths.summary, { force: true });
  // results.jsonl exists even when no step adds a record (a fooling run that found none is a result).
  closeSync(openSync(paths.results, 'a'));
  const queries0 = opts.engine.stats.requests;
  const previousQueries = cp?.queries ?? 0;
  const previousWall = cp?.wall_seconds ?? 0;
  const fingerprint = opts.dataFingerprint ? { data_fingerprint: opts.dataFingerprint } : {};
  const writeState = (status: string, error?: string): void =>
    writeFileSync(
      paths.state,
      JSON.stringify({ settings, ...fingerprint, status, ...(error ? { error } : {}), updated_at: new Date().toISOString() }, null, 2) +
        '\n',
    );
  writeState('running');

  const ctxFor = (step: number): GenerateContext => ({
    model: opts.engine.adapter.info,
    query: (inputs) => opts.engine.query(inputs),
    rng: Rng.derive(settings.seed, generator.name, step < 0 ? 'init' : step >= generator.steps ? 'finish' : `step-${step}`),
    step,
    records: () => readResults<Record<string, unknown>>(paths.results),
    ...(opts.examples ? { examples: opts.examples } : {}),
  });
  let finished: GeneratorFinish = {};
  try {
    let state = cp ? cp.state : await generator.init(ctxFor(-1));
    for (let step = cp?.done ?? 0; step < generator.steps; step++) {
      const out = await generator.step(state, ctxFor(step));
      // One write per step, not per record (a fooling epoch can add hundreds of sentences).
      if (out.records.length) appendFileSync(paths.results, out.records.map((r) => JSON.stringify({ step, ...r }) + '\n').join(''));
      appendResult(paths.steps, { step, ...out.stats });
      state = out.state;
      const next: Checkpoint = {
        settings,
        done: step + 1,
        state,
        results_bytes: sizeOf(paths.results),
        steps_bytes: sizeOf(paths.steps),
        queries: previousQueries + opts.engine.stats.requests - queries0,
        wall_seconds: previousWall + (Date.now() - started) / 1000,
      };
      writeFileSync(`${paths.checkpoint}.tmp`, JSON.stringify(next));
      renameSync(`${paths.checkpoint}.tmp`, paths.checkpoint);
      opts.onStep?.(step + 1);
    }
    if (generator.finish) finished = await generator.finish(state, ctxFor(generator.steps));
    for (const [name, text] of Object.entries(finished.files ?? {})) {
      if (!/^[\w.-]+$/.test(name) || name.startsWith('.'))
        throw new Error(`generator ${generator.name}: file name "${name}" must be a plain name`);
      writeFileSync(join(outDir, name), text);
    }
  } catch (err) {
    writeState('failed', errorMessage(err));
    throw err;
  }

  const stats: Record<string, number>[] = [];
  for await (const s of readResults<Record<string, number>>(paths.steps)) stats.push(s);
  let n = 0;
  for await (const _ of readResults(paths.results)) n++;
  const summary: GenerateSummary = {
    complete: true,
    kind: 'generate',
    recipe: settings.recipe,
    model: settings.model,
    dataset: settings.dataset,
    seed: settings.seed,
    settings: settings.options,
    steps: stats.length,
    n,
    ...(generator.measured ? { measured: generator.measured(stats) } : {}),
    metrics: { ...generator.summarize(stats), ...finished.metrics },
    queries: previousQueries + opts.engine.stats.requests - queries0,
    wall_seconds: Math.round((previousWall + (Date.now() - started) / 1000) * 1000) / 1000,
    ...(finished.details ? { details: finished.details } : {}),
  };
  writeFileSync(paths.summary, JSON.stringify(summary, null, 2) + '\n');
  writeState('complete');
  return summary;
}

function readCheckpoint(path: string): Checkpoint | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
  } catch (err) {
    throw new TextstressError(`cannot read the generator checkpoint: ${errorMessage(err)}`, {
      where: path,
      hint: 'Start a fresh run with --overwrite.',
    });
  }
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

function cutTo(path: string, bytes: number): void {
  if (!existsSync(path) || statSync(path).size <= bytes) return;
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
