/** The settings of the QA stress suite, declared once: its flags, suite keys, docs and summary derive from this. */
import { z } from 'zod';

/**
 * The QA stress tests, in the order of the paper's Table 4; `addany` / `addcommon` are the paper's rows (the worst
 * over adversarial sets generated against other models), `addany-adaptive` / `addcommon-adaptive` the search
 * against the model under test itself.
 */
export const QA_STRESS_TESTS = [
  'addsent',
  'addonesent',
  'addany',
  'addcommon',
  'addany-adaptive',
  'addcommon-adaptive',
  'noise-natural',
  'noise-swap',
  'noise-middle-random',
  'noise-fully-random',
  'noise-keyboard',
] as const;
/** One of {@link QA_STRESS_TESTS}. */
export type QaStressTest = (typeof QA_STRESS_TESTS)[number];

/** The settings of `stress qa` (flags in kebab-case, suite keys in snake_case). */
export const stressQaSettings = z.strictObject({
  tests: z
    .array(z.enum(QA_STRESS_TESTS))
    .min(1)
    .default([...QA_STRESS_TESTS])
    .describe('stress tests to run'),
  addsent: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'the AddSent file (sample1k-HCVerifyAll.json); none = looked for beside --data, in adversarial-squad/ beside it and in ../adversarial-squad/',
    ),
  addonesent: z.string().nullable().default(null).describe('the AddOneSent file (sample1k-HCVerifySample.json); found the same way'),
  questions: z
    .enum(['all', 'adversarial'])
    .default('all')
    .describe('all questions of --data, or only the originals of the AddSent/AddOneSent files (the held-out set of models/demo-squad)'),
  addanyFrom: z
    .array(z.string())
    .default([])
    .describe(
      'AddAny/AddCommon rows (Table 4): earlier stress qa runs (folders or results.jsonl) whose AddAny/AddCommon ' +
        'adversaries, generated against other models, are alternative adversarial sets',
    ),
  addanyModels: z
    .array(z.string())
    .default([])
    .describe(
      'AddAny/AddCommon rows (Table 4): models to search adversaries against on every question of the run, each giving one alternative set per type',
    ),
  adaptiveLimit: z
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      'the adaptive AddAny/AddCommon rows (searched against this model) run on the questions it had right (F1 > 0) ' +
        'among the first N of the run (data order; 0 = off); each costs up to ~1,200 queries',
    ),
});

/** The parsed settings (defaults applied). */
export type StressQaSettings = z.output<typeof stressQaSettings>;
