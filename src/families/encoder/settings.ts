/**
 * Settings of `textstress probe layers|heads|cloze`, declared once (flags, suite keys, docs and recorded run settings
 * derive from them).
 */
import { z } from 'zod';
import { GRAMMAR_ERROR_TYPES, type GrammarErrorType } from '../../perturb/grammar/index.ts';
import { parseErrorTypes } from '../../perturb/grammar/error-types.ts';
import { PROBE_DESIGNS } from './layer-probe-sentences.ts';

const errorTypes = (fallback: string) =>
  z
    .string()
    .superRefine((spec, ctx) => {
      if (spec.trim() === 'all') return;
      const parsed = parseErrorTypes(spec);
      if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
    })
    .default(fallback)
    .describe(`error types, comma-separated, or "all" (${GRAMMAR_ERROR_TYPES.join(', ')})`);

/** The error types of a validated errorTypes setting. */
export function errorTypesIn(spec: string): GrammarErrorType[] {
  if (spec.trim() === 'all') return [...GRAMMAR_ERROR_TYPES];
  const parsed = parseErrorTypes(spec);
  if ('problem' in parsed) throw new Error(parsed.problem);
  // the paper's order, whatever order they were named in
  return GRAMMAR_ERROR_TYPES.filter((t) => parsed.types.includes(t));
}

const text = z
  .array(z.string().min(1))
  .default([])
  .describe(
    'sentence files, comma-separated: any dataset --data reads (CoLA keeps its acceptable sentences) or a .txt with ' +
      'one sentence per line; "wordnet" = the built-in WordNet example sentences (none: see the recipe help)',
  );

export const layerProbeSettings = z.strictObject({
  errorTypes: errorTypes('all'),
  design: z
    .enum(PROBE_DESIGNS)
    .default('sentences')
    .describe(
      "probing data: sentences = the paper's (per type, sentences of 10–60 words, half with 1–2 errors); pairs = minimal " +
        'pairs of 5–40 words (a clean sentence and its one-error twin)',
    ),
  sentences: z
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(10_000)
    .describe('sentences design: sentences per error type (the paper: 10,000), split 80/10/10 into train/dev/test')
    .meta({ label: 'sentences per error type' }),
  pairs: z
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(1000)
    .describe('pairs design: minimal pairs per error type (clean + one error), split 80/10/10 into train/dev/test')
    .meta({ label: 'pairs per error type (pairs design)' }),
  text,
  heads: z.boolean().default(true).describe('also check every attention head of the frozen model (Figure 3), no training'),
  headQuery: z
    .enum(['all', 'cls'])
    .default('all')
    .describe('what a head points at: the attention each token receives from all tokens (all) or from [CLS] (cls)'),
  examples: z
    .number()
    .int()
    .min(0)
    .max(50)
    .default(2)
    .describe('test sentences per error type shown with the probe attention (Appendix E)')
    .meta({ label: 'examples shown per error type' }),
  maxEpochs: z.number().int().min(1).max(100).default(10).describe('probe training: most epochs (early stop on dev accuracy, patience 2)'),
  maxLength: z
    .number()
    .int()
    .min(8)
    .max(512)
    .default(64)
    .describe('tokens per sentence, special tokens included (longer sentences lose their tail)'),
});

export const headProbeSettings = z.strictObject({
  errorTypes: errorTypes('all'),
  pairs: z
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(1000)
    .describe('minimal pairs per error type; heads are checked on the test split (10%)')
    .meta({ label: 'pairs per error type' }),
  text,
  headQuery: z
    .enum(['all', 'cls'])
    .default('all')
    .describe('what a head points at: the attention each token receives from all tokens (all) or from [CLS] (cls)'),
  maxLength: z.number().int().min(8).max(512).default(64).describe('tokens per sentence, special tokens included'),
});

export const clozeSettings = z.strictObject({
  errorTypes: errorTypes('ArtOrDet,Prep,Trans,Nn,SVA,Vform,Wchoice'),
  pairs: z
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(300)
    .describe('minimal pairs built per error type; those that are not one-token substitutions are left out and counted')
    .meta({ label: 'pairs built per error type' }),
  text,
  window: z.number().int().min(1).max(20).default(6).describe('tokens on each side of the error that are masked, one at a time'),
  maxLength: z.number().int().min(8).max(512).default(64).describe('tokens per sentence, special tokens included'),
});

export type LayerProbeSettings = z.output<typeof layerProbeSettings>;
export type HeadProbeSettings = z.output<typeof headProbeSettings>;
export type ClozeSettings = z.output<typeof clozeSettings>;
