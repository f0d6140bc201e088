/**
 * summary.json read back (by the report, the gate, compare): checked before anything reads a figure from it. A
 * summary is our own output, but a user may hand-edit one, copy one from an older or newer textstress, or point
 * the report at a folder that only looks like a run; a figure of the wrong type would otherwise fail far away
 * ("x.toFixed is not a function") or, worse, compare as a string in a gate. Only what readers rely on is checked,
 * and only its type where present (summaries written before a field existed still load); every other key passes.
 */
import { z } from 'zod';
import { describeZodError } from '../models/schema.ts';
import { TextstressError } from '../util/errors.ts';
import type { GenerateSummary } from './generate-summary.ts';
import type { StressSummary } from './stress-summary.ts';
import type { RunSummary } from './summary.ts';

const count = z.number().int().nonnegative();
/** A figure: a number, or null where it is n/a (taken over zero examples). */
const figure = z.number().nullable();
const interval = z.looseObject({ value: figure, low: figure, high: figure, n: z.number().nonnegative() });
// By figure name: one interval, or one per point of a curve (accuracy by edits, success by budget).
const intervals = z.record(z.string(), z.union([interval, z.array(interval.nullable())])).optional();

/** What every kind's summary shares. */
const common = {
  recipe: z.string().min(1),
  n: count,
  settings: z.record(z.string(), z.unknown()).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  intervals,
};

const attackSummary = z.looseObject({
  ...common,
  kind: z.enum(['attack', 'probe']).optional(),
  succeeded: count.optional(),
  failed: count.optional(),
  skipped: count.optional(),
  attacked: count.optional(),
  clean_accuracy: figure.optional(),
  attacked_accuracy: figure.optional(),
  attack_success_rate: figure.optional(),
  mean_perturbed_word_pct: figure.optional(),
  mean_perturbed_word_pct_all: figure.optional(),
  mean_queries: figure.optional(),
  queries_per_success: figure.optional(),
  queries_per_success_median: figure.optional(),
  cache_hit_rate: figure.optional(),
  accuracy_by_edits: z.array(z.number().nullable()).nullable().optional(),
  stability: figure.optional(),
  stability_n: count.optional(),
  clean_f1: figure.optional(),
  attacked_f1: figure.optional(),
  clean_em: figure.optional(),
  attacked_em: figure.optional(),
  probe: z.looseObject({ n: count, original_metric: figure, worst_metric: figure, best_metric: figure, stability: figure }).optional(),
  clean_below_chance: z.looseObject({ accuracy: z.number(), n: count, high: z.number(), chance: z.number() }).optional(),
});

const stressCell = z.looseObject({
  n: count,
  accuracy: figure,
  original_accuracy: figure.optional(),
  reduction: figure.optional(),
  accuracy_interval: interval.optional(),
  reduction_interval: interval.optional(),
});
const stressSummary = z.looseObject({
  ...common,
  kind: z.literal('stress').optional(),
  cases: count.optional(),
  original: stressCell,
  tests: z.record(z.string(), stressCell.extend({ variants: z.record(z.string(), stressCell).optional() })),
  worst: z.looseObject({ test: z.string(), accuracy: z.number() }).nullable().optional(),
  max_reduction: z.looseObject({ test: z.string(), reduction: z.number() }).nullable().optional(),
});

const generateSummary = z.looseObject({
  ...common,
  kind: z.literal('generate').optional(),
  measured: count.optional(),
  steps: count.optional(),
  metrics: z.record(z.string(), figure),
});

function check<T>(schema: z.ZodType, raw: Record<string, unknown>, where: string, what: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new TextstressError(`summary.json is not a readable ${what} summary: ${describeZodError(parsed.error, 'summary', 4)}.`, {
      where,
      hint: 'it was edited by hand, cut short, or written by another textstress version; rerun the test (with --resume it reuses what it can)',
    });
  // Checked above for everything its readers use; the rest of the type is what the writer guarantees.
  return raw as T;
}

/** An attack or probe run's summary.json, checked (see the file comment); `where` names the file in the error. */
export const readAttackSummary = (raw: Record<string, unknown>, where: string): RunSummary =>
  check<RunSummary>(attackSummary, raw, where, 'attack or probe');

/** A stress run's summary.json, checked. */
export const readStressSummary = (raw: Record<string, unknown>, where: string): StressSummary =>
  check<StressSummary>(stressSummary, raw, where, 'stress');

/** A generator run's summary.json, checked. */
export const readGenerateSummary = (raw: Record<string, unknown>, where: string): GenerateSummary =>
  check<GenerateSummary>(generateSummary, raw, where, 'generator');
