/**
 * The settings schema is the one place a recipe's defaults live: building a recipe from `{}` gives the attack its
 * builder gives with every option left out, and both carry the schema's parsed defaults.
 */
import { BUILD_OPENERS } from '../../src/kinds/prepare.ts';
import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import type { TextExample } from '../../src/data/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { grammarAttack } from '../../src/families/grammar/attack.ts';
import { grammarRecipe } from '../../src/families/grammar/recipe.ts';
import { GRAMMAR_SEARCHES, grammarSettings } from '../../src/families/grammar/settings.ts';
import { noiseAttack } from '../../src/families/noise/attack.ts';
import { noiseRecipe } from '../../src/families/noise/recipe.ts';
import type { BuildContext } from '../../src/recipes/registry/define.ts';
import { parseSettings } from '../../src/recipes/registry/settings.ts';
import { typoAttack } from '../../src/families/typos/attack.ts';
import { typosRecipe } from '../../src/families/typos/recipe.ts';
import { typosSettings } from '../../src/families/typos/settings.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel } from '../core/helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));
const ctx: BuildContext = { model: lexiconModel.info, task: 'text-classification', goal, seed: 0, ...BUILD_OPENERS };

/** An attack as plain data: names of its parts, the window, the search's own fields (functions left out). */
function shape(a: Attack): unknown {
  return JSON.parse(
    JSON.stringify({
      name: a.name,
      window: a.window,
      subject: a.subject,
      transformation: a.transformation.name,
      constraints: a.constraints.map((c) => c.name),
      search: { ...a.search },
    }),
  );
}

async function built(def: { build: (s: never, c: BuildContext) => unknown }, raw: Record<string, unknown>): Promise<Attack> {
  const out = (await def.build(parseSettings(def as never, raw) as never, ctx)) as { kind: string; attack: Attack };
  expect(out.kind).toBe('attack');
  return out.attack;
}

describe('recipe defaults come from the settings schema', () => {
  it('typos: {} builds what typoAttack builds with only the required options, and the schema defaults show', async () => {
    const fromRecipe = await built(typosRecipe, {});
    const defaults = typosSettings.parse({});
    expect(shape(fromRecipe)).toEqual(shape(await built(typosRecipe, { ...defaults })));
    expect(shape(fromRecipe)).toEqual(shape(typoAttack({ goal, target: defaults.target, k: defaults.k, subject: {} })));
    expect(fromRecipe.window).toBe(512);
    expect(fromRecipe.constraints.map((c) => c.name)).toEqual(['edit-zone', 'no-repeat-edits', 'max-edits(1)', 'min-word-length(2)']);
    // The same attacks: the same result on an example, seed for seed.
    const example: TextExample = { kind: 'text', id: 'e', text: 'a good and nice film', label: 'positive' };
    const run = (a: Attack) => attackExample(a, example, new QueryEngine(lexiconModel).session(), new Rng(3));
    expect(await run(typoAttack({ goal, target: defaults.target, k: defaults.k, subject: {} }))).toEqual(await run(fromRecipe));
  });

  it('noise: {} builds what noiseAttack builds with only the noise type', async () => {
    const fromRecipe = await built(noiseRecipe, {});
    expect(shape(fromRecipe)).toEqual(shape(noiseAttack({ goal, noise: 'swap', subject: {} })));
    expect(fromRecipe.constraints.map((c) => c.name)).toEqual(['edit-zone', 'min-word-length(2)']);
    const example: TextExample = { kind: 'text', id: 'e', text: 'a good and nice film', label: 'positive' };
    const run = (a: Attack) => attackExample(a, example, new QueryEngine(lexiconModel).session(), new Rng(3));
    expect(await run(noiseAttack({ goal, noise: 'swap', subject: {} }))).toEqual(await run(fromRecipe));
  });

  it.each(GRAMMAR_SEARCHES)('grammar (%s): {} builds what grammarAttack builds with only the search', async (search) => {
    const fromRecipe = await built(grammarRecipe, { search });
    const defaults = grammarSettings.parse({ search });
    expect(shape(fromRecipe)).toEqual(shape(await built(grammarRecipe, { ...defaults })));
    expect(shape(fromRecipe)).toEqual(shape(grammarAttack({ goal, search, subject: {} })));
    expect(fromRecipe.window).toBe(defaults.maxWords);
    expect(fromRecipe.constraints.map((c) => c.name)).toEqual(['edit-zone', 'no-repeat-edits', `max-edit-rate(${defaults.budget})`]);
    if (search === 'beam') expect(fromRecipe.search.name).toBe(`beam(${defaults.beamWidth})`);
    if (search === 'genetic') expect(fromRecipe.search.name).toBe(`genetic(pop=${defaults.population}, gen=0.23)`);
  });
});

describe('experiments built on the grammar recipe', () => {
  it('take its settings (same defaults) and pass every one on to their grammar runs', async () => {
    const { grammarBudgetCurveRecipe } = await import('../../src/families/grammar/budget-curve.ts');
    const { augmentRecipe } = await import('../../src/families/grammar/augment.ts');
    const defaults = grammarSettings.parse({});
    const curve = await grammarBudgetCurveRecipe.build(
      parseSettings(grammarBudgetCurveRecipe, { search: 'genetic', population: 8, budgets: [0.2, 0.4] }) as never,
      {} as BuildContext,
    );
    expect(curve.runs.map((r) => [r.dir, r.settings])).toEqual([
      ['budget-0.2', { ...defaults, search: 'genetic', population: 8, budget: 0.2 }],
      ['budget-0.4', { ...defaults, search: 'genetic', population: 8, budget: 0.4 }],
    ]);
    expect(() => parseSettings(grammarBudgetCurveRecipe, { errorRate: 0.3, budgets: [0.2, 0.4] })).toThrow(
      /error rate 0\.3 is above the lowest budget 0\.2/,
    );
    const augment = await augmentRecipe.build(parseSettings(augmentRecipe, { beamWidth: 3, search: 'beam' }) as never, {} as BuildContext);
    expect(augment.runs).toEqual([{ dir: 'attack', recipe: 'grammar', settings: { ...defaults, search: 'beam', beamWidth: 3 } }]);
  });
});
