/** Stress-test suites: NLI (Naik et al. 2018) and QA distraction and noise tests. */
import { stressNliRecipe } from './nli/recipe.ts';
import { stressQaRecipe } from './qa/recipe.ts';

export const recipes = [stressNliRecipe, stressQaRecipe];
