/**
 * The settings of `textstress fool` (EFSG), declared once: flags, suite keys, docs and the recorded run settings
 * derive from them. The sweep experiment extends them.
 */
import { z } from 'zod';

export const foolingSettings = z.strictObject({
  train: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe('the training file (any format --data reads): its words make D_task and its positive examples set T_task (required)'),
  population: z.number().int().min(2).max(100_000).default(500).describe('sentences per epoch (N)'),
  length: z
    .number()
    .int()
    .min(1)
    .max(200)
    .nullable()
    .default(null)
    .describe("words per sentence (L); never changes (none: 9 for single texts; for pairs the number of x̂'s words, as in the paper)"),
  epochs: z.number().int().min(1).max(100_000).default(50).describe('generations (P), one batch of N model queries each'),
  crossover: z
    .boolean()
    .default(true)
    .describe(
      'uniform crossover: each child takes every word from one of two parents (probability ½), then one word is mutated (off: a child is one parent, mutated)',
    ),
  target: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe('the class the sentences should reach (none: the positive class of a binary model)'),
  thresholdShare: z
    .number()
    .gt(0)
    .lt(1)
    .default(0.75)
    .describe('T_task is the score this share of the positive training examples exceed (0.75: their 25th percentile)'),
  threshold: z.number().min(0).max(1).nullable().default(null).describe('T_task given directly (no training examples are scored)'),
  thresholdSample: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('positive training examples scored for T_task, a seeded sample (0: all of them)'),
  fixedId: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe('pair models: id of the example whose other text is kept fixed (x̂), looked up in --data if given, else in --train'),
  fixedText: z.string().min(1).nullable().default(null).describe('pair models: the fixed sentence x̂ itself'),
  evolve: z.enum(['first', 'second']).default('second').describe('pair models: which text of the pair is evolved (x̂ is the other)'),
});

/** The parsed settings (defaults applied). */
export type FoolingSettings = z.output<typeof foolingSettings>;
