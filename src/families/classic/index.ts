/**
 * The classic attacks (issue 36): TextAttack's recipes composed from this project's parts, one file per recipe,
 * all sharing the classic settings (settings.ts), field choice and TextAttack summary (shared.ts) and report
 * section (report.ts).
 */
import type { AnyRecipe } from '../../recipes/registry/define.ts';

/** The classic recipes, in the order `textstress list` shows them: add a recipe here. */
export const CLASSIC_RECIPES: readonly AnyRecipe[] = [];
