/** What every kind's gate shares: reading a metric a recipe adds (RecipeDef.metrics) from a run's summary. */
import type { RecipeMetric } from '../recipes/registry/define.ts';
import type { Interval } from '../stats/index.ts';

/** A recipe's own metric of a run: a number, null (n/a), or undefined when the recipe does not declare it. */
export function recipeMetric(metric: string, summary: object, extra: Record<string, RecipeMetric>): number | null | undefined {
  const v = extra[metric]?.read(summary as Record<string, unknown>);
  return typeof v === 'number' || v === null ? v : undefined;
}

/** A recipe's own metric's interval from a run's summary (RecipeMetric.interval); undefined where it has none. */
export function recipeInterval(metric: string, summary: object, extra: Record<string, RecipeMetric>): Interval | undefined {
  return extra[metric]?.interval?.(summary as Record<string, unknown>);
}
