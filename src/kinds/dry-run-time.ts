/**
 * What a dry run says of wall time (issue 33: time to a useful answer). Two figures, each labelled by what it is:
 *
 * - expected: for a local model, about 20 examples drawn across the run (a shard by id hash) run for real (nothing
 *   is kept) and their wall time extrapolated to the whole run — searches, tokenising and the model together, on this
 *   machine now;
 * - model time at most: the dry run's bound on the requests × the real model's measured cost per input, timed on a
 *   sample of the very inputs the dry run would have sent (the data's own lengths), in batches of the size the real
 *   run sends. It bounds the model's share only: the searches' own work is not in it.
 *
 * A remote model is never asked in a dry run: its time is requests × the endpoint's latency ÷ concurrency, which the
 * dry run cannot know (it says so).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isHttpSpec, isOpenAiSpec } from '../models/load.ts';
import { duration } from '../util/format.ts';
import type { StandInModel } from '../models/stand-in.ts';
import type { ModelAdapter, ModelInput } from '../models/types.ts';
import { QueryEngine } from '../query/engine.ts';
import { openEngine, openStandIn } from '../runner/open.ts';
import { KINDS } from './index.ts';
import { runRecipe } from './run.ts';
import type { RunRequest, RunRow } from './types.ts';

/** The real model's cost per input, timed. */
export interface PerInput {
  seconds: number;
  /** Inputs timed (after one warm-up batch, not counted). */
  inputs: number;
  batch: number;
}

/** Examples a dry run runs for real on a local model to time them (the expectation's pilot). */
export const PILOT_EXAMPLES = 20;

/**
 * A dry run (`--dry-run`): the recipe against a stand-in model in a scratch folder (removed after), its per-run rows
 * (what it would send and cost), and with `time`, its wall-time figures (see the file comment).
 */
