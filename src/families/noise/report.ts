import type { ChartSpec, LoadedRun, ReportFamily } from '../../recipes/report/types.ts';
import { cleanVsAttackedChart, runLabel, settingString } from '../../recipes/report/charts.ts';

export const noiseFamily: ReportFamily = {
  id: 'noise',
  title: 'Character noise',
  blurb:
    'Belinkov & Bisk (2018), as used by the NLI stress tests (Naik et al. 2018): one noise type applied to every word at once — ' +
    'swap, middle-random, fully-random, keyboard or natural misspellings.',
  editTypeLabel: (t) => t.replace(/^noise:/, ''),
  section(runs: LoadedRun[]) {
    const label = (r: LoadedRun): string => {
      const noise = settingString(r, 'noise') ?? '?';
      return runs.filter((x) => settingString(x, 'noise') === noise).length > 1 ? `${noise} (${runLabel(r)})` : noise;
    };
    const charts: ChartSpec[] = [
      cleanVsAttackedChart('Clean vs noisy, by noise type', 'Every word of every sentence perturbed at once.', runs, label),
    ];
    return { charts, ...(runs[0] ? { headline: runs[0] } : {}) };
  },
};
