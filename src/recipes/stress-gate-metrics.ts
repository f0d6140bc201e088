/**
 * Gate metrics of a stress recipe, made from its test names: the original accuracy, each test's accuracy and
 * reduction, and the run's lowest accuracy and largest reduction. Declared by the recipe (RecipeDef.metrics),
 * so suites may name them in thresholds ("nli_negation_reduction < 25%") and the docs list them.
 */
import type { StressSummary } from '../metrics/stress-summary.ts';
import type { Interval } from '../stats/index.ts';
import type { RecipeMetric } from './registry/define.ts';

const snakeOf = (test: string): string => test.replace(/-/g, '_');

/** A summary.json read back as a stress summary (the gate passes summaries as records). */
const asStress = (s: Record<string, unknown>): Partial<StressSummary> => s;

/** A reduction is (original − test) / original: at most 1 (all lost), unbounded below (a test may raise accuracy). */
export const REDUCTION_RANGE: readonly [number, number] = [-Infinity, 1];

/** An interval with its value set to the figure it stands beside (the same sums, added in another order). */
export function beside(iv: Interval | undefined, value: number | null | undefined): Interval | undefined {
  return iv && typeof iv.n === 'number' ? { ...iv, value: value ?? null } : undefined;
}

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
      range: [0, 1],
      read: (s) => asStress(s).original?.accuracy,
      interval: (s) => beside(asStress(s).original?.accuracy_interval, asStress(s).original?.accuracy),
    },
  };
  for (const test of tests) {
    const t = (s: Record<string, unknown>) => asStress(s).tests?.[test];
    metrics[`${prefix}_${snakeOf(test)}_accuracy`] = {
      description: `${what}: accuracy on the ${test} cases`,
      range: [0, 1],
      read: (s) => (t(s) ? t(s)!.accuracy : undefined),
      interval: (s) => beside(t(s)?.accuracy_interval, t(s)?.accuracy),
    };
    metrics[`${prefix}_${snakeOf(test)}_reduction`] = {
      description: `${what}: share of the original accuracy (same examples) lost on the ${test} cases`,
      range: REDUCTION_RANGE,
      read: (s) => (t(s) ? t(s)!.reduction : undefined),
      interval: (s) => beside(t(s)?.reduction_interval, t(s)?.reduction),
    };
  }
  const run = (s: Record<string, unknown>): Record<string, Interval> | undefined => asStress(s).intervals;
  metrics[`${prefix}_worst_accuracy`] = {
    description: `${what}: the lowest accuracy of any test${aside}`,
    range: [0, 1],
    read: (s) => (asStress(s).worst === undefined ? undefined : (asStress(s).worst?.accuracy ?? null)),
    interval: (s) => beside(run(s)?.worst_accuracy, asStress(s).worst?.accuracy),
  };
  metrics[`${prefix}_max_reduction`] = {
    description: `${what}: the largest reduction of any test${aside}`,
    range: REDUCTION_RANGE,
    read: (s) => (asStress(s).max_reduction === undefined ? undefined : (asStress(s).max_reduction?.reduction ?? null)),
    interval: (s) => beside(run(s)?.max_reduction, asStress(s).max_reduction?.reduction),
  };
  return metrics;
}
