/**
 * The frame every per-example run's summary.json shares (the run's identity first, its process figures last), and
 * the process figures themselves: what the query engine did, tokens and cost, the defence's own queries.
 */
import { defenceStats } from '../defence/resemble.ts';
import type { ProcessStats } from '../metrics/summary.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { EngineSnapshot, QuerySession } from '../query/engine.ts';
import type { RunSettings } from './per-example.ts';

/**
 * A per-example run's summary: complete, the kind (where the kind names itself), recipe, model, dataset, seed,
 * settings (limit included) and shard; then the kind's own figures and details; then time, bad rows, U+FFFD rows
 * and the process figures. The one place this frame is written, so every kind's summary reads the same.
 */
export function summaryFrame<B extends object, K extends string>(
  settings: RunSettings,
  own: { kind: K; body: B; details?: Record<string, unknown>; compact?: boolean },
  run: { wallSeconds: number; skippedRows: number; replacementChars?: { rows: number; first?: string }; process: ProcessStats },
) {
  return {
    complete: true as const,
    kind: own.kind,
    recipe: settings.recipe,
    model: settings.model,
    dataset: settings.dataset,
    seed: settings.seed,
    settings: { ...settings.options, ...(settings.limit !== undefined ? { limit: settings.limit } : {}) },
    ...(settings.shard ? { shard: settings.shard } : {}),
    ...own.body,
    ...(own.details ? { details: own.details } : {}),
    wall_seconds: round(run.wallSeconds, 3),
    ...(own.compact ? { compact_results: true as const } : {}),
    skipped_rows: run.skippedRows,
    ...(run.replacementChars?.rows ? { replacement_chars: { ...run.replacementChars } } : {}),
    process: run.process,
  };
}

/**
 * The query engine's work during a run; a hit rate over zero requests is null (n/a), not 0. With a defended model
 * (`--defence`), `defence` adds what it asked of the inner model, canonical inputs included (since it was opened).
 */
export function processStats(before: EngineSnapshot, after: EngineSnapshot, model?: ModelAdapter): ProcessStats {
  const requests = after.requests - before.requests;
  const hits = after.cacheHits - before.cacheHits;
  const defence = model ? defenceStats(model) : undefined;
  const spent =
    after.spent && before.spent
      ? {
          requests: after.spent.requests - before.spent.requests,
          input_tokens: after.spent.input - before.spent.input,
          output_tokens: after.spent.output - before.spent.output,
          cost_usd: after.spent.cost === null || before.spent.cost === null ? null : round(after.spent.cost - before.spent.cost, 9),
          retries: after.spent.retries - before.spent.retries,
          rate_limited: after.spent.rateLimited - before.spent.rateLimited,
          ...(model?.meter?.lowestConcurrency !== undefined ? { lowest_concurrency: model.meter.lowestConcurrency } : {}),
        }
      : undefined;
  return {
    requests,
    cache_hits: hits,
    cache_hit_rate: requests ? round(hits / requests, 4) : null,
    disk_cache_hits: after.diskHits - before.diskHits,
    model_inferences: after.inferences - before.inferences,
    ...(spent ? { spent } : {}),
    ...(defence ? { defence } : {}),
  };
}

/** What a result records of its session beyond the counts: tokens and cost of a metered model, unmappable answers. */
export function sessionExtras(
  session: QuerySession,
  model: ModelAdapter,
): { usage?: { input_tokens: number; output_tokens: number; cost_usd?: number }; unmappable?: number } {
  const prices = model.meter?.prices;
  const usage = session.metered
    ? {
        input_tokens: session.tokens.input,
        output_tokens: session.tokens.output,
        ...(prices ? { cost_usd: round((session.tokens.input * prices.input + session.tokens.output * prices.output) / 1e6, 9) } : {}),
      }
    : undefined;
  return { ...(usage ? { usage } : {}), ...(session.unmappable ? { unmappable: session.unmappable } : {}) };
}

/** `x` rounded to `digits` decimals. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
