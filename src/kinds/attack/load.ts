/**
 * How the report reads a finished attack-shaped run: one streaming pass over results.jsonl keeps an evenly spaced
 * sample of its examples (the successful attacks first, as the example browser wants them) and a small profile for
 * the charts, so a run of any size is read in bounded memory. The summary's counts say in advance which positions
 * to keep.
 */
import { join } from 'node:path';
import type { ExampleResult } from '../../core/result.ts';
import { SummaryAccumulator, type RunSummary } from '../../metrics/summary.ts';
import type { LoadedRun, RunProfile } from '../../recipes/report/types.ts';
import { readResults, spacedPositions } from '../../runner/checkpoint.ts';
import { RESULTS_FILE } from '../../runner/per-example.ts';
import { headlineMetrics } from './headline.ts';
import { BROWSER_MAX_EXAMPLES } from '../../options/command.ts';

/** Reads the run in `dir` whose summary.json is `summary` (see the file comment). Default sample: BROWSER_MAX_EXAMPLES. */
export async function loadAttackRun(
  dir: string,
  name: string,
  group: string,
  summary: RunSummary,
  opts: { sampleSize?: number } = {},
): Promise<LoadedRun> {
  const quota = opts.sampleSize ?? BROWSER_MAX_EXAMPLES;
  const wins = summary.succeeded ?? 0;
  const rest = Math.max(0, (summary.n ?? 0) - wins);
  const nWins = Math.min(wins, Math.max(Math.ceil(quota * 0.6), quota - rest));
  const keepWin = spacedPositions(wins, nWins);
  const keepRest = spacedPositions(rest, quota - nWins);
  const results: ExampleResult[] = [];
  const successByPct = new Map<number, number>();
  // Counts only: the intervals are in summary.json already.
  const acc = new SummaryAccumulator({ intervals: false });
  let w = 0;
  let o = 0;
  for await (const r of readResults<ExampleResult>(join(dir, RESULTS_FILE))) {
    const win = r.status === 'succeeded';
    if (win ? keepWin.has(w) : keepRest.has(o)) results.push(r);
    if (win) {
      w++;
      const pct = Math.round(r.perturbed_word_pct * 1e6) / 1e6;
      successByPct.set(pct, (successByPct.get(pct) ?? 0) + 1);
    } else o++;
    acc.add(r);
  }
  const counted = acc.finish(false);
  const profile: RunProfile = {
    examples: counted.n,
    attacked: counted.attacked,
    successByPct: [...successByPct].sort((a, b) => a[0] - b[0]),
  };
  return { slot: 'runs', dir, name, group, summary, results, profile, headline: headlineMetrics(summary, counted) };
}
