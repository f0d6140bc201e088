/**
 * What every kind's gate shares: reading a metric a recipe adds (RecipeDef.metrics) from a run's summary, and the
 * run it was handed checked to be of its own kind's shape (by the loaded run's `slot`), so no gate casts.
 */
import type { RecipeMetric } from '../recipes/registry/define.ts';
import type { GeneratedRun, LoadedRun, StressRun } from '../recipes/report/types.ts';
import type { Interval } from '../stats/index.ts';
import type { AnyLoadedRun } from './types.ts';

// A gate reading another kind's run would read fields that are not there and report n/a: a bug, said loudly.
const wrongRun = (what: string, run: AnyLoadedRun): Error =>
  new Error(`internal error: the gate of ${what} runs was handed a run of the '${run.slot}' list (${run.dir})`);

/** The run as an attack or probe run (summary.json with clean and attacked figures, sampled results). */
export function attackRunOf(run: AnyLoadedRun): LoadedRun {
  if (run.slot === 'runs') return run;
  throw wrongRun('attack and probe', run);
}

/** The run as a stress run (per-test tallies, sampled result lines). */
export function stressRunOf(run: AnyLoadedRun): StressRun {
  if (run.slot === 'stress') return run;
  throw wrongRun('stress', run);
}

/** The run as a generator's run (per-step figures, the first records). */
export function generatedRunOf(run: AnyLoadedRun): GeneratedRun {
  if (run.slot === 'generated') return run;
  throw wrongRun('generator', run);
}

/** A recipe's own metric of a run: a number, null (n/a), or undefined when the recipe does not declare it. */
export function recipeMetric(metric: string, summary: object, extra: Record<string, RecipeMetric>): number | null | undefined {
  const v = extra[metric]?.read(summary as Record<string, unknown>);
  return typeof v === 'number' || v === null ? v : undefined;
}

/** A recipe's own metric's interval from a run's summary (RecipeMetric.interval); undefined where it has none. */
export function recipeInterval(metric: string, summary: object, extra: Record<string, RecipeMetric>): Interval | undefined {
  return extra[metric]?.interval?.(summary as Record<string, unknown>);
}
