/** Inside the encoder (Yin et al. 2020, §5–6): layer probes, attention heads and the masked-LM cloze test (domain.ts). */
import { clozeRecipe, probeHeadsRecipe, probeLayersRecipe } from './recipe.ts';

export const recipes = [probeLayersRecipe, probeHeadsRecipe, clozeRecipe];
