import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadGroups } from './load.ts';
import { renderReport, type HtmlReportOptions } from './render.ts';
import type { Verdict } from './types.ts';
import { BROWSER_MAX_EXAMPLES } from '../../options/command.ts';

export { loadGroups, headlineRun } from './load.ts';
export { renderReport, type HtmlReportOptions } from './render.ts';
export { assignFamilies } from './families/index.ts';
export { headlineMetrics } from '../../kinds/attack/headline.ts';
export type * from './types.ts';

/** File name of the gate verdict a suite writes into its output folder; the report reads it from there. */
export const VERDICT_FILE = 'verdict.json';

/** Reads the run folders, renders the report and writes it; returns the file's size in bytes. */
export async function writeHtmlReport(
  paths: readonly string[],
  file: string,
  opts: Omit<HtmlReportOptions, 'baseline'> & { baselineDir?: string } = {},
): Promise<{ bytes: number; runs: number; examples: number }> {
  const sample = { sampleSize: opts.maxExamples ?? BROWSER_MAX_EXAMPLES, ...(opts.registry ? { registry: opts.registry } : {}) };
  const groups = await loadGroups(paths, sample);
  const baseline = opts.baselineDir ? await loadGroups([opts.baselineDir], sample) : undefined;
  let verdict = opts.verdict;
  if (!verdict && paths.length === 1 && existsSync(join(paths[0]!, VERDICT_FILE))) {
    verdict = JSON.parse(readFileSync(join(paths[0]!, VERDICT_FILE), 'utf8')) as Verdict;
  }
  const html = await renderReport(groups, { ...opts, ...(baseline ? { baseline } : {}), ...(verdict ? { verdict } : {}) });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
  const runs = groups.flatMap((g) => g.runs);
  const stress = groups.flatMap((g) => g.stress);
  return {
    bytes: Buffer.byteLength(html),
    runs: runs.length + stress.length,
    examples: runs.reduce((s, r) => s + r.profile.examples, 0) + stress.reduce((s, r) => s + r.summary.n, 0),
  };
}
