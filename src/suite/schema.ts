/**
 * The suite file's schema, derived from a recipe registry: one `tests` entry shape per recipe, its `settings` the
 * recipe's own settings in snake_case (defaults shown, not filled in: the run applies them, so suite.json keeps
 * what the user wrote). The published schema/suite.schema.json is this schema for the built-in registry.
 */
import { z } from 'zod';
import { suiteEntryShape, type NamedOption } from '../options/derive.ts';
import { snake } from '../util/casing.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import { closest, editDistance, type Registry } from '../recipes/registry/registry.ts';
import { GATE_METRICS } from '../kinds/attack/gate.ts';
import { BROWSER_MAX_EXAMPLES } from '../options/command.ts';

/**
 * A threshold: `METRIC OP VALUE`, VALUE a number (0.4), a percentage (40%), or the baseline's value of the same
 * metric give or take a margin (`baseline - 2pts`, `baseline - 0.02`). OP is <, <=, >, >= or ==. A number may be
 * negative, for metrics that can be (a stress test's reduction is negative when the test raised accuracy). METRIC may
 * name a bound of its 95% interval: `attack_success_rate.high < 0.30`, `clean_accuracy.low > 0.8` (groups: 1 metric,
 * 2 bound, 3 op, 4 baseline, 5 sign, 6 margin, 7 unit, 8 value, 9 %).
 */
export const THRESHOLD_RE =
  /^\s*([a-z_][a-z0-9_]*)(?:\.(low|high|value))?\s*(<=|>=|<|>|==)\s*(?:(baseline)\s*(?:([+-])\s*(\d+(?:\.\d+)?)\s*(%|pts?|points?)?)?|(-?\d+(?:\.\d+)?)\s*(%)?)\s*$/;

/**
 * The metric names a mistyped one most likely meant: the closest by edit distance (≤ 2), else those sharing the most
 * words with it (`succes_rate` → attack_success_rate), each word matched with up to one typo; at most three.
 */
export function nearMetrics(word: string, metrics: readonly string[]): string[] {
  const near = closest(word, metrics);
  if (near) return [near];
  const parts = word.toLowerCase().split('_').filter(Boolean);
  const score = (name: string): number =>
    parts.filter((p) => name.split('_').some((q) => q === p || (p.length > 3 && editDistance(p, q) <= 1))).length;
  const scored = metrics.map((name) => ({ name, s: score(name) })).filter((x) => x.s > 0);
  const best = Math.max(0, ...scored.map((x) => x.s));
  return scored
    .filter((x) => x.s === best)
    .sort((a, b) => a.name.length - b.name.length)
    .slice(0, 3)
    .map((x) => x.name);
}

function thresholdSchema(metrics: readonly string[]) {
  return z
    .string()
    .superRefine((s, ctx) => {
      const m = THRESHOLD_RE.exec(s);
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message:
            `"${s}" is not a threshold; write e.g. "attack_success_rate < 0.4", "attack_success_rate.high < 0.3", ` +
            `"stability >= 90%" or "attacked_accuracy >= baseline - 2pts"`,
        });
        return;
      }
      if (!metrics.includes(m[1]!)) {
        // A hundred-odd names would bury the answer: the likeliest few, and where the whole list is.
        const near = nearMetrics(m[1]!, metrics);
        ctx.addIssue({
          code: 'custom',
          message:
            `unknown metric "${m[1]}" in threshold "${s}"` +
            (near.length ? ` (did you mean ${near.join(' or ')}?)` : '') +
            "; docs/recipes.md lists every gate metric (each recipe's own under it)",
        });
      }
    })
    .describe(
      '`METRIC[.low|.high] OP VALUE`, e.g. "attack_success_rate.high < 0.3", "stability > 90%", "attacked_accuracy >= baseline - 2pts"',
    );
}

/** A field schema without its default (kept as the JSON Schema `default` for editors). */
function optionalField(field: z.ZodType): z.ZodType {
  const description = field.description;
  if (field instanceof z.ZodDefault) {
    const def = (field as z.ZodDefault<z.ZodType>)._zod.def.defaultValue;
    return (field as z.ZodDefault<z.ZodType>)
      .unwrap()
      .optional()
      .meta({ ...(description ? { description } : {}), default: def });
  }
  return field instanceof z.ZodOptional ? field : field.optional();
}

/** A recipe's settings as a suite writes them: snake_case keys, all optional. */
export function suiteSettingsSchema(def: AnyRecipe): z.ZodObject {
  const shape = (def.settings as z.ZodObject).shape as Record<string, z.ZodType>;
  return z.strictObject(Object.fromEntries(Object.entries(shape).map(([k, v]) => [snake(k), optionalField(v)])));
}

/** A suite entry's description of an option: a path option says what it is relative to. */
const suiteDescription = (o: NamedOption): string | undefined =>
  o.schema.description && o.meta.suite?.path ? `${o.schema.description} (relative to the suite file)` : undefined;

const modelSchema = z.union([
  z
    .string()
    .describe(
      'model folder, built-in name (demo-sst2, demo-ner, demo-sick, demo-squad, demo-qnli, demo-cola), hub id or http(s):// endpoint',
    ),
  z.strictObject(suiteEntryShape('model', suiteDescription) as { path: z.ZodString }).extend({
    path: z.string().describe('model folder, built-in name, hub id, http(s):// endpoint or openai:<model>'),
  }),
]);

