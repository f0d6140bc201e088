import { builtinRegistry } from '../../../families/index.ts';
import type { LoadedRun, ReportFamily } from '../types.ts';
import { genericFamily } from './generic.ts';

/**
 * The report sections of the built-in recipes, in page order. A recipe brings its own section (RecipeDef.report);
 * callers with their own registry pass `registry.families()` instead.
 */
export const FAMILIES: readonly ReportFamily[] = builtinRegistry().families();

/** Assigns each run to its family; recipes nobody claims get a generic section each. */
export function assignFamilies(
  runs: readonly LoadedRun[],
  families: readonly ReportFamily[] = FAMILIES,
): { family: ReportFamily; runs: LoadedRun[] }[] {
  const out: { family: ReportFamily; runs: LoadedRun[] }[] = [];
  const generic = new Map<string, ReportFamily>();
  for (const run of runs) {
    let family = families.find((f) => f.owns(run));
    if (!family) {
      family = generic.get(run.summary.recipe) ?? genericFamily(run.summary.recipe);
      generic.set(run.summary.recipe, family);
    }
    let slot = out.find((s) => s.family === family);
    if (!slot) {
      slot = { family, runs: [] };
      out.push(slot);
    }
    slot.runs.push(run);
  }
  const rank = (f: ReportFamily): number => {
    const i = families.indexOf(f);
    return i < 0 ? families.length : i;
  };
  return out.sort((a, b) => rank(a.family) - rank(b.family));
}
