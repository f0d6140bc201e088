import { z } from 'zod';
import { NOISE_TYPES } from '../perturb/index.ts';
import { GRAMMAR_SEARCHES } from '../recipes/grammar.ts';
import { ALL_TYPO_SOURCES } from '../recipes/typos.ts';
import { GATE_METRICS } from '../report/html/metrics.ts';

/**
 * A threshold: `METRIC OP VALUE`, VALUE a number (0.4), a percentage (40%), or the baseline's value of the same
 * metric give or take a margin (`baseline - 2pts`, `baseline - 0.02`). OP is <, <=, >, >= or ==.
 */
export const THRESHOLD_RE =
  /^\s*([a-z_][a-z0-9_]*)\s*(<=|>=|<|>|==)\s*(?:(baseline)\s*(?:([+-])\s*(\d+(?:\.\d+)?)\s*(%|pts?|points?)?)?|(\d+(?:\.\d+)?)\s*(%)?)\s*$/;

const threshold = z
  .string()
  .superRefine((s, ctx) => {
    const m = THRESHOLD_RE.exec(s);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `"${s}" is not a threshold; write e.g. "attack_success_rate < 0.4", "stability >= 90%" or "attacked_accuracy >= baseline - 2pts"` });
      return;
    }
    if (!(m[1]! in GATE_METRICS)) {
      ctx.addIssue({ code: 'custom', message: `unknown metric "${m[1]}" in threshold "${s}"; use one of ${Object.keys(GATE_METRICS).join(', ')}.` });
    }
  })
  .describe('`METRIC OP VALUE`, e.g. "attack_success_rate < 0.4", "stability > 90%", "attacked_accuracy >= baseline - 2pts"');

const thresholds = z.array(threshold).describe('checks of the CI gate for this test');

const common = {
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" and "-" (it names the output folder)').describe('test name: also its output sub-folder'),
  model: z.string().optional().describe('a key of `models` (default: the only model)'),
  dataset: z.string().optional().describe('a key of `datasets` (default: the only dataset)'),
  seed: z.number().int().min(0).optional().describe('seed (default: the suite seed)'),
  limit: z.number().int().min(1).optional().describe('use only the first n examples (overrides the dataset limit)'),
  thresholds: thresholds.optional(),
};

const wordSettings = {
  min_length: z.number().int().min(1).optional().describe('shortest word that may be perturbed (default 2)'),
  protect: z.array(z.string()).optional().describe('words never to perturb'),
  field: z.enum(['text', 'textA', 'textB', 'tokens', 'question', 'context']).optional().describe('field to perturb'),
};

const typoSource = z.enum(ALL_TYPO_SOURCES as [string, ...string[]]);

export const typosSettings = z.strictObject({
  ...wordSettings,
  target: z.enum(['max', 'min', 'random']).optional().describe('words to put typos in, by importance (default max)'),
  k: z.number().int().min(0).optional().describe('typo budget per text (default 1)'),
  sources: z.array(typoSource).optional().describe('typo sources (default: all six)'),
  max_candidates: z.number().int().min(1).optional().describe('cap on candidates per source and word'),
});

export const noiseSettings = z.strictObject({
  ...wordSettings,
  noise: z.enum(NOISE_TYPES as unknown as [string, ...string[]]).optional().describe('noise applied to every word (default swap)'),
});

export const curveSettings = z.strictObject({
  min_length: wordSettings.min_length,
  k_max: z.number().int().min(1).optional().describe('largest K (default 10)'),
  random_seeds: z.number().int().min(1).optional().describe('seeds for random targeting (default 5)'),
  sources: z.array(typoSource).optional().describe('typo sources combined for the target rows'),
  by_source: z.boolean().optional().describe('also run one curve per typo source (default true)'),
});