const datasetSchema = z.union([
  z.string().describe('data file, relative to the suite file'),
  z.strictObject(suiteEntryShape('dataset', suiteDescription) as { path: z.ZodString }).extend({
    path: z.string().describe('data file, relative to the suite file'),
    fallback: z.string().optional().describe('used when `path` does not exist (relative to the suite file)'),
    optional: z.boolean().optional().describe('skip the tests that use it when neither file exists (default false: error)'),
  }),
]);

/** A suite's model: a path, built-in name, hub id or URL, or an object with that `path` and its model options (suite keys). */
export type ModelEntry = string | ({ path: string } & Record<string, unknown>);
/** A suite's dataset: a path relative to the suite file, or an object with that `path` and its data options (suite keys). */
export type DatasetEntry = string | ({ path: string; fallback?: string; optional?: boolean } & Record<string, unknown>);

/** One test of a suite; `settings` keeps the user's snake_case keys, and so do its run options (see TEST_DESCRIPTIONS). */
export interface SuiteTest {
  name: string;
  recipe: string;
  model?: string;
  dataset?: string;
  seed?: number;
  limit?: number;
  concurrency?: number;
  compact?: boolean;
  max_queries?: number;
  thresholds?: string[];
  settings?: Record<string, unknown>;
}

/** How a test's run options read in a suite (where they differ from the flag's help). */
const TEST_DESCRIPTIONS: Record<string, string> = {
  seed: 'seed (default: the suite seed)',
  limit: 'use only the first n examples (overrides the dataset limit)',
  concurrency: 'examples attacked at once; their queries share model batches (default 32)',
};

/** A suite file as parsed: models and datasets by name, the tests in order, and an optional gate for every test. */
export interface Suite {
  $schema?: string;
  name?: string;
  seed?: number;
  models: Record<string, ModelEntry>;
  datasets: Record<string, DatasetEntry>;
  tests: SuiteTest[];
  gate?: string[];
  baseline?: string;
  /** Fewest examples behind a metric for its check to pass (below: inconclusive); default {@link DEFAULT_MIN_N}. */
  min_n?: number;
  /** Significance level of the paired test against the baseline (after Holm); default 0.05. */
  alpha?: number;
  report?: { title?: string; max_examples?: number };
}

/**
 * Default fewest examples behind a gate check (a metric's own n: attacked examples for attack_success_rate,
 * stability_n for stability, examples for accuracies). At n = 30 a Wilson interval is still about ±0.15 wide around
 * 0.5, so a pass on fewer says little; below it a check that holds is inconclusive, never a pass.
 */
export const DEFAULT_MIN_N = 30;

/** The names a threshold may use: the built-in gate metrics and those the recipes add. */
export function gateMetricNames(registry: Registry): string[] {
  return [...Object.keys(GATE_METRICS), ...Object.keys(registry.metrics())];
}

/** The zod schema of a suite file whose tests may name the registry's recipes (snake_case settings). */
export function suiteSchemaFor(registry: Registry): z.ZodType<Suite> {
  const thresholds = z.array(thresholdSchema(gateMetricNames(registry))).describe('checks of the CI gate for this test');
  const common = {
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" and "-" (it names the output folder)')
      .describe('test name: also its output sub-folder'),
    model: z.string().optional().describe('a key of `models` (default: the only model)'),
    dataset: z.string().optional().describe('a key of `datasets` (default: the only dataset)'),
    ...suiteEntryShape('test', (o) => TEST_DESCRIPTIONS[o.key]),
    thresholds: thresholds.optional(),
  };
  const tests = registry
    .all()
    .map((def) =>
      z.strictObject({ ...common, recipe: z.literal(def.name).describe(def.summary), settings: suiteSettingsSchema(def).optional() }),
    );
  const test =
    tests.length === 1 ? tests[0]! : z.discriminatedUnion('recipe', tests as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
  return z
    .strictObject({
      $schema: z.string().optional().describe('path or URL of schema/suite.schema.json, for editors'),
      name: z.string().optional().describe('suite title (shown in the report)'),
      seed: z.number().int().min(0).optional().describe('default seed of every test (default 0)'),
      models: z.record(z.string(), modelSchema).describe('models by name'),
      datasets: z.record(z.string(), datasetSchema).describe('datasets by name'),
      tests: z.array(test).min(1).describe('the tests to run, in order'),
      gate: thresholds.optional().describe('checks applied to every test'),
      baseline: z
        .string()
        .optional()
        .describe('output folder of an earlier run of this suite (another model or version), relative to the suite file'),
      min_n: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(
          `fewest examples behind a metric for its check to pass; below, a check that holds is inconclusive (default ${DEFAULT_MIN_N})`,
        ),
      alpha: z
        .number()
        .gt(0)
        .lt(1)
        .optional()
        .describe('significance level of the paired test against the baseline, after Holm (default 0.05)'),
      report: z
        .strictObject({
          title: z.string().optional(),
          max_examples: z
            .number()
            .int()
            .min(1)
            .optional()
            .describe(`most examples in the example browser (default ${BROWSER_MAX_EXAMPLES})`),
        })
        .optional(),
    })
    .describe('textstress suite: models, datasets, tests and the CI gate') as unknown as z.ZodType<Suite>;
}

/** The published JSON Schema (schema/suite.schema.json) of a registry's suites. */
export function suiteJsonSchema(registry: Registry): Record<string, unknown> {
  const schema = z.toJSONSchema(suiteSchemaFor(registry), { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return { ...schema, title: 'textstress suite' };
}
