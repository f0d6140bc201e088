import { augmentRecipe } from './grammar/augment.ts';
import { CLASSIC_RECIPES } from './classic/index.ts';
import { entitiesRecipe } from './entities/recipe.ts';
import { foolingRecipe } from './fooling/recipe.ts';
import { foolingSweepRecipe } from './fooling/sweep.ts';
import { grammarBudgetCurveRecipe } from './grammar/budget-curve.ts';
import { grammarRecipe } from './grammar/recipe.ts';
import { noiseRecipe } from './noise/recipe.ts';
import { clozeRecipe, probeHeadsRecipe, probeLayersRecipe } from './encoder/recipe.ts';
import { stressNliRecipe } from './stress/nli/recipe.ts';
import { stressQaRecipe } from './stress/qa/recipe.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import type { AnyVerb } from '../recipes/registry/verbs.ts';
import { grammarTablesVerb } from './grammar/verbs.ts';
import { foolAugmentVerb, foolTransferVerb } from './fooling/verbs.ts';
import { resembleEvalVerb, resembleFitVerb } from './entities/resemble/verbs.ts';
import { createRegistry, type Registry } from '../recipes/registry/registry.ts';
import { typosCurveRecipe } from './typos/curve.ts';
import { typosRecipe } from './typos/recipe.ts';
import { universalNamesRecipe } from './entities/universal-names/recipe.ts';

/** The recipes textstress ships, in the order the CLI, docs and report list them. */
export const BUILTIN_RECIPES: readonly AnyRecipe[] = [
  typosRecipe,
  noiseRecipe,
  grammarRecipe,
  typosCurveRecipe,
  grammarBudgetCurveRecipe,
  augmentRecipe,
  stressNliRecipe,
  stressQaRecipe,
  entitiesRecipe,
  universalNamesRecipe,
  foolingRecipe,
  foolingSweepRecipe,
  probeLayersRecipe,
  probeHeadsRecipe,
  clozeRecipe,
  ...CLASSIC_RECIPES,
];

/** The families' own commands (tables from finished runs, a defence's fit and evaluation, transfer), in help order. */
export const BUILTIN_VERBS: readonly AnyVerb[] = [grammarTablesVerb, resembleFitVerb, resembleEvalVerb, foolTransferVerb, foolAugmentVerb];

/** A fresh registry holding the built-in recipes and verbs (add your own to it). */
export function builtinRegistry(): Registry {
  return createRegistry(BUILTIN_RECIPES, BUILTIN_VERBS);
}
