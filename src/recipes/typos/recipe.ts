import { z } from 'zod';
import { WORD_TARGETS } from '../../attack/search/word-importance.ts';
import { TYPO_SOURCE_NAMES } from '../../perturb/index.ts';
import { defineRecipe } from '../registry/define.ts';
import { fieldSetting, maxWordsSetting, minLengthSetting, protectSetting, subjectOf } from '../shared.ts';
import { typoAttack } from './attack.ts';
import { typosFamily } from './report.ts';

export const typosSettings = z.strictObject({
  minLength: minLengthSetting,
  protect: protectSetting,
  field: fieldSetting,
  target: z.enum(WORD_TARGETS).default('max').describe('words to put typos in, by occlusion importance'),
  k: z.number().int().min(0).default(1).describe('budget of typos per text (one per word)'),
  sources: z.array(z.enum(TYPO_SOURCE_NAMES)).min(1).default([...TYPO_SOURCE_NAMES]).describe('typo sources to use'),
  maxCandidates: z.number().int().min(1).nullable().default(null).describe('cap on candidates per source and word (none: the sources\' own caps)'),
  maxWords: maxWordsSetting,
});

export const typosRecipe = defineRecipe({
  name: 'typos',
  summary:
    'ranks words by occlusion importance, then puts up to K typos into the max / min / random words; at each word tries the typos from the chosen sources in one batch and keeps the one that lowers the true label\'s score most; stops at the flip',
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
      subject: subjectOf(s.field, ctx),
    }),
  }),
  report: typosFamily,
});