export async function dryRun(
  req: Omit<RunRequest, 'out' | 'dryRun' | 'shared'>,
  opts: { time?: boolean } = {},
): Promise<{ rows: RunRow[]; time?: WallTimeEstimate }> {
  const scratch = mkdtempSync(join(tmpdir(), 'textstress-dry-run-'));
  const opening = performance.now();
  const stand = await openStandIn(req);
  const openSeconds = (performance.now() - opening) / 1000;
  const engine = openEngine(stand, req);
  try {
    const run = { ...req, overwrite: true };
    const outcome = await runRecipe({ ...run, out: join(scratch, 'dry'), dryRun: true, shared: { model: stand, engine } });
    const rows = KINDS[outcome.kind].runRows(outcome);
    if (!opts.time) return { rows };
    const time = await estimateWallTime(req.model, stand, rows, async (n) => {
      // About PILOT_EXAMPLES examples drawn across the run (the shard of their id's hash; the first ones under --shard).
      const count = Math.ceil(n / PILOT_EXAMPLES);
      const some = count > 1 && !req.shard ? { shard: { index: 0, count } } : { limit: Math.min(n, PILOT_EXAMPLES) };
      const shared = { model: stand.real, engine: new QueryEngine(stand.real) };
      const t0 = performance.now();
      const pilot = await runRecipe({ ...run, ...some, out: join(scratch, 'pilot'), shared });
      const examples = KINDS[pilot.kind].runRows(pilot).reduce((a, r) => a + r.n, 0);
      // The examples' own time (summary.json's wall_seconds: the run's loop, without opening the data), else all of it.
      const written = join(scratch, 'pilot', 'summary.json');
      const wall = existsSync(written) ? (JSON.parse(readFileSync(written, 'utf8')) as { wall_seconds?: unknown }).wall_seconds : undefined;
      return { examples, seconds: typeof wall === 'number' ? wall : (performance.now() - t0) / 1000 };
    });
    return { rows, time: { ...time, openSeconds } };
  } finally {
    await engine.flushed();
    await stand.close?.();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The time figures: for a local model, its cost per input timed on the inputs the run would send, and a pilot of
 * about 20 examples drawn across the run, run for real (no disk cache: nothing is kept); for an endpoint, nothing (it is never asked).
 */
async function estimateWallTime(
  model: string,
  stand: StandInModel,
  rows: readonly RunRow[],
  /** Runs some of the run's `n` examples for real: how many, and how long they took. */
  pilot: (n: number) => Promise<Pilot>,
): Promise<WallTimeEstimate> {
  const n = rows.reduce((a, r) => a + r.n, 0);
  const requests = rows.reduce((a, r) => a + (r.process?.model_inferences ?? 0), 0);
  if (isOpenAiSpec(model) || isHttpSpec(model))
    return { n, requests, notMeasured: "an endpoint is never asked in a dry run: about requests × its latency ÷ the run's concurrency" };
  const perInput = await timePerInput(stand.real, stand.sample());
  if (n === 0) return { n, requests, perInput };
  const ran = await pilot(n);
  return { n, requests, perInput, ...(ran.examples > 0 ? { pilot: ran } : {}) };
}

/** The batch a timing sends: the model's own limit, at most 256 (the engine gathers concurrent examples' queries into batches of up to 1,024). */
const TIMING_BATCH = 256;

/**
 * Times the model on these inputs, `batch` at a time: one warm-up batch first (session start-up, allocator), then every
 * input once. Null when there is nothing to time.
 */
export async function timePerInput(model: ModelAdapter, inputs: readonly ModelInput[]): Promise<PerInput | null> {
  if (inputs.length === 0) return null;
  const batch = Math.max(1, Math.min(TIMING_BATCH, model.maxBatchSize ?? TIMING_BATCH));
  await model.predict(inputs.slice(0, batch));
  // The faster of two passes: another process's burst of work slows one pass, not the model.
  let best = Infinity;
  for (let pass = 0; pass < 2; pass++) {
    const t0 = performance.now();
    for (let i = 0; i < inputs.length; i += batch) await model.predict(inputs.slice(i, i + batch));
    best = Math.min(best, performance.now() - t0);
  }
  return { seconds: best / 1000 / inputs.length, inputs: inputs.length, batch };
}

/** A pilot: some examples run for real (about PILOT_EXAMPLES, drawn across the run), and how long that took. */
export interface Pilot {
  examples: number;
  seconds: number;
}

/** What the dry run prints of time. */
export interface WallTimeEstimate {
  /** Examples of the whole run. */
  n: number;
  /** The dry run's bound on model requests. */
  requests: number;
  perInput?: PerInput | null;
  pilot?: Pilot;
  /** Seconds the dry run took to open the model (a real run pays them too, once). */
  openSeconds?: number;
  /** Why no time was measured (a remote model). */
  notMeasured?: string;
}

/** The expected wall time of the whole run (seconds), from the pilot; null without one. */
export function expectedSeconds(e: WallTimeEstimate): number | null {
  return e.pilot && e.pilot.examples > 0 ? (e.openSeconds ?? 0) + (e.pilot.seconds / e.pilot.examples) * e.n : null;
}

/** The lines a dry run prints about time. */
export function wallTimeLines(e: WallTimeEstimate): string[] {
  if (e.notMeasured) return [`Wall time: not estimated (${e.notMeasured}).`];
  const lines: string[] = [];
  const expected = expectedSeconds(e);
  if (expected !== null && e.pilot)
    lines.push(
      `Wall time, expected: ≈ ${duration(expected)} on this machine now (an expectation, not a bound: ` +
        `${e.pilot.examples} of the ${e.n.toLocaleString('en-US')} examples, drawn across the data, ran for real in ` +
        `${duration(e.pilot.seconds)}, extrapolated${e.openSeconds ? `, + ${duration(e.openSeconds)} to open the model` : ''}; ` +
        'nothing of them was kept).',
    );
  if (e.perInput)
    lines.push(
      `Model time, at most: ≈ ${duration(e.requests * e.perInput.seconds)} (≤ ${e.requests.toLocaleString('en-US')} requests × ` +
        `${(1000 * e.perInput.seconds).toFixed(2)} ms an input, timed on ${e.perInput.inputs} of the inputs this run would send, ` +
        `${e.perInput.batch} a batch; the searches' own work is not in it).`,
    );
  return lines;
}