export const grammarSettings = z.strictObject({
  protect: wordSettings.protect,
  field: wordSettings.field,
  search: z.enum(GRAMMAR_SEARCHES).optional().describe('probabilistic | greedy | beam | genetic (default greedy)'),
  budget: z.number().gt(0).max(1).optional().describe('most words modified, as a fraction of the words (default 0.15)'),
  error_rate: z.number().gt(0).max(1).optional().describe('probabilistic: errors per word (default: the budget)'),
  error_types: z.string().optional().describe('error types to use, optionally weighted: "ArtOrDet=3,Prep=1" (default all eight)'),
  beam_width: z.number().int().min(1).optional().describe('beam: beam size (default 5)'),
  population: z.number().int().min(2).optional().describe('genetic: population size (default 60)'),
});

/** One entry per recipe a suite test may name; a new family adds its settings schema here. */
const testSchemas = [
  z.strictObject({ ...common, recipe: z.literal('typos').describe('Adv-BERT typo attack'), settings: typosSettings.optional() }),
  z.strictObject({ ...common, recipe: z.literal('noise').describe('Belinkov & Bisk noise on every word'), settings: noiseSettings.optional() }),
  z.strictObject({ ...common, recipe: z.literal('grammar').describe('grammatical errors (Yin et al. 2020)'), settings: grammarSettings.optional() }),
  z.strictObject({ ...common, recipe: z.literal('typos-curve').describe('accuracy vs K typos (max/min/random) and by source'), settings: curveSettings.optional() }),
] as const;

export const testSchema = z.discriminatedUnion('recipe', testSchemas);

const modelSchema = z.union([
  z.string().describe('model folder, built-in name (demo-sst2, demo-ner), hub id or http(s):// endpoint'),
  z.strictObject({
    path: z.string().describe('model folder, built-in name, hub id or http(s):// endpoint'),
    task: z.enum(['text-classification', 'token-classification', 'question-answering']).optional(),
    label_map: z.string().optional().describe('dataset label → model label, e.g. "0=NEGATIVE,1=POSITIVE"'),
    batch_size: z.number().int().min(1).optional(),
    auth_env: z.string().optional().describe('HTTP models: environment variable holding the Authorization header'),
  }),
]);

const datasetSchema = z.union([
  z.string().describe('data file, relative to the suite file'),
  z.strictObject({
    path: z.string().describe('data file, relative to the suite file'),
    fallback: z.string().optional().describe('used when `path` does not exist (relative to the suite file)'),
    optional: z.boolean().optional().describe('skip the tests that use it when neither file exists (default false: error)'),
    format: z.enum(['sst2', 'mrpc', 'cola', 'qnli', 'sick', 'csv', 'tsv', 'jsonl', 'squad', 'conll']).optional(),
    split: z.string().optional(),
    limit: z.number().int().min(1).optional().describe('use only the first n examples'),
    text_column: z.string().optional(),
    text_a_column: z.string().optional(),
    text_b_column: z.string().optional(),
    label_column: z.string().optional(),
    id_column: z.string().optional(),
    skip_bad_rows: z.boolean().optional(),
  }),
]);

export const suiteSchema = z
  .strictObject({
    $schema: z.string().optional().describe('path or URL of schema/suite.schema.json, for editors'),
    name: z.string().optional().describe('suite title (shown in the report)'),
    seed: z.number().int().min(0).optional().describe('default seed of every test (default 0)'),
    models: z.record(z.string(), modelSchema).describe('models by name'),
    datasets: z.record(z.string(), datasetSchema).describe('datasets by name'),
    tests: z.array(testSchema).min(1).describe('the tests to run, in order'),
    gate: thresholds.optional().describe('checks applied to every test'),
    baseline: z.string().optional().describe('output folder of an earlier run of this suite (another model or version), relative to the suite file'),
    report: z
      .strictObject({
        title: z.string().optional(),
        max_examples: z.number().int().min(1).optional().describe('most examples in the example browser (default 3000)'),
      })
      .optional(),
  })
  .describe('textstress suite: models, datasets, tests and the CI gate');

export type Suite = z.infer<typeof suiteSchema>;
export type SuiteTest = z.infer<typeof testSchema>;
export type ModelEntry = z.infer<typeof modelSchema>;
export type DatasetEntry = z.infer<typeof datasetSchema>;

/** The published JSON Schema (schema/suite.schema.json). */
export function suiteJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(suiteSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { ...schema, title: 'textstress suite' };
}
