/**
 * `--dry-run` bounds what the real run sends (issue 32 item 5): for each task and recipe that supports a dry run, the
 * real run's model inferences never exceed the dry run's. Before the fix a NER or QA dry run skipped every example
 * after its clean query (the stand-in's answer has F1 = 0), and said "≤ 20" where the real run sent 674. Each model
 * is loaded once; the dry run answers through the stand-in the CLI's --dry-run uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { dryRun, expectedSeconds } from '../../src/kinds/dry-run-time.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import { STAND_IN_SAMPLE, standInModel } from '../../src/models/stand-in.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { openModel } from '../../src/runner/open.ts';
import { CONLL, DEMO_NER, DEMO_SST2, fixtureData, ROOT, SST2_DEV, tmp } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);
const MODELS = { ner: DEMO_NER, qa: join(ROOT, 'models', 'demo-squad'), sst2: DEMO_SST2 } as const;
const DATA = { ner: CONLL, qa: fixtureData('squad-v1.1/dev-v1.1.json'), sst2: SST2_DEV } as const;
const models = new Map<string, ModelAdapter>();

beforeAll(async () => {
  for (const [k, path] of Object.entries(MODELS)) models.set(k, await openModel({ model: path }));
});
afterAll(async () => {
  for (const m of models.values()) await m.close?.();
});

/** One run, real or against the stand-in: its summary and results. */
async function run(task: keyof typeof MODELS, recipe: string, dry: boolean): Promise<{ summary: RunSummary; results: ExampleResult[] }> {
  const real = models.get(task)!;
  const model = dry ? standInModel(real) : real;
  const out = tmp(`dry-bound-${task}-${recipe}-${String(dry)}`);
  await runRecipe({
    registry,
    recipe,
    settings: {},
    model: MODELS[task],
    data: DATA[task],
    // The demo QA model gets the first few questions wrong (skipped in the real run): more of them, so some are attacked.
    limit: task === 'qa' ? 15 : 5,
    seed: 0,
    out,
    shared: { model, engine: new QueryEngine(model) },
  });
  return {
    summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary,
    results: readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExampleResult),
  };
}

// Cheap cases (npm test's budget); every recipe on the zoo's RoBERTa NER and QA is in test/full-data/dry-run-bound.
const CASES: [keyof typeof MODELS, string][] = [
  ['ner', 'typos'],
  ['ner', 'noise'],
  ['qa', 'typos'],
  ['qa', 'noise'],
  ['sst2', 'deepwordbug'],
];

describe('a dry run bounds the real run (model inferences)', () => {
  for (const [task, recipe] of CASES) {
    it(`${task} · ${recipe}`, async () => {
      const dry = await run(task, recipe, true);
      const real = await run(task, recipe, false);
      // Nothing is skipped against the stand-in: its clean answer says nothing of the real model's.
      expect(dry.results.filter((r) => r.status === 'skipped' && !r.skip_reason?.includes('no word'))).toEqual([]);
      expect(dry.summary.process.model_inferences).toBeGreaterThanOrEqual(real.summary.process.model_inferences);
      expect(real.summary.process.model_inferences).toBeGreaterThan(real.summary.n);
    });
  }
});

describe('a dry run’s wall-time figures on a local model', () => {
  it('times the real model on a sample of the inputs the run would send, and runs the first examples for real', async () => {
    const { rows, time } = await dryRun(
      { registry, recipe: 'deepwordbug', settings: {}, model: DEMO_SST2, data: SST2_DEV, limit: 5, seed: 0 },
      { time: true },
    );
    const requests = rows.reduce((a, r) => a + r.process!.model_inferences, 0);
    expect(time!.n).toBe(5);
    expect(time!.requests).toBe(requests);
    // Every input it would send, up to the sample's size, timed once per pass.
    expect(time!.perInput!.inputs).toBe(Math.min(STAND_IN_SAMPLE, requests));
    expect(time!.perInput!.seconds).toBeGreaterThan(0);
    expect(time!.pilot!.examples).toBe(5); // 5 examples: all of them
    expect(expectedSeconds(time!)).toBeCloseTo(time!.openSeconds! + time!.pilot!.seconds, 9);
  });
});
