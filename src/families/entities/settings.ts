/** The entity probe's settings, declared once: its flags, suite keys, docs and summary derive from this. */
import { z } from 'zod';
import { ENTITY_TYPES } from '../../entities/types.ts';

/** Who finds the mentions: the data's own tags, a token-classification model, or the name lists. */
export const ANNOTATOR_FORM = /^(gold|gazetteer|model:.+)$/;

/** Who finds the mentions (shared with universal-names and RESEMBLE). */
export const annotatorSetting = z
  .string()
  .regex(ANNOTATOR_FORM, 'use gold, gazetteer or model:<spec>')
  .nullable()
  .default(null)
  .describe(
    'who finds the mentions: gold (NER data: its tags), model:<spec> (a token-classification model, e.g. ' +
      'model:models/demo-ner), gazetteer (the name lists); none = gold for NER data, gazetteer otherwise',
  );

/** The user's own name lists (shared with universal-names and RESEMBLE). */
export const namesFileSetting = z
  .array(z.string().regex(/^[A-Za-z]+=.+$/, 'use KEY=PATH'))
  .default([])
  .describe(
    'your own name lists, KEY=PATH with one name a line; KEY is a list (female, male, first, last, org, country, ' +
      'city, misc) or a type (ORG, MISC; PER = last names, LOC = cities)',
  );

/** The settings of `probe entities` (flags in kebab-case, suite keys in snake_case). */
export const entitiesSettings = z.strictObject({
  type: z.enum(ENTITY_TYPES).default('PER').describe('entity type whose mentions are replaced'),
  budget: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(50)
    .describe("variants per example (the paper's B), drawn with replacement")
    .meta({ label: 'variants per example (B)' }),
  annotator: annotatorSetting,
  namesFile: namesFileSetting,
  trainData: z
    .string()
    .nullable()
    .default(null)
    .describe(
      "the model's training file (any format --data reads): how often each replacement name occurs there, for the metric-by-frequency table (Figure 1)",
    ),
  excludeTrainNames: z
    .boolean()
    .default(false)
    .describe(
      'drop names seen in --train-data from the lists (NER data: entity tokens; other data: every word); leaves the frequency table only its 0 bin',
    ),
});

/** The parsed settings (defaults applied). */
export type EntitiesSettings = z.output<typeof entitiesSettings>;
