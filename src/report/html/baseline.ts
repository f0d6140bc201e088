/** The report's comparison with a baseline: each test's headline run against the same test of another model or version. */
import type { TopLevelSpec } from 'vega-lite';
import { escapeHtml as esc } from './escape.ts';
import { NA, pct } from '../../util/format.ts';
import { headlineRun } from './load.ts';
import type { ChartSpec, HeadlineMetrics, LoadedRun, RunGroup } from './types.ts';
import { differences, differencesText } from '../compare/compare.ts';
import type { RunInfo } from '../compare/load.ts';

/** A difference in percentage points, signed. */
export const pts = (d: number | null): string =>
  d === null ? NA : `${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(100 * d).toFixed(1)} pts`;

export function diff(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

export interface Comparison {
  test: string;
  base: LoadedRun;
  cur: LoadedRun;
}

/** Pairs each test with the baseline's test of the same name (or the only ones, when each side has one). */
export function compare(allGroups: readonly RunGroup[], allBaseline: readonly RunGroup[]): Comparison[] {
  // Generator runs have no headline attack run to compare.
  const groups = allGroups.filter((g) => g.runs.length);
  const baseline = allBaseline.filter((g) => g.runs.length);
  if (groups.length === 1 && baseline.length === 1)
    return [{ test: groups[0]!.name, cur: headlineRun(groups[0]!), base: headlineRun(baseline[0]!) }];
  const out: Comparison[] = [];
  for (const g of groups) {
    const b = baseline.find((x) => x.name === g.name);
    if (b) out.push({ test: g.name, cur: headlineRun(g), base: headlineRun(b) });
  }
  return out;
}

export function baselineModels(b: readonly RunGroup[]): string {
  return [...new Set(b.flatMap((g) => g.runs.map((r) => r.summary.model)))].join(', ');
}

export function comparisonTable(rows: readonly Comparison[]): string {
  const keys: [keyof HeadlineMetrics, string, boolean][] = [
    ['clean', 'clean', true],
    ['attacked', 'under attack', true],
    ['attack_success_rate', 'attack success', false],
    ['stability', 'stability', true],
  ];
  const head = keys.map(([, l]) => `<th class="n">${l}: baseline</th><th class="n">current</th><th class="n">Δ</th>`).join('');
  const body = rows.map((c) => {
    const cells = keys
      .map(([k, , higherIsBetter]) => {
        const a = c.base.headline[k] as number | null;
        const b = c.cur.headline[k] as number | null;
        const d = diff(b, a);
        const cls = d === null || Math.abs(d) < 0.0005 ? '' : d > 0 === higherIsBetter ? 'up' : 'down';
        return `<td class="n">${pct(a)}</td><td class="n">${pct(b)}</td><td class="n ${cls}">${esc(pts(d))}</td>`;
      })
      .join('');
    // What differs between the two runs of the test (issue 34: runs with other settings must not read alike).
    const info = (r: Comparison['base']): RunInfo => ({
      dir: r.dir,
      recipe: r.summary.recipe,
      model: r.summary.model,
      dataset: r.summary.dataset,
      seed: r.summary.seed,
      n: r.summary.n,
      settings: r.summary.settings ?? {},
      budgeted: false, // only the settings are compared here, never query budgets
    });
    const differ = differencesText(differences(info(c.base), info(c.cur)));
    return (
      `<tr><td>${esc(c.test)}<div class="notes">${esc(differ ? `baseline → current: ${differ}` : 'same recipe, model, data, seed and settings')}` +
      `</div></td>${cells}</tr>`
    );
  });
  return `<table class="compare"><thead><tr><th>test</th>${head}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

export function comparisonChart(rows: readonly Comparison[]): ChartSpec {
  const values = rows.flatMap((c) => [
    { test: c.test, side: `baseline: ${c.base.summary.model}`, value: c.base.headline.attacked, order: 0 },
    { test: c.test, side: `current: ${c.cur.summary.model}`, value: c.cur.headline.attacked, order: 1 },
  ]);
  const spec: TopLevelSpec = {
    data: { values },
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      x: { field: 'test', type: 'nominal', title: null, axis: { labelAngle: rows.length > 4 ? -30 : 0 } },
      xOffset: { field: 'side', sort: { field: 'order' } },
      y: { field: 'value', type: 'quantitative', title: 'metric under attack', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
      color: { field: 'side', type: 'nominal', title: null, sort: { field: 'order' }, scale: { range: ['#94a3b8', '#2563eb'] } },
    },
  };
  return { title: 'Under attack: baseline vs current', caption: 'Accuracy (entity F1 for taggers) under each test’s attack.', spec };
}
