/**
 * `textstress compare A B` as a library: load → join → compare, and the files it writes (compare.json, compare.html).
 * The suite's `baseline:` gate and the report reuse {@link compareRuns}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changedIds, comparePaired, differences, type Comparison, type CompareOptions } from './compare.ts';
import { compareHtml } from './html.ts';
import { join2, readDetails, readOutcomes } from './load.ts';
import { budgetComparisonChart, compareBudgets } from './budget.ts';
import { renderChart } from '../html/charts.ts';

export * from './compare.ts';
export * from './load.ts';
export { compareHtml, transferHtml, ivText } from './html.ts';
export * from './transfer.ts';
export * from './budget.ts';

/**
 * Most examples `compare` lists per side (newly broke / newly held) with their texts. A different count from the
 * report's example browser (BROWSER_MAX_EXAMPLES) under the same flag word, `--max-examples`: a list of changed
 * examples per side, not a sample of every run's examples.
 */
export const COMPARE_MAX_LISTED = 200;

/** Options of {@link compareRuns}. */
export interface CompareRunsOptions extends Partial<CompareOptions> {
  /** Compare on the examples both runs hold instead of refusing different example sets. */
  intersection?: boolean;
  /** Most examples listed per side (newly broke / newly held) with their texts; default COMPARE_MAX_LISTED. */
  maxExamples?: number;
}

/** Compares two finished run folders (see compare.ts). The default seed is the first run's seed. */
export async function compareRuns(dirA: string, dirB: string, opts: CompareRunsOptions = {}): Promise<Comparison> {
  const a = await readOutcomes(dirA);
  const b = await readOutcomes(dirB);
  const j = join2(a, b, opts.intersection ? { intersection: true } : {});
  const seed = opts.seed ?? a.info.seed;
  const alpha = opts.alpha ?? 0.05;
  const metrics = comparePaired(j, {
    seed,
    alpha,
    ...(opts.resamples ? { resamples: opts.resamples } : {}),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  const budget = compareBudgets(j, { a: a.info, b: b.info }, { seed, ...(opts.resamples ? { resamples: opts.resamples } : {}) });
  const { broke, held } = changedIds(j);
  const max = opts.maxExamples ?? COMPARE_MAX_LISTED;
  const listed = new Set([...broke.slice(0, max), ...held.slice(0, max)]);
  const [da, db] = [await readDetails(dirA, listed), await readDetails(dirB, listed)];
  const view = (id: string) => ({ id, a: da.get(id), b: db.get(id) });
  return {
    version: 1,
    a: a.info,
    b: b.info,
    joined: { n: j.ids.length, mode: j.mode, only_a: j.onlyA.length, only_b: j.onlyB.length },
    seed,
    alpha,
    metrics,
    newly_broke: broke.slice(0, max).map(view),
    newly_held: held.slice(0, max).map(view),
    newly_broke_n: broke.length,
    newly_held_n: held.length,
    regression: metrics.some((m) => m.regression),
    ...(budget ? { query_budget: budget } : {}),
    differ: differences(a.info, b.info),
  };
}

/**
 * The query-budget chart of a comparison as inline SVG (undefined when the runs have no query-budget view), without
 * the namespace declarations an SVG inside HTML does not need: the page names no URL at all.
 */
export async function budgetComparisonSvg(c: Comparison): Promise<string | undefined> {
  if (!c.query_budget || c.query_budget.budgets.length === 0) return undefined;
  const svg = await renderChart(budgetComparisonChart(c.query_budget));
  return svg.replace(/\s+xmlns(:xlink)?="[^"]*"/g, '');
}

/** Writes OUT/compare.json and OUT/compare.html; returns their paths. */
export async function writeComparison(c: Comparison, out: string): Promise<{ json: string; html: string }> {
  mkdirSync(out, { recursive: true });
  const json = join(out, 'compare.json');
  const html = join(out, 'compare.html');
  writeFileSync(json, JSON.stringify(c, null, 2) + '\n');
  writeFileSync(html, compareHtml(c, await budgetComparisonSvg(c)));
  return { json, html };
}
