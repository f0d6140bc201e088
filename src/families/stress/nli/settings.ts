/** The settings of the NLI stress suite, declared once: its flags, suite keys, docs and summary derive from this. */
import { z } from 'zod';
import { NLI_MAX_TAUTOLOGIES } from './distraction.ts';
import { NLI_STRESS_TESTS } from './types.ts';

export const stressNliSettings = z.strictObject({
  tests: z
    .array(z.enum(NLI_STRESS_TESTS))
    .min(1)
    .default([...NLI_STRESS_TESTS])
    .describe('stress tests to run'),
  premise: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'the pair text read as the premise: a column of the data (QNLI: sentence) or textA / textB; none = the first text, or the one --hypothesis leaves',
    ),
  hypothesis: z.string().nullable().default(null).describe('the pair text read as the hypothesis (QNLI: question); none = the other text'),
  scheme: z
    .enum(['auto', '3-way', '2-way'])
    .default('auto')
    .describe(
      'label scheme: 3-way (entailment / neutral / contradiction) or 2-way (entailment / not_entailment); auto = 2-way when the model or the data is',
    ),
  maxTautologies: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(NLI_MAX_TAUTOLOGIES)
    .describe('largest N of the tautology sweep (the paper’s Figure 2 goes to 5)'),
});

/** The parsed settings (defaults applied). */
export type StressNliSettings = z.output<typeof stressNliSettings>;
