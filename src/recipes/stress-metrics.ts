/**
 * Gate metrics of a stress recipe, made from its test names: the original accuracy, each test's accuracy and
 * reduction, and the run's lowest accuracy and largest reduction. Declared by the recipe (RecipeDef.metrics),
 * so suites may name them in thresholds ("nli_negation_reduction < 25%") and the docs list them.
 */
import type { StressSummary } from '../metrics/stress.ts';
import type { RecipeMetric } from './registry/define.ts';

const snakeOf = (test: string): string => test.replace(/-/g, '_');

/** A summary.json read back as a stress summary (the gate passes summaries as records). */
const asStress = (s: Record<string, unknown>): Partial<StressSummary> => s as Partial<StressSummary>;

/**
 * `<prefix>_original_accuracy`, `<prefix>_<test>_accuracy`, `<prefix>_<test>_reduction` for every test, and
 * `<prefix>_worst_accuracy`, `<prefix>_max_reduction` (tests the suite keeps out of the worst-test figures
 * aside). Reductions are fractions of the original accuracy on the same examples (0.25 = 25% of it lost).
 * A test that made no case reads null (n/a), which fails any threshold.
 */
export function stressGateMetrics(
  prefix: string,
  tests: readonly string[],
  what: string,
  notInWorst: readonly string[] = [],
): Record<string, RecipeMetric> {
  const aside = notInWorst.length ? ` (${notInWorst.join(', ')} aside)` : '';
  const metrics: Record<string, RecipeMetric> = {
    [`${prefix}_original_accuracy`]: {
      description: `${what}: accuracy on the unmodified examples`,
      read: (s) => asStress(s).original?.accuracy,
    },
  };
  for (const test of tests) {
    const t = (s: Record<string, unknown>) => asStress(s).tests?.[test];
    metrics[`${prefix}_${snakeOf(test)}_accuracy`] = {
      description: `${what}: accuracy on the ${test} cases`,
      read: (s) => (t(s) ? t(s)!.accuracy : undefined),
    };
    metrics[`${prefix}_${snakeOf(test)}_reduction`] = {
      description: `${what}: share of the original accuracy (same examples) lost on the ${test} cases`,
      read: (s) => (t(s) ? t(s)!.reduction : undefined),
    };
  }
  metrics[`${prefix}_worst_accuracy`] = {
    description: `${what}: the lowest accuracy of any test${aside}`,
    read: (s) => (asStress(s).worst === undefined ? undefined : (asStress(s).worst?.accuracy ?? null)),
  };
  metrics[`${prefix}_max_reduction`] = {
    description: `${what}: the largest reduction of any test${aside}`,
    read: (s) => (asStress(s).max_reduction === undefined ? undefined : (asStress(s).max_reduction?.reduction ?? null)),
  };
  return metrics;
}
