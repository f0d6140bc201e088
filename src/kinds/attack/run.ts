import { attackExample, type Attack } from '../../core/attack.ts';
import type { ExampleResult } from '../../core/result.ts';
import type { Example } from '../../data/types.ts';
import { SummaryAccumulator, type RunSummary } from '../../metrics/summary.ts';
import type { QueryEngine, QuerySession } from '../../query/engine.ts';
import { Rng } from '../../util/rng.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { runPerExample, type RunSettings } from '../../runner/per-example.ts';
import { processStats, sessionExtras, summaryFrame } from '../../runner/summary.ts';

export type { RunSummary } from '../../metrics/summary.ts';
export { RESULTS_FILE, SUMMARY_FILE, STATE_FILE, type RunSettings } from '../../runner/per-example.ts';

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
  /** Per-example query budget (distinct queries); attacks it cuts short end on their best state, marked. */
  maxQueries?: number;
  /** Outputs written from the finished results before run.json says complete (a probe's D_worst and D_best). */
  outputs?: (resultsPath: string) => Promise<void>;
  /** What the recipe sums up from the results for summary.json's `details` (read in the same pass). */
  details?: () => { add(r: ExampleResult): void; finish(): Record<string, unknown> };
  /** The kind summary.json records (default: attack; probes share this loop). */
  kind?: 'attack' | 'probe';
}

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
  const { settings } = opts;
  const work = workOf(opts);
  const summary = await runPerExample<ExampleResult, RunSummary>({
    ...opts,
    work: (example, session) => attackResult(work, example, session, settings.seed, opts.engine, opts.enrich),
    line: (r) => (settings.compact ? compactResult(r) : r),
    async finish({ resultsPath, wallSeconds, stats0 }) {
      // The summary depends on the file's content only, resumed or not; it is read back in one streaming pass.
      const acc = new SummaryAccumulator({
        qa: opts.qa === true,
        seed: settings.seed,
        ...(opts.maxQueries !== undefined ? { maxQueries: opts.maxQueries } : {}),
      });
      const digest = opts.details?.();
      for await (const r of readResults(resultsPath)) {
        acc.add(r);
        digest?.add(r);
      }
      return summaryFrame(
        settings,
        {
          kind: opts.kind ?? 'attack',
          body: acc.finish(opts.editCurve ?? (opts.attack ? opts.attack.search.incremental !== false : true)),
          ...(digest ? { details: digest.finish() } : {}),
          ...(settings.compact ? { compact: true } : {}),
        },
        {
          wallSeconds,
          skippedRows: opts.skippedRows?.() ?? 0,
          ...(opts.replacementChars ? { replacementChars: opts.replacementChars() } : {}),
          process: processStats(stats0, opts.engine.snapshot(), opts.engine.adapter),
        },
      );
    },
  });
  return { summary };
}

/** One example's result as a run records it: the work, seeded by run seed and id, then enrichment and usage. */
export async function attackResult(
  work: ExampleWork,
  example: Example,
  session: QuerySession,
  seed: number,
  engine: QueryEngine,
  enrich?: (result: ExampleResult) => Promise<void>,
): Promise<ExampleResult> {
  const result = await work(example, session, Rng.derive(seed, example.id));
  if (enrich) await enrich(result);
  return { ...result, ...sessionExtras(session, engine.adapter) };
}

/**
 * A result as compact results keep it (for runs of millions of examples): no search trace, subword view or class
 * probabilities; texts and edits only of successful attacks (the others keep their edits counted by type). Every
 * count the summary and the report's charts need stays, so the summary is the same as with full results.
 */
export function compactResult(r: ExampleResult): ExampleResult {
  if (r.probe) return compactProbe(r, r.probe);
  const { trace: _trace, subwords: _subwords, ...rest } = r;
  const { probs: _p1, ...before } = r.original_prediction;
  const { probs: _p2, ...after } = r.perturbed_prediction;
  if (r.status === 'succeeded') return { ...rest, trace: [], original_prediction: before, perturbed_prediction: after };
  const counts: Record<string, number> = {};
  for (const e of r.edits) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return {
    ...rest,
    trace: [],
    original: {},
    perturbed: {},
    edits: [],
    ...(r.edits.length ? { edit_counts: counts } : {}),
    original_prediction: before,
    perturbed_prediction: after,
  };
}

/**
 * A probe's result kept compact: its texts stay (D_worst and D_best are written from them), its per-variant
 * samples, subword view and class probabilities go.
 */
function compactProbe(r: ExampleResult, probe: NonNullable<ExampleResult['probe']>): ExampleResult {
  const { trace: _trace, subwords: _subwords, probe: _probe, ...rest } = r;
  const { samples: _samples, ...kept } = probe;
  const { probs: _p1, ...before } = r.original_prediction;
  const { probs: _p2, ...after } = r.perturbed_prediction;
  const { probs: _p3, ...best } = probe.best.prediction;
  return {
    ...rest,
    trace: [],
    original_prediction: before,
    perturbed_prediction: after,
    probe: { ...kept, best: { ...kept.best, prediction: best } },
  };
}

function workOf(opts: RunOptions): ExampleWork {
  if (opts.work) return opts.work;
  const attack = opts.attack;
  if (!attack) throw new Error('runAttack needs `work` or `attack`');
  return (example, session, rng) => attackExample(attack, example, session, rng);
}
