import type { LoadedRun, ReportFamily, ReportSections } from '../types.ts';
import { genericFamily } from './generic.ts';

/**
 * The section of a recipe's runs of one kind: the one its recipe declares when that shows such runs (`has`), else a
 * generic one per recipe (made once per call, so the runs of one recipe share it).
 */
export function sectionFinder(
  sections: ReportSections,
  has: (f: ReportFamily) => boolean,
  generic: (recipe: string) => ReportFamily,
): (recipe: string) => ReportFamily {
  const made = new Map<string, ReportFamily>();
  return (recipe) => {
    const declared = sections.familyOf(recipe);
    if (declared && has(declared)) return declared;
    let g = made.get(recipe);
    if (!g) made.set(recipe, (g = generic(recipe)));
    return g;
  };
}

/** Assigns each attack-shaped run to its section, in page order (declared sections first, in registry order). */
export function assignFamilies(runs: readonly LoadedRun[], sections: ReportSections): { family: ReportFamily; runs: LoadedRun[] }[] {
  const find = sectionFinder(sections, (f) => f.section !== undefined, genericFamily);
  const out: { family: ReportFamily; runs: LoadedRun[] }[] = [];
  for (const run of runs) {
    const family = find(run.summary.recipe);
    let slot = out.find((s) => s.family === family);
    if (!slot) {
      slot = { family, runs: [] };
      out.push(slot);
    }
    slot.runs.push(run);
  }
  const rank = (f: ReportFamily): number => {
    const i = sections.order.indexOf(f);
    return i < 0 ? sections.order.length : i;
  };
  return out.sort((a, b) => rank(a.family) - rank(b.family));
}
