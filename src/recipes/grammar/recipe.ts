import { z } from 'zod';
import { GRAMMAR_SEARCHES, grammarAttack } from './attack.ts';
import { defineRecipe } from '../registry/define.ts';
import { fieldSetting, maxWordsSetting, protectSetting, subjectOf } from '../shared.ts';
import { parseErrorTypes, type ParsedErrorTypes } from './error-types.ts';
import { grammarFamily } from './report.ts';

export const budgetSetting = z
  .number()
  .gt(0)
  .max(1)
  .default(0.15)
  .describe('most words modified, as a fraction of the words (at least one edit, so very short texts can exceed it)');

export const searchSetting = z.enum(GRAMMAR_SEARCHES).default('greedy').describe('search method: probabilistic, greedy, beam or genetic');

export const errorTypesSetting = z
  .string()
  .superRefine((spec, ctx) => {
    const parsed = parseErrorTypes(spec);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  })
  .nullable()
  .default(null)
  .describe('error types to use (ArtOrDet,Prep,Trans,Nn,SVA,Vform,Wchoice,Worder), optionally weighted for probabilistic sampling: "ArtOrDet=3,Prep=1" (none: all eight)');

/** The error types and weights of a validated errorTypes setting. */
export function errorTypesOf(spec: string | null): Partial<ParsedErrorTypes> {
  if (spec === null) return {};
  const parsed = parseErrorTypes(spec);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
}

/** The `grammar` attack recipe (Yin et al. 2020). */
export const grammarRecipe = defineRecipe({
  name: 'grammar',
  summary:
    'the errors non-native writers make (ArtOrDet, Prep, Trans, Nn, SVA, Vform, Wchoice, Worder) with the paper\'s confusion sets, placed by probabilistic sampling or a greedy, beam or genetic search within a budget of modified words',
  paper: 'Yin et al. 2020, "On the Robustness of Language Encoders against Grammatical Errors"',
  kind: 'attack',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  settings: z.strictObject({
    protect: protectSetting,
    field: fieldSetting,
    search: searchSetting,
    budget: budgetSetting,
    errorRate: z.number().gt(0).max(1).nullable().default(null).describe('probabilistic: errors per word (none: the budget)'),
    errorTypes: errorTypesSetting,
    beamWidth: z.number().int().min(1).default(5).describe('beam: beam size'),
    population: z.number().int().min(2).default(60).describe('genetic: population size'),
    maxWords: maxWordsSetting,
  })
    // The budget caps every search's edits: an error rate above it would be cut to the budget without a word.
    .superRefine((s, ctx) => {
      if (s.errorRate !== null && s.errorRate > s.budget) {
        ctx.addIssue({
          code: 'custom',
          path: ['errorRate'],
          message: `the error rate ${s.errorRate} is above the budget ${s.budget}, which caps the edits; raise the budget to at least ${s.errorRate} or lower the error rate`,
        });
      }
    }),
  build(s, ctx) {
    const { types, distribution } = errorTypesOf(s.errorTypes);
    return {
      kind: 'attack',
      attack: grammarAttack({
        goal: ctx.goal,
        search: s.search,
        budget: s.budget,
        ...(s.errorRate !== null ? { errorRate: s.errorRate } : {}),
        ...(types ? { types } : {}),
        ...(distribution ? { distribution } : {}),
        // One token must stay one token for NER gold tags to stay aligned.
        multiWord: ctx.task !== 'token-classification',
        protect: s.protect,
        maxWords: s.maxWords,
        beamWidth: s.beamWidth,
        population: s.population,
        subject: subjectOf(s.field, ctx),
      }),
    };
  },
  report: grammarFamily,
});
