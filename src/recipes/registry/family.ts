/**
 * A family's manifest: what its folder's index.ts exports, and all the rest of textstress needs to know of it. A
 * built-in family is one line in src/families/index.ts; a plugin's module (--plugin) or a program
 * (`builtinRegistry().addFamily(…)`) registers one the same way.
 */
import type { AnyRecipe } from './define.ts';
import type { AnyVerb } from './verbs.ts';

/** What a family's index.ts exports: its recipes, its own commands and where they show in --help. */
export interface FamilyManifest {
  /** Its recipes, in the order the CLI, the docs and the report list them. */
  readonly recipes: readonly AnyRecipe[];
  /** Its own commands (tables from finished runs, a defence's fit and evaluation …), in help order. */
  readonly verbs?: readonly AnyVerb[];
  /**
   * Where its top-level commands are listed in --help, by command: only those that belong elsewhere than their
   * recipe kind's group (a generator shown with the probes), and its verbs (which have no kind); the group ids are
   * --help's (start, attack, stress, probe, generate, compare, serve). Unlisted verbs go under "Other commands".
   */
  readonly helpGroups?: Readonly<Record<string, string>>;
}
