/**
 * `--dry-run` bounds what the real run sends (issue 32 item 5), on the zoo's RoBERTa NER tagger and QA model over the
 * real CoNLL-2003 and SQuAD v1.1 dev files, and its SST-2 classifier under the classic recipes: for each recipe that
 * supports a dry run on the task, the real run's model inferences never exceed the dry run's. (Issue 32 measured the
 * old dry run at "≤ 259" against 1,905 real requests on roberta-ner and "≤ 37" against 206 on roberta-qa.)
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import { standInModel } from '../../src/models/stand-in.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { openModel } from '../../src/runner/open.ts';
import { tmp } from '../cli/helpers.ts';
import { ROOT, shared } from './helpers.data.ts';

const ZOO = resolve(ROOT, '..', 'shared', 'zoo');
const registry = createRegistry(BUILTIN_RECIPES);
const TASKS = {
  ner: { model: join(ZOO, 'roberta-ner'), data: shared('conll2003/eng.testa'), limit: 30, recipes: ['typos', 'noise', 'grammar'] },
  qa: { model: join(ZOO, 'roberta-qa'), data: shared('squad-v1.1/dev-v1.1.json'), limit: 30, recipes: ['typos', 'noise'] },
  sst2: {
    model: join(ZOO, 'roberta-sst2'),
    data: shared('sst2/dev.tsv'),
    limit: 15,
    recipes: ['typos', 'grammar', 'pwws', 'deepwordbug', 'textbugger', 'checklist'],
  },
} as const;
const models = new Map<string, ModelAdapter>();

beforeAll(async () => {
  for (const [k, t] of Object.entries(TASKS)) models.set(k, await openModel({ model: t.model }));
}, 60_000);
afterAll(async () => {
  for (const m of models.values()) await m.close?.();
});

async function inferences(task: keyof typeof TASKS, recipe: string, dry: boolean): Promise<number> {
  const real = models.get(task)!;
  const model = dry ? standInModel(real) : real;
  const out = tmp(`dry-bound-data-${task}-${recipe}-${String(dry)}`);
  const t = TASKS[task];
  await runRecipe({
    registry,
    recipe,
    settings: {},
    model: t.model,
    data: t.data,
    limit: t.limit,
    seed: 0,
    out,
    shared: { model, engine: new QueryEngine(model) },
  });
  return (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary).process.model_inferences;
}

describe('a dry run bounds the real run on the zoo (model inferences)', () => {
  for (const task of Object.keys(TASKS) as (keyof typeof TASKS)[]) {
    for (const recipe of TASKS[task].recipes) {
      it(`${task} · ${recipe}`, async () => {
        const dry = await inferences(task, recipe, true);
        const real = await inferences(task, recipe, false);
        expect(dry).toBeGreaterThanOrEqual(real);
        expect(real).toBeGreaterThan(0);
      }, 180_000);
    }
  }
});
