/**
 * The built-in families, one line each: each family's index.ts exports its manifest (`recipes`, and where it has them
 * `verbs` and `helpGroups`: src/recipes/registry/family.ts). The order here is the order the CLI, the docs and the
 * report list their recipes and commands.
 */
import type { AnyRecipe } from '../recipes/registry/define.ts';
import type { FamilyManifest } from '../recipes/registry/family.ts';
import { createRegistry, type Registry } from '../recipes/registry/registry.ts';
import type { AnyVerb } from '../recipes/registry/verbs.ts';
import * as classic from './classic/index.ts';
import * as encoder from './encoder/index.ts';
import * as entities from './entities/index.ts';
import * as fooling from './fooling/index.ts';
import * as grammar from './grammar/index.ts';
import * as noise from './noise/index.ts';
import * as stress from './stress/index.ts';
import * as typos from './typos/index.ts';

/** The families textstress ships. */
export const BUILTIN_FAMILIES: readonly FamilyManifest[] = [typos, noise, grammar, stress, entities, fooling, encoder, classic];

/** The recipes textstress ships, in the order the CLI, docs and report list them. */
export const BUILTIN_RECIPES: readonly AnyRecipe[] = BUILTIN_FAMILIES.flatMap((f) => f.recipes);

/** The families' own commands (tables from finished runs, a defence's fit and evaluation, transfer), in help order. */
export const BUILTIN_VERBS: readonly AnyVerb[] = BUILTIN_FAMILIES.flatMap((f) => f.verbs ?? []);

/** A fresh registry holding the built-in families (add your own to it: `addFamily`, `add`, `addVerb`). */
export function builtinRegistry(): Registry {
  const registry = createRegistry();
  for (const family of BUILTIN_FAMILIES) registry.addFamily(family);
  return registry;
}
