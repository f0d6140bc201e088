/** The grammar recipe's settings: defaults, bounds and descriptions, for the recipe and grammarAttack alike. */
import { z } from 'zod';
import { fieldSetting, maxWordsSetting, protectSetting } from '../../recipes/shared.ts';
import { parseErrorTypes, type ParsedErrorTypes } from '../../perturb/grammar/error-types.ts';
import { WCHOICE_WEIGHTS } from '../../perturb/grammar/sample.ts';

/** The searches the grammar attack can use. */
export const GRAMMAR_SEARCHES = ['probabilistic', 'greedy', 'beam', 'genetic'] as const;
/** One of {@link GRAMMAR_SEARCHES}. */
export type GrammarSearchName = (typeof GRAMMAR_SEARCHES)[number];

export const budgetSetting = z
  .number()
  .gt(0)
  .max(1)
  .default(0.15)
  .describe('most words modified, as a fraction of the words (at least one edit, so very short texts can exceed it)')
  .meta({ label: 'budget (share of words modified)' });

export const searchSetting = z.enum(GRAMMAR_SEARCHES).default('greedy').describe('search method: probabilistic, greedy, beam or genetic');

export const errorTypesSetting = z
  .string()
  .superRefine((spec, ctx) => {
    const parsed = parseErrorTypes(spec);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  })
  .nullable()
  .default(null)
  .describe(
    'error types to use (ArtOrDet,Prep,Trans,Nn,SVA,Vform,Wchoice,Worder), optionally weighted for probabilistic ' +
      'sampling: "ArtOrDet=3,Prep=1" (none: all eight)',
  );

/** The error types and weights of a validated errorTypes setting. */
export function errorTypesOf(spec: string | null): Partial<ParsedErrorTypes> {
  if (spec === null) return {};
  const parsed = parseErrorTypes(spec);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
}

/**
 * The grammar recipe's settings as a plain shape, so the experiments built on it (budget curve, augment) take the
 * same settings, with the same defaults and descriptions, and pass them on to their grammar runs.
 */
export const grammarShape = {
  protect: protectSetting,
  field: fieldSetting,
  search: searchSetting,
  budget: budgetSetting,
  errorRate: z.number().gt(0).max(1).nullable().default(null).describe('probabilistic: errors per word (none: the budget)'),
  errorTypes: errorTypesSetting,
  wchoiceWeights: z
    .enum(WCHOICE_WEIGHTS)
    .default('ranked')
    .describe(
      'probabilistic: how a Wchoice synonym is drawn: ranked = weight 1/(sense rank+1), most frequent sense first; ' +
        "uniform = all alike (the paper's choice)",
    ),
  beamWidth: z.number().int().min(1).default(5).describe('beam: beam size'),
  population: z.number().int().min(2).default(60).describe('genetic: population size'),
  maxWords: maxWordsSetting,
};

/** Settings of the `grammar` recipe. */
export const grammarSettings = z
  .strictObject(grammarShape)
  // The budget caps every search's edits: an error rate above it would be cut to the budget without a word.
  .superRefine((s, ctx) => {
    if (s.errorRate !== null && s.errorRate > s.budget) {
      ctx.addIssue({
        code: 'custom',
        path: ['errorRate'],
        message:
          `the error rate ${s.errorRate} is above the budget ${s.budget}, which caps the edits; raise the budget to at ` +
          `least ${s.errorRate} or lower the error rate`,
      });
    }
  });

/** {@link grammarShape} less `budget`, for experiments that try several budgets. */
export const grammarShapeWithoutBudget = (({ budget: _budget, ...rest }) => rest)(grammarShape);
