/** Keyboard typos and misspellings (Sun et al. 2020, Adv-BERT): the attack and the K-typos curve (Table 1, Figure 2). */
import { typosCurveRecipe } from './curve.ts';
import { typosRecipe } from './recipe.ts';

export const recipes = [typosRecipe, typosCurveRecipe];
