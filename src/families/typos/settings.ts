/** The typos recipe's settings: defaults, bounds and descriptions, for the recipe and typoAttack alike. */
import { z } from 'zod';
import { WORD_TARGETS } from '../../core/search/word-importance.ts';
import { TYPO_SOURCE_NAMES } from '../../perturb/index.ts';
import { fieldSetting, maxWordsSetting, minLengthSetting, protectSetting } from '../../recipes/shared.ts';

/** The two switches between today's sampled, skip-ahead search and Adv-BERT's exact one; typos-curve passes them on. */
export const typoSearchSettings = {
  exhaustive: z
    .boolean()
    .default(false)
    .describe(
      'try every candidate of every source, no sampling (default: insertion, deletion and replace-word sample 8 per word, mistype 16)',
    ),
  skipUneditable: z
    .boolean()
    .default(true)
    .describe(
      "pass over words without typo candidates (K typos in the first K editable words); false: Adv-BERT's top-K " +
        'words, a word without candidates uses up its place',
    ),
};

/** Settings of the `typos` recipe (its defaults are the typo attack's). */
export const typosSettings = z.strictObject({
  minLength: minLengthSetting,
  protect: protectSetting,
  field: fieldSetting,
  target: z.enum(WORD_TARGETS).default('max').describe('words to put typos in, by occlusion importance'),
  k: z.number().int().min(0).default(1).describe('budget of typos per text (one per word)'),
  sources: z
    .array(z.enum(TYPO_SOURCE_NAMES))
    .min(1)
    .default([...TYPO_SOURCE_NAMES])
    .describe('typo sources to use'),
  maxCandidates: z
    .number()
    .int()
    .min(1)
    .nullable()
    .default(null)
    .describe("cap on candidates per source and word (none: the sources' own caps)"),
  maxWords: maxWordsSetting,
  ...typoSearchSettings,
});
