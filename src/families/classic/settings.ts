/**
 * Settings the classic recipes (TextAttack's PWWS, DeepWordBug, TextBugger, BAE, TextFooler, CheckList) share,
 * declared once; each recipe's own schema spreads them in.
 */
import { z } from 'zod';
import { WIR_METHODS } from '../../core/search/greedy-wir.ts';
import { EDITABLE_FIELDS, maxWordsSetting } from '../../recipes/shared.ts';

/** Which field the classic recipes edit: the text, or the second text of a pair (the hypothesis), as TextAttack. */
export const classicFieldSetting = z
  .enum(EDITABLE_FIELDS)
  .nullable()
  .default(null)
  .describe(
    'field to perturb; none = the text, or the second text of a pair (NLI hypothesis, MRPC/QNLI second sentence), as TextAttack perturbs only the hypothesis',
  );

/** The settings every classic attack recipe has. */
export const classicSettings = {
  field: classicFieldSetting,
  maxWords: maxWordsSetting,
};

/** What word importance replaces a word with (TextAttack's literal "[UNK]"; RoBERTa-style models call it "<unk>"). */
export const unkTokenSetting = z
  .string()
  .min(1)
  .default('[UNK]')
  .describe('what word-importance ranking puts in place of a word (TextAttack: "[UNK]"; "<unk>" for RoBERTa-style tokenizers)');

/** A classic recipe's word-importance method, for users who vary the published one. */
export const wirSetting = (published: (typeof WIR_METHODS)[number]) =>
  z.enum(WIR_METHODS).default(published).describe(`word-importance ranking (the recipe's published one: ${published})`);
