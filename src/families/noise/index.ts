/** Noise applied to every word at once (Belinkov & Bisk 2018; Naik et al. 2018). */
import { noiseRecipe } from './recipe.ts';

export const recipes = [noiseRecipe];
