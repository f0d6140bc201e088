/**
 * How the report reads a finished stress run: an evenly spaced sample of whole result lines, as many examples as fit
 * the sample size when each brings its mean number of cases (the example browser shows cases).
 */
import { join } from 'node:path';
import type { StressResult } from '../../core/stress-suite.ts';
import type { StressSummary } from '../../metrics/stress-summary.ts';
import type { StressRun } from '../../recipes/report/types.ts';
import { readResults, spacedPositions } from '../../runner/checkpoint.ts';
import { RESULTS_FILE } from '../../runner/per-example.ts';
import { BROWSER_MAX_EXAMPLES } from '../../options/command.ts';

export async function loadStressRun(
  dir: string,
  name: string,
  group: string,
  summary: StressSummary,
  opts: { sampleSize?: number },
): Promise<StressRun> {
  const quota = opts.sampleSize ?? BROWSER_MAX_EXAMPLES;
  const n = summary.n ?? 0;
  const perExample = n ? Math.max(1, (summary.cases ?? 0) / n) : 1;
  const keep = spacedPositions(n, Math.floor(quota / perExample));
  const sample: StressResult[] = [];
  let i = 0;
  if (keep.size) {
    for await (const r of readResults<StressResult>(join(dir, RESULTS_FILE))) {
      if (keep.has(i++)) sample.push(r);
      if (sample.length >= keep.size) break;
    }
  }
  return { slot: 'stress', dir, name, group, summary, sample };
}
