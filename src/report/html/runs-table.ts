/**
 * The report's runs table: one row per run with its settings and headline figures; an experiment's sub-runs fold
 * under one row. Also the settings line and dollar amounts the cards share.
 */
import { NA, fixed, pct } from '../../util/format.ts';
import { settingLabel, settingValue } from '../../metrics/display.ts';
import { runLabel } from '../../recipes/report/charts.ts';
import { escapeHtml as esc } from './escape.ts';
import { displayPath, withoutAbsolutePaths } from './paths.ts';
import type { LoadedRun } from './types.ts';

/**
 * "k: 3 · target: max · sources: 6 (insertion, deletion, …)": each setting named in words, not camelCase (issue 34),
 * booleans as yes / no, paths without the user's folders; `full` lists long arrays whole.
 */
export function formatSettings(settings: Record<string, unknown>, full = false, labels: Record<string, string> = {}): string {
  const value = (v: unknown): string => {
    if (Array.isArray(v)) {
      const items = v.map((x) => (typeof x === 'string' ? displayPath(x) : settingValue(x)));
      return !full && items.length > 3 ? `${items.length} (${items.slice(0, 2).join(', ')}, …)` : items.join(', ');
    }
    return typeof v === 'object' ? withoutAbsolutePaths(JSON.stringify(v)) : typeof v === 'string' ? displayPath(v) : settingValue(v);
  };
  return Object.entries(settings)
    .filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${labels[k] ?? settingLabel(k)}: ${value(v)}`)
    .join(' · ');
}

/** Dollars with enough digits for small sums. */
export function dollars(x: number): string {
  return `$${x !== 0 && Math.abs(x) < 0.01 ? x.toPrecision(3) : x.toFixed(2)}`;
}

function runRow(r: LoadedRun, metered: boolean): string {
  const s = r.summary;
  const h = r.headline;
  return (
    `<tr><td class="nowrap">${esc(runLabel(r))}</td><td class="nowrap">${esc(displayPath(s.model))}</td><td>` +
    `${esc(displayPath(s.dataset))}</td><td class="n">${esc(String(s.seed))}</td>` +
    `<td class="set" title="${esc(formatSettings(s.settings ?? {}, true))}">` +
    `${esc(formatSettings(s.settings ?? {}))}</td><td class="n">${s.n}</td><td class="n">${pct(h.clean)}</td><td ` +
    `class="n">${pct(h.attacked)}</td>` +
    `<td class="n">${pct(h.attack_success_rate)}</td><td class="n">${pct(h.stability)}</td><td class="n">` +
    `${s.mean_perturbed_word_pct === null ? NA : `${s.mean_perturbed_word_pct.toFixed(1)}%`}</td>` +
    `<td class="n">${fixed(s.mean_queries)}</td><td class="n">${fixed(s.queries_per_success)}</td>` +
    (metered
      ? `<td class="n">${s.usage ? (s.usage.input_tokens + s.usage.output_tokens).toLocaleString('en-US') : NA}</td>` +
        `<td class="n">${s.usage?.cost_usd != null ? dollars(s.usage.cost_usd) : NA}</td><td class="n">${s.unmappable?.answers ?? NA}</td>`
      : '') +
    `<td class="n">${s.wall_seconds.toFixed(1)} s</td></tr>`
  );
}

function runsHead(metered: boolean): string {
  return (
    '<thead><tr><th>run</th><th>model</th><th>data</th><th class="n">seed</th><th>settings</th><th class="n">n</th>' +
    '<th class="n">clean</th><th class="n">attacked</th><th class="n">success</th><th class="n">stability</th><th class="n">words edited</th>' +
    `<th class="n">queries / ex</th><th class="n" title="mean queries per successful attack">queries / success</th>` +
    `${metered ? '<th class="n">tokens</th><th class="n">cost</th><th class="n">unmappable</th>' : ''}<th class="n">wall</th></tr></thead>`
  );
}

/**
 * The family's runs, one row each; the sub-runs of an experiment (a typos curve's targets and sources …) fold
 * under one row naming the experiment, opened on demand.
 */
export function runsTable(runs: readonly LoadedRun[]): string {
  // Token, cost and unmappable columns only when some run used a metered model.
  const metered = runs.some((r) => r.summary.usage !== undefined);
  const byGroup = new Map<string, LoadedRun[]>();
  for (const r of runs) byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);
  const cols = metered ? 16 : 13;
  const rows: string[] = [];
  for (const [group, members] of byGroup) {
    if (members.length === 1) {
      rows.push(runRow(members[0]!, metered));
      continue;
    }
    const recipes = [...new Set(members.map((m) => m.summary.recipe))].join(', ');
    rows.push(
      `<tr class="exp"><td colspan="${cols}"><details><summary><b>${esc(group)}</b> — an experiment of ${members.length} runs ` +
        `(${esc(recipes)}); open to see each</summary><div class="scroll"><table class="runs">${runsHead(metered)}<tbody>` +
        `${members.map((m) => runRow(m, metered)).join('')}</tbody></table></div></details></td></tr>`,
    );
  }
  return `<div class="scroll"><table class="runs">${runsHead(metered)}<tbody>${rows.join('')}</tbody></table></div>`;
}
