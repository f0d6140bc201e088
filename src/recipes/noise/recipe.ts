import { z } from 'zod';
import { NOISE_TYPES } from '../../perturb/index.ts';
import { defineRecipe } from '../registry/define.ts';
import { fieldSetting, minLengthSetting, protectSetting, subjectOf } from '../shared.ts';
import { noiseAttack } from './attack.ts';
import { noiseFamily } from './report.ts';

/** The `noise` attack recipe: one noise type on every word, one model query. */
export const noiseRecipe = defineRecipe({
  name: 'noise',
  summary: 'applies one noise type to every word at once (swap, middle-random, fully-random, keyboard, natural) and asks the model once',
  paper: 'Belinkov & Bisk 2018; Naik et al. 2018',
  kind: 'attack',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  settings: z.strictObject({
    minLength: minLengthSetting,
    protect: protectSetting,
    field: fieldSetting,
    noise: z.enum(NOISE_TYPES).default('swap').describe('noise applied to every word'),
  }),
  build: (s, ctx) => ({
    kind: 'attack',
    attack: noiseAttack({ goal: ctx.goal, noise: s.noise, minLength: s.minLength, protect: s.protect, subject: subjectOf(s.field, ctx) }),
  }),
  report: noiseFamily,
});
