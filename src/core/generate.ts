/**
 * Generators: search spaces with no source example (an evolving population of sentences, for instance). A
 * generator runs in steps (epochs); after each step the runner checkpoints its state, so a run resumes at the
 * step where it stopped, with the same random draws. Every model query goes through the query engine.
 */
import type { Example } from '../data/types.ts';
import type { ModelInfo, ModelInput, ModelOutput } from '../models/types.ts';
import type { Rng } from '../util/rng.ts';

/** What a generator's `init` and `step` get: the model, a query function and a per-step rng. */
export interface GenerateContext {
  model: ModelInfo;
  /** Model answers for many inputs, in order (batched, cached and counted by the query engine). */
  query(inputs: readonly ModelInput[]): Promise<ModelOutput[]>;
  /** This step's generator: derived from the run's seed and the step index, so a resumed run draws the same. */
  rng: Rng;
  /** 0-based step index (init sees -1; finish sees the number of steps). */
  step: number;
  /** The run's examples in data order, when it has data (generators that search over a dataset read them here). */
  examples?: () => AsyncIterable<Example>;
  /**
   * The records of the finished steps (results.jsonl lines, each with its `step`), in order: what a generator
   * that remembers everything it produced (e.g. every distinct sentence) reads back after a resume or at finish.
   */
  records: () => AsyncIterable<Record<string, unknown>>;
}

/** What a generator's `finish` adds once every step is done: summary.json's `details`, more metrics, files. */
export interface GeneratorFinish {
  /** Added to summary.json under `details`. */
  details?: Record<string, unknown>;
  /** Merged into the summary's metrics (gate thresholds may name them). */
  metrics?: Record<string, number | null>;
  /** Text files written into the run's folder (name → content). */
  files?: Record<string, string>;
}

/** What one generator step returns. */
export interface GeneratorStep<S> {
  /** The state after the step (JSON-serialisable: it is the checkpoint). */
  state: S;
  /** Records this step produced (results.jsonl lines; the runner adds the step index). */
  records: Record<string, unknown>[];
  /** Numbers describing the step (steps.jsonl, charts), e.g. mean score. */
  stats: Record<string, number>;
}

/** A generator recipe's work: builds state in `init`, then runs `steps` steps, each producing records and stats (no source examples). */
export interface Generator<S = unknown> {
  readonly name: string;
  /** Steps to run. */
  readonly steps: number;
  init(ctx: GenerateContext): S | Promise<S>;
  step(state: S, ctx: GenerateContext): Promise<GeneratorStep<S>>;
  /**
   * How many things the run measured, from every step's stats, when its records are not that (a fooling run keeps
   * only the fooling sentences, so zero records after scoring N × P sentences is a finding, not an empty run).
   */
  measured?(stats: readonly Record<string, number>[]): number;
  /** Summary metrics from every step's stats (e.g. the final mean score). */
  summarize(stats: readonly Record<string, number>[]): Record<string, number | null>;
  /**
   * Work after the last step, from the final state (e.g. a held-out evaluation). Not checkpointed: a run killed
   * during it resumes after the last step and runs it again, so it must be deterministic (the ctx's rng is).
   */
  finish?(state: S, ctx: GenerateContext): Promise<GeneratorFinish>;
  /** What the terminal shows for a finished run (default: the summary as JSON). */
  text?(summary: GenerateSummaryView): string;
}

/** The parts of summary.json a generator's `text` reads. */
export interface GenerateSummaryView {
  metrics: Record<string, number | null>;
  details?: Record<string, unknown>;
}
