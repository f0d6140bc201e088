/** Named-entity swaps (Balasubramanian et al. 2020): the probe, universal adversarial names and the RESEMBLE defence. */
import { entitiesRecipe } from './recipe.ts';
import { resembleEvalVerb, resembleFitVerb } from './resemble/verbs.ts';
import { universalNamesRecipe } from './universal-names/recipe.ts';

export const recipes = [entitiesRecipe, universalNamesRecipe];
export const verbs = [resembleFitVerb, resembleEvalVerb];
/** The name search and the defence are shown with the entity probe. */
export const helpGroups = { 'universal-names': 'probe', resemble: 'probe' };
