/**
 * One classic recipe run in process for the tests, on a model loaded once per file (`shared`), with seed 0 into a
 * fresh folder: its summary.json and results.jsonl read back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleResult } from '../../src/core/result.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { Registry } from '../../src/recipes/registry/registry.ts';

export interface ClassicRun {
  registry: Registry;
  recipe: string;
  settings: Record<string, unknown>;
  /** The open target, and the spec recorded for it. */
  model: ModelAdapter;
  modelSpec: string;
  data: string;
  out: string;
  limit?: number;
  concurrency?: number;
  shard?: { index: number; count: number };
}

export async function runClassic(o: ClassicRun): Promise<{ summary: RunSummary; results: ExampleResult[]; out: string }> {
  await runRecipe({
    registry: o.registry,
    recipe: o.recipe,
    settings: o.settings,
    model: o.modelSpec,
    data: o.data,
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    out: o.out,
    seed: 0,
    overwrite: true,
    ...(o.shard ? { shard: o.shard } : {}),
    shared: { model: o.model, engine: new QueryEngine(o.model) },
  });
  const summary = JSON.parse(readFileSync(join(o.out, 'summary.json'), 'utf8')) as RunSummary;
  const results = readFileSync(join(o.out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);
  return { summary, results, out: o.out };
}
