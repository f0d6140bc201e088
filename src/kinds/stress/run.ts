/**
 * Runs a stress suite over a dataset into a resumable folder: one results.jsonl line per example (its original
 * answer and every case of every test), then summary.json tallied per test from that file in one streaming pass.
 */
import { stressExample, type StressResult } from '../../core/stress-suite.ts';
import type { Example } from '../../data/types.ts';
import { StressTally, type StressSummary } from '../../metrics/stress-summary.ts';
import type { QueryEngine } from '../../query/engine.ts';
import type { BuiltStress } from '../../recipes/registry/define.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { runPerExample, type RunSettings } from '../../runner/per-example.ts';
import { processStats, summaryFrame } from '../../runner/summary.ts';

/** Options of {@link runStress}: the output folder, the run's recorded settings, the examples and the suite. */
export interface StressRunOptions {
  outDir: string;
  settings: RunSettings;
  examples: AsyncIterable<Example>;
  built: BuiltStress;
  engine: QueryEngine;
  resume?: boolean;
  overwrite?: boolean;
  /** Examples worked on at once; their cases share model batches. */
  concurrency?: number;
  onProgress?: (done: number, resumed: number) => void;
  /** Counted bad rows, read after the examples are exhausted. */
  skippedRows?: () => number;
  /** Examples with U+FFFD in their text, read after the examples are exhausted. */
  replacementChars?: () => { rows: number; first?: string };
  dataFingerprint?: string;
  uniqueIds?: boolean;
  /** Saved in run.json (see RunState.request). */
  request?: Record<string, unknown>;
}

/** Runs the suite on every example (resumable) and writes summary.json with the per-test tallies. */
export async function runStress(opts: StressRunOptions): Promise<StressSummary> {
  try {
    return await runStressFolder(opts);
  } finally {
    await opts.built.close?.();
  }
}

async function runStressFolder(opts: StressRunOptions): Promise<StressSummary> {
  const { settings, built } = opts;
  const suite = built.suite;
  const select = built.select?.bind(built);
  async function* selected(): AsyncGenerator<Example> {
    for await (const e of opts.examples) if (!select || select(e)) yield e;
  }
  return runPerExample<StressResult, StressSummary>({
    ...opts,
    examples: selected(),
    work: (example, session) => stressExample(suite, example, session, settings.seed),
    async finish({ resultsPath, wallSeconds, stats0 }) {
      const tally = new StressTally(
        suite.tests.map((t) => t.name),
        {
          confusion: suite.confusion === true,
          seed: settings.seed,
          ...(suite.notInWorst ? { notInWorst: suite.notInWorst } : {}),
          ...(suite.noReduction ? { noReduction: suite.noReduction } : {}),
        },
      );
      // What the recipe reads from the results in the same pass (intervals over whole examples, …).
      const digest = built.digest?.();
      for await (const r of readResults<StressResult>(resultsPath)) {
        tally.add(r);
        digest?.add(r);
      }
      const tallied = tally.finish();
      const digested = digest?.finish(tallied);
      const metrics = digested?.metrics ?? tallied;
      const details = built.details?.(metrics, digested?.digested);
      return summaryFrame(
        settings,
        { kind: 'stress', body: metrics, ...(details ? { details } : {}) },
        {
          wallSeconds,
          skippedRows: opts.skippedRows?.() ?? 0,
          ...(opts.replacementChars ? { replacementChars: opts.replacementChars() } : {}),
          process: processStats(stats0, opts.engine.snapshot(), opts.engine.adapter),
        },
      );
    },
  });
}
