/**
 * The classic attacks (issue 36): TextAttack's recipes composed from this project's parts, one file per recipe,
 * all sharing the classic settings (settings.ts), field choice and TextAttack summary (shared.ts) and report
 * section (report.ts).
 */
import type { AnyRecipe } from '../../recipes/registry/define.ts';
import { checklistRecipe } from './checklist.ts';
import { deepWordBugRecipe } from './deepwordbug.ts';
import { pwwsRecipe } from './pwws.ts';
import { baeRecipe } from './bae.ts';
import { textBuggerRecipe } from './textbugger.ts';
import { textFoolerRecipe } from './textfooler.ts';

/** The classic recipes, in the order `textstress list` shows them: add a recipe here. */
export const recipes: readonly AnyRecipe[] = [
  pwwsRecipe,
  deepWordBugRecipe,
  textBuggerRecipe,
  baeRecipe,
  textFoolerRecipe,
  checklistRecipe,
];

/** The same list under its older name. */
export const CLASSIC_RECIPES = recipes;
