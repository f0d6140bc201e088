/** Evolutionary fooling sentences (Di Giovanni & Brambilla 2021, EFSG): runs, sweeps, transfer and augmentation. */
import { foolingRecipe } from './recipe.ts';
import { foolingSweepRecipe } from './sweep.ts';
import { foolAugmentVerb, foolTransferVerb } from './verbs.ts';

export const recipes = [foolingRecipe, foolingSweepRecipe];
export const verbs = [foolTransferVerb, foolAugmentVerb];
export const helpGroups = { 'fool-transfer': 'generate', 'fool-augment': 'generate' };
