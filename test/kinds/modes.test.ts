/**
 * Every recipe kind × every mode of running it: each either works (a real run on demo-sst2, or in memory, or through
 * a real Redis queue with a worker in this process) or is refused before any work with exactly the message the KINDS
 * table gives. One recipe per kind: the shout attack, the swap-names probe, the stress-words suite, the evolve
 * generator and the shout-twice experiment (test/registry/fixtures), on the first 4 demo reviews.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../src/families/index.ts';
import { KINDS, RUN_MODES, refusal, type RecipeOutcome, type RunMode } from '../../src/kinds/index.ts';
import { attackInMemory } from '../../src/kinds/in-memory.ts';
import { runRecipe, runRecipeAs } from '../../src/kinds/run.ts';
import { openDataset, type Example } from '../../src/data/index.ts';
import { openModel } from '../../src/runner/open.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import type { RecipeKind } from '../../src/recipes/registry/define.ts';
import { runQueued } from '../../src/queue/coordinator.ts';
import { startWorker, type RunningWorker } from '../../src/queue/worker.ts';
import { DEMO_SST2, ROOT, tmp } from '../cli/helpers.ts';
import { HAS_REDIS, SKIP_REDIS, startRedis } from '../support/redis.ts';
import { evolveRecipe } from '../registry/fixtures/evolve.ts';
import { shoutRecipe } from '../registry/fixtures/shout.ts';
import { shoutTwiceRecipe } from '../registry/fixtures/shout-twice.ts';
import { stressWordsRecipe } from '../registry/fixtures/stress-words.ts';
import { swapNamesRecipe } from '../registry/fixtures/swap-names.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');
const registry = builtinRegistry().add(shoutRecipe).add(swapNamesRecipe).add(stressWordsRecipe).add(evolveRecipe).add(shoutTwiceRecipe);
const RECIPE: Record<RecipeKind, { recipe: string; settings: Record<string, unknown>; data: boolean }> = {
  attack: { recipe: 'shout', settings: { k: 1 }, data: true },
  probe: { recipe: 'swap-names', settings: { budget: 2 }, data: true },
  stress: { recipe: 'stress-words', settings: {}, data: true },
  generate: { recipe: 'evolve', settings: { epochs: 2, population: 4 }, data: false },
  experiment: { recipe: 'shout-twice', settings: {}, data: true },
};

describe('every kind × every mode: works, or is refused with the table’s message', () => {
  let model: ModelAdapter;
  let redis: ChildProcess | undefined;
  let url = '';
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    model = await openModel({ model: DEMO_SST2 });
    if (!HAS_REDIS || SKIP_REDIS) return;
    const started = await startRedis();
    redis = started.process;
    url = started.url;
    worker = await startWorker(url, { registry });
  }, 30_000);

  afterAll(async () => {
    await worker?.close();
    redis?.kill('SIGKILL');
    await model?.close?.();
  });

  const request = (kind: RecipeKind, out: string) => ({
    registry,
    recipe: RECIPE[kind].recipe,
    settings: RECIPE[kind].settings,
    model: DEMO_SST2,
    ...(RECIPE[kind].data ? { data: REVIEWS, limit: 4 } : {}),
    out,
    seed: 3,
  });
  const shared = () => ({ shared: { model, engine: new QueryEngine(model) } });

  /** Runs the kind's recipe in a mode; resolves with what came out (an outcome, or the examples read in memory). */
  const inMode: Record<RunMode, (kind: RecipeKind) => Promise<unknown>> = {
    resume: async (kind) => {
      const out = tmp(`modes-${kind}-resume`);
      await runRecipe({ ...request(kind, out), ...shared() });
      return runRecipe({ ...request(kind, out), ...shared(), resume: true });
    },
    shard: (kind) => runRecipe({ ...request(kind, tmp(`modes-${kind}-shard`)), ...shared(), shard: { index: 0, count: 2 } }),
    queue: async (kind) => {
      if (!HAS_REDIS) throw new Error("redis-server not found: install Debian's redis-server (apt-get install redis-server)");
      return runQueued({ ...request(kind, tmp(`modes-${kind}-queue`)), queue: url, blockSize: 2 });
    },
    inMemory: async (kind) => {
      const examples: Example[] = [];
      for await (const e of (await openDataset(REVIEWS, { limit: 4 })).examples()) examples.push(e);
      const got: unknown[] = [];
      for await (const r of attackInMemory({ registry, recipe: RECIPE[kind].recipe, settings: RECIPE[kind].settings, model, examples }))
        got.push(r);
      return got;
    },
    dryRun: (kind) => runRecipe({ ...request(kind, tmp(`modes-${kind}-dry`)), dryRun: true }),
    maxQueries: (kind) => runRecipe({ ...request(kind, tmp(`modes-${kind}-budget`)), ...shared(), maxQueries: 40 }),
  };

  for (const kind of Object.keys(KINDS) as RecipeKind[]) {
    for (const mode of RUN_MODES) {
      const supported = KINDS[kind].supports[mode] === true;
      it(`${kind} × ${mode}: ${supported ? 'works' : 'refused'}`, async (ctx) => {
        if (mode === 'queue' && supported && SKIP_REDIS) ctx.skip(SKIP_REDIS);
        const def = registry.get(RECIPE[kind].recipe);
        expect(def.kind).toBe(kind);
        if (!supported) {
          const expected = refusal(def, mode)!;
          await expect(inMode[mode](kind)).rejects.toThrow(expected.message);
          return;
        }
        const got = await inMode[mode](kind);
        if (mode === 'inMemory') {
          expect((got as unknown[]).length).toBe(4);
          return;
        }
        const outcome = got as RecipeOutcome;
        expect(outcome.kind).toBe(kind);
        const rows = KINDS[kind].runRows(outcome);
        expect(rows.length).toBeGreaterThan(0);
        // A run over the data holds its 4 examples (a shard some of them); a generator its records.
        for (const r of rows) expect(r.n).toBe(RECIPE[kind].data && mode !== 'shard' ? 4 : r.n);
        expect(existsSync(join(outcome.dir, kind === 'experiment' ? 'experiment.json' : 'summary.json'))).toBe(true);
      }, 30_000);
    }
  }

  it('the table and the refusals name every mode of every kind', () => {
    for (const kind of Object.keys(KINDS) as RecipeKind[]) {
      for (const mode of RUN_MODES) {
        const def = registry.get(RECIPE[kind].recipe);
        const r = refusal(def, mode);
        if (KINDS[kind].supports[mode] === true) expect(r).toBeUndefined();
        else expect(r?.message).toMatch(new RegExp(`; ${def.name} is ${KINDS[kind].noun}`));
      }
    }
  });

  it('runRecipeAs gives the kind’s own outcome, and refuses a recipe of another kind before anything runs', async () => {
    const out = tmp('run-as');
    const req = { registry, recipe: 'evolve', settings: RECIPE.generate.settings, model: DEMO_SST2, out, seed: 1 };
    await expect(runRecipeAs('attack', req)).rejects.toThrow(/^evolve is a generator, not an attack: it runs as its own kind\.$/);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    const outcome = await runRecipeAs('generate', req);
    expect(outcome.summary.recipe).toBe('evolve');
  }, 30_000);
});
