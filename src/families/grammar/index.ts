/** Simulated grammatical errors (Yin et al. 2020): the attack, its budget curve, adversarial training data and tables. */
import { augmentRecipe } from './augment.ts';
import { grammarBudgetCurveRecipe } from './budget-curve.ts';
import { grammarRecipe } from './recipe.ts';
import { grammarTablesVerb } from './verbs.ts';

export const recipes = [grammarRecipe, grammarBudgetCurveRecipe, augmentRecipe];
export const verbs = [grammarTablesVerb];
/** augment makes training data (with the generators), the tables read finished runs (with compare and report). */
export const helpGroups = { augment: 'generate', 'grammar-tables': 'compare' };
