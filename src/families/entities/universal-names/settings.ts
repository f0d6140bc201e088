/**
 * The settings of `textstress universal-names`, declared once (flags, suite keys, docs and summary derive from
 * them). `type`, `budget`, `annotator` and `namesFile` mean what they mean for the `entities` probe.
 */
import { z } from 'zod';
import { ENTITY_TYPES } from '../../../entities/types.ts';
import { annotatorSetting, namesFileSetting } from '../settings.ts';

export const universalNamesSettings = z.strictObject({
  type: z.enum(ENTITY_TYPES).default('PER').describe('entity type whose mentions are replaced'),
  budget: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(50)
    .describe("sentences sampled from the search split per name evaluation (the paper's B)"),
  rounds: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('search rounds (each: a Thompson draw for every name, the top names evaluated)'),
  perRound: z.number().int().min(1).max(10_000).default(10).describe('names evaluated per round: the top k by their Thompson draw'),
  candidates: z
    .number()
    .int()
    .min(1)
    .default(200)
    .describe("candidate names, sampled with the seed from the type's name lists (or --names-file)"),
  holdout: z
    .number()
    .min(0)
    .max(0.95)
    .default(0.5)
    .describe('share of the examples with a mention held out for the transfer test (0: no transfer test)'),
  top: z.number().int().min(1).default(10).describe('best-ranked names tested on the held-out split'),
  random: z.number().int().min(0).default(10).describe('random candidate names tested on the held-out split for comparison'),
  annotator: annotatorSetting,
  namesFile: namesFileSetting,
});

/** The parsed settings (defaults applied). */
export type UniversalNamesSettings = z.output<typeof universalNamesSettings>;
