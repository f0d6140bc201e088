import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/kinds/attack/run.ts';
import { openModel } from '../../src/runner/open.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { DEMO_SST2, SST2_DEV, tmp } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);
// demo-sst2 opened once for the file; each run gets a fresh query engine (its own cache and query counts).
let model: ModelAdapter;
beforeAll(async () => {
  model = await openModel({ model: DEMO_SST2 });
});
afterAll(() => model?.close?.());
const run = async (maxQueries?: number) => {
  const out = tmp('budget');
  await runRecipe({
    registry,
    recipe: 'typos',
    settings: { k: 3 },
    model: DEMO_SST2,
    data: SST2_DEV,
    limit: 20,
    seed: 1,
    out,
    shared: { model, engine: new QueryEngine(model) },
    ...(maxQueries ? { maxQueries } : {}),
  });
  const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);
  return { results, summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary };
};

describe('per-example query budget (--max-queries)', () => {
  it('ends a search that would pass it on the best state reached, marked and counted; attacks within it are untouched', async () => {
    const free = await run();
    const cut = await run(30);
    expect(cut.summary.query_budget_exhausted).toBeGreaterThan(0);
    expect(cut.summary.query_budget_exhausted).toBe(cut.results.filter((r) => r.query_budget_exhausted).length);
    cut.results.forEach((r, i) => {
      const f = free.results[i]!;
      expect(r.queries).toBeLessThanOrEqual(30);
      if (f.queries <= 30) expect(r).toEqual(f);
      else expect(r.query_budget_exhausted).toBe(true);
      // a cut-short result is a real perturbation of the text (or none), never an occluded copy
      if (r.query_budget_exhausted) expect(r.words_perturbed).toBe(r.edits.length);
    });
    expect(free.summary.query_budget_exhausted).toBeUndefined();
    // A budget-stopped example is a failed attack, and the run with the budget reports what the free run's curve says
    // of that budget: every greedy success comes in the search's last batch.
    for (const r of cut.results) if (r.query_budget_exhausted) expect(r.status).toBe('failed');
    const at30 = free.summary.success_by_budget!.find((p) => p.budget === 30)!;
    expect(cut.summary.succeeded).toBe(at30.succeeded);
    expect(cut.summary.attack_success_rate).toBe(at30.rate);
    expect(cut.summary.success_by_budget!.at(-1)).toEqual(at30);
    expect(cut.summary.intervals!.success_by_budget!.at(-1)).toEqual(cut.summary.intervals!.attack_success_rate);
  });

  it('refuses a budget for recipes that are not attacks', async () => {
    await expect(
      runRecipe({
        registry,
        recipe: 'entities',
        settings: {},
        model: DEMO_SST2,
        data: SST2_DEV,
        limit: 2,
        seed: 1,
        out: tmp('budget-probe'),
        maxQueries: 5,
      }),
    ).rejects.toThrow(/--max-queries bounds an attack/);
  });
});
