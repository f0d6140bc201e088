import type { ReportFamily } from '../types.ts';
import { cleanVsAttackedChart, editTypeChart, editTypeCounts, runLabel } from '../../../recipes/report/charts.ts';

/** The section for a recipe that declares none: clean vs attacked per run and the edit types that worked. */
export function genericFamily(recipe: string): ReportFamily {
  return {
    id: recipe,
    title: `Recipe “${recipe}”`,
    blurb: `Runs of the ${recipe} recipe (no dedicated report section yet: generic charts).`,
    section(runs) {
      const charts = [cleanVsAttackedChart('Clean vs under attack', 'One pair of bars per run.', runs, runLabel)];
      const counts = editTypeCounts(runs, `${recipe}:`);
      if (counts.length)
        charts.push(editTypeChart('Edit types in successful attacks', 'Summed over successful attacks.', counts, 'run', 'run'));
      return { charts, ...(runs[0] ? { headline: runs[0] } : {}) };
    },
  };
}
