import { z } from 'zod';
import { WORD_TARGETS } from '../../attack/search/word-importance.ts';
import { TYPO_SOURCE_NAMES } from '../../perturb/index.ts';
import { defineRecipe } from '../registry/define.ts';
import { fieldSetting, maxWordsSetting, minLengthSetting, protectSetting, subjectOf } from '../shared.ts';
import { typoAttack } from './attack.ts';
import { typosFamily } from './report.ts';

/** The two switches between today's sampled, skip-ahead search and Adv-BERT's exact one; typos-curve passes them on. */
export const typoSearchSettings = {
  exhaustive: z
    .boolean()
    .default(false)
    .describe('try every candidate of every source, no sampling (default: insertion, deletion and replace-word sample 8 per word, mistype 16)'),
  skipUneditable: z
    .boolean()
    .default(true)
    .describe('pass over words without typo candidates (K typos in the first K editable words); false: Adv-BERT\'s top-K words, a word without candidates uses up its place'),
};

/** Settings of the `typos` recipe. */
export const typosSettings = z.strictObject({
  minLength: minLengthSetting,
  protect: protectSetting,
  field: fieldSetting,
  target: z.enum(WORD_TARGETS).default('max').describe('words to put typos in, by occlusion importance'),
  k: z.number().int().min(0).default(1).describe('budget of typos per text (one per word)'),
  sources: z.array(z.enum(TYPO_SOURCE_NAMES)).min(1).default([...TYPO_SOURCE_NAMES]).describe('typo sources to use'),
  maxCandidates: z.number().int().min(1).nullable().default(null).describe('cap on candidates per source and word (none: the sources\' own caps)'),
  maxWords: maxWordsSetting,
  ...typoSearchSettings,
});

/** The `typos` attack recipe (Adv-BERT's Algorithm 1). */
export const typosRecipe = defineRecipe({
  name: 'typos',
  summary:
    'ranks words by occlusion importance, then puts up to K typos into the max / min / random words; at each word tries the chosen sources\' typos (sampled to a cap per source unless exhaustive) in one batch and keeps the one that lowers the true label\'s score most; stops at the flip',
  paper: 'Sun et al. 2020, Adv-BERT, Algorithm 1',
  kind: 'attack',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  settings: typosSettings,
  cli: { k: { short: 'k' } },
  build: (s, ctx) => ({
    kind: 'attack',
    attack: typoAttack({
      goal: ctx.goal,
      target: s.target,
      k: s.k,
      sources: s.sources,
      minLength: s.minLength,
      protect: s.protect,
      ...(s.maxCandidates !== null ? { maxCandidates: s.maxCandidates } : {}),
      maxWords: s.maxWords,
      exhaustive: s.exhaustive,
      skipUneditable: s.skipUneditable,
      subject: subjectOf(s.field, ctx),
    }),
  }),
  report: typosFamily,
});
