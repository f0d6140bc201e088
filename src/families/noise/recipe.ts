import { defineAttack } from '../../recipes/registry/define.ts';
import { subjectOf } from '../../recipes/shared.ts';
import { noiseAttack } from './attack.ts';
import { noiseFamily } from './report.ts';
import { noiseSettings } from './settings.ts';

/** The `noise` attack recipe: one noise type on every word, one model query. */
export const noiseRecipe = defineAttack({
  name: 'noise',
  summary: 'applies one noise type to every word at once (swap, middle-random, fully-random, keyboard, natural) and asks the model once',
  paper: 'Belinkov & Bisk 2018; Naik et al. 2018',
  tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
  settings: noiseSettings,
  build: (s, ctx) => ({
    attack: noiseAttack({ goal: ctx.goal, noise: s.noise, minLength: s.minLength, protect: s.protect, subject: subjectOf(s.field, ctx) }),
  }),
  report: noiseFamily,
});
