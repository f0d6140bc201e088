import { defineAttack } from '../../recipes/registry/define.ts';
import { subjectOf } from '../../recipes/shared.ts';
import { typoAttack } from './attack.ts';
import { typosFamily } from './report.ts';
import { typosSettings } from './settings.ts';

/** The `typos` attack recipe (Adv-BERT's Algorithm 1). */
export const typosRecipe = defineAttack({
  name: 'typos',
  summary:
    'ranks words by occlusion importance, then puts up to K typos into the max / min / random words; at each word ' +
    "tries the chosen sources' typos (sampled to a cap per source unless exhaustive) in one batch and keeps the one " +
    "that lowers the true label's score most; stops at the flip",
  paper: 'Sun et al. 2020, Adv-BERT, Algorithm 1',
  tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
  settings: typosSettings,
  cli: { k: { short: 'k' } },
  build: (s, ctx) => ({
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
