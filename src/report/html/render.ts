import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { renderChart } from './charts.ts';
import { escapeHtml as esc, jsonForScript } from './escape.ts';
import { pct } from '../../util/format.ts';
import { browserData } from './examples.ts';
import { generatedSlots, generatedTiles, metricLabel, sampleTable } from './generated.ts';
import { displayPath, withoutAbsolutePaths } from './paths.ts';
import { addStressExamples, STRESS_OUTCOMES, stressCardHtml, stressRunsTable, stressSlots, tableHtml } from './stress-runs.ts';
import { assignFamilies } from './families/index.ts';
import { builtinRegistry } from '../../families/index.ts';
import { settingLabelsOf, type Registry } from '../../recipes/registry/registry.ts';
import { budgetCurveChart, runLabel } from '../../recipes/report/charts.ts';
import { baselineModels, compare, comparisonChart, comparisonTable, diff, pts } from './baseline.ts';
import { ciHtml } from './intervals.ts';
import { fallbackLines } from './fallbacks.ts';
import { withInterval } from '../../metrics/show.ts';
import { dollars, formatSettings, runsTable } from './runs-table.ts';

export { dollars, formatSettings } from './runs-table.ts';
import { headlineIntervals } from '../../recipes/report/intervals.ts';
import type { CardTile, ChartSpec, FamilySectionContent, HeadlineMetrics, LoadedRun, ReportFamily, RunGroup, Verdict } from './types.ts';
import { BROWSER_MAX_EXAMPLES } from '../../options/command.ts';

// One script element: the drawing helpers (textstressDraw), then the browser that uses them.
const SCRIPT = ['./draw.client.js', './browser.client.js'].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n');
const STYLE = readFileSync(new URL('./page.css', import.meta.url), 'utf8');

/** Options of {@link renderReport}. */
export interface HtmlReportOptions {
  title?: string;
  /** Runs to compare against (another model, or an earlier version), matched by test name. */
  baseline?: RunGroup[];
  verdict?: Verdict;
  /** Most examples the example browser carries (sampled beyond). Default BROWSER_MAX_EXAMPLES. */
  maxExamples?: number;
  /** The recipes whose runs these are: which section shows each recipe's runs (default: the built-in recipes). */
  registry?: Registry;
  now?: Date;
}

/** Key to the QA answer spans (the same classes the example cards use). */
const QA_LEGEND =
  '<p class="blurb legend" id="qa-legend">Question answering: the context before and after the attack. ' +
  '<span class="qa g">gold answer</span> bold, solid underline · <span class="qa p">model’s answer</span> hatched, dashed overline · ' +
  '<span class="qa g p">both</span> · far parts of a long context are folded (<span class="ell">…</span>) until you press “show the whole context”. ' +
  'EM/F1: the model’s answer against the gold answers (SQuAD v1.1 scoring), before → after.</p>';

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');

/** Renders the self-contained HTML report card for a set of run groups. */
export async function renderReport(groups: readonly RunGroup[], opts: HtmlReportOptions = {}): Promise<string> {
  const runs = groups.flatMap((g) => g.runs);
  const reg = opts.registry ?? builtinRegistry();
  const declared = reg.sections();
  const slots = assignFamilies(runs, declared);
  const sections = slots.map((s) => ({
    ...s,
    content: withBudgetCurve(
      s.family.section!(
        s.runs,
        groups.filter((g) => g.runs.some((r) => s.runs.includes(r))),
      ),
      s.runs,
    ),
  }));
  const genSlots = generatedSlots(groups, declared);
  const stSlots = stressSlots(groups, declared);
  const allCharts: ChartSpec[] = [
    ...sections.flatMap((s) => s.content.charts),
    ...genSlots.flatMap((s) => s.charts),
    ...stSlots.flatMap((s) => s.content.charts),
  ];
  const comparison = opts.baseline ? compare(groups, opts.baseline) : [];
  const baselineChart = comparison.length ? comparisonChart(comparison) : undefined;
  const svgs = await Promise.all([...allCharts, ...(baselineChart ? [baselineChart] : [])].map(renderChart));
  const svgOf = new Map<ChartSpec, string>();
  allCharts.forEach((c, i) => svgOf.set(c, svgs[i]!));
  // The browser's budget is shared among attack and stress runs alike.
  const stressRuns = stSlots.flatMap((s) => s.runs);
  const budget = opts.maxExamples ?? BROWSER_MAX_EXAMPLES;
  const perRun = Math.max(20, Math.floor(budget / Math.max(1, runs.length + stressRuns.length)));
  const data = browserData(slots, runs.length ? perRun * runs.length : budget);
  addStressExamples(data, stSlots, perRun);
  const title = opts.title ?? 'textstress robustness report';
  const generatedRuns = genSlots.flatMap((s) => s.runs);
  const models = [...new Set([...runs, ...generatedRuns, ...stressRuns].map((r) => displayPath(r.summary.model)))];
  const datasets = [
    ...new Set(
      [...runs, ...stressRuns]
        .map((r) => displayPath(r.summary.dataset))
        .concat(generatedRuns.flatMap((r) => (r.summary.dataset ? [displayPath(r.summary.dataset)] : []))),
    ),
  ];
  const nRuns = runs.length + generatedRuns.length + stressRuns.length;
  const generated = (opts.now ?? new Date()).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

  const body: string[] = [];
  body.push(`<header class="top"><h1>${esc(title)}</h1>`);
  body.push(
    `<div class="meta">${nRuns} run${nRuns === 1 ? '' : 's'} · model${models.length === 1 ? '' : 's'}: ` +
      `${models.map(esc).join(', ')} · data: ${datasets.map(esc).join(', ')} · generated ${esc(generated)}</div>`,
  );
  body.push('<nav><a href="#overview">Overview</a>');
  if (comparison.length) body.push('<a href="#baseline">Baseline</a>');
  for (const s of [...sections, ...stSlots, ...genSlots]) body.push(`<a href="#fam-${esc(s.family.id)}">${esc(s.family.title)}</a>`);
  body.push('<a href="#examples">Examples</a><a href="#definitions">Definitions</a></nav></header><main>');

  body.push('<section id="overview"><h2>Overview</h2>');
  if (opts.verdict) body.push(verdictHtml(opts.verdict));
  body.push('<p class="blurb">One card per attack family: its headline run’s numbers and what produced them.</p><div class="cards">');
  for (const s of sections) {
    for (const run of headlines(s.family, s.runs, groups, s.content.headline))
      body.push(cardHtml(s.family, run, s.runs.length, settingLabelsOf(reg, run.summary.recipe), s.content.card?.(run)));
  }
  for (const s of stSlots) {
    for (const run of s.runs)
      body.push(stressCardHtml(s.family, run, formatSettings(run.summary.settings ?? {}, true, settingLabelsOf(reg, run.summary.recipe))));
  }
  for (const s of genSlots) {
    for (const run of s.runs) {
      body.push(
        `<section class="card" data-family="${esc(s.family.id)}"><h3>${esc(s.family.title)}</h3><div class="sub">run: ` +
          `${esc(runLabel(run))} · ${run.summary.steps} steps · ${run.summary.n} generated</div>` +
          generatedTiles(
            run,
            reg.has(run.summary.recipe) ? { ...reg.get(run.summary.recipe).figures, ...reg.get(run.summary.recipe).metrics } : undefined,
          ) +
          `<dl class="meta"><dt>model</dt><dd>${esc(displayPath(run.summary.model))}</dd><dt>seed</dt><dd>` +
          `${esc(String(run.summary.seed))}</dd><dt>settings</dt><dd>` +
          `${esc(formatSettings(run.summary.settings, true, settingLabelsOf(reg, run.summary.recipe)))}</dd></dl></section>`,
      );
    }
  }
  body.push('</div></section>');

  if (comparison.length) {
    body.push('<section id="baseline"><h2>Baseline comparison</h2>');
    body.push(
      `<p class="blurb">Each test’s headline run against the same test in the baseline (${esc(baselineModels(opts.baseline!))}). Δ in percentage points.</p>`,
    );
    body.push(comparisonTable(comparison));
    if (baselineChart) body.push(`<div class="charts">${figure(baselineChart, svgs[svgs.length - 1]!)}</div>`);
    body.push('</section>');
  }

  for (const s of sections) {
    body.push(`<section class="family" id="fam-${esc(s.family.id)}" data-family="${esc(s.family.id)}"><h2>${esc(s.family.title)}</h2>`);
    body.push(`<p class="blurb">${esc(s.family.blurb)}</p>`);
    for (const t of s.content.tables ?? []) body.push(tableHtml(t));
    if (s.content.charts.length) body.push(`<div class="charts">${s.content.charts.map((c) => figure(c, svgOf.get(c)!)).join('')}</div>`);
    for (const n of s.content.notes ?? []) body.push(`<p class="notes">${esc(withoutAbsolutePaths(n))}</p>`);
    body.push(runsTable(s.content.runs ?? s.runs));
    body.push('</section>');
  }

  for (const s of stSlots) {
    body.push(`<section class="family" id="fam-${esc(s.family.id)}" data-family="${esc(s.family.id)}"><h2>${esc(s.family.title)}</h2>`);
    body.push(`<p class="blurb">${esc(s.family.blurb)}</p>`);
    for (const t of s.content.tables) body.push(tableHtml(t));
    if (s.content.charts.length) body.push(`<div class="charts">${s.content.charts.map((c) => figure(c, svgOf.get(c)!)).join('')}</div>`);
    for (const n of s.content.notes ?? []) body.push(`<p class="notes">${esc(withoutAbsolutePaths(n))}</p>`);
    body.push(stressRunsTable(s.runs));
    body.push('</section>');
  }

  for (const s of genSlots) {
    body.push(`<section class="family" id="fam-${esc(s.family.id)}" data-family="${esc(s.family.id)}"><h2>${esc(s.family.title)}</h2>`);
    body.push(`<p class="blurb">${esc(s.family.blurb)}</p>`);
    for (const t of s.tables) body.push(tableHtml(t));
    if (s.charts.length) body.push(`<div class="charts">${s.charts.map((c) => figure(c, svgOf.get(c)!)).join('')}</div>`);
    for (const n of s.notes) body.push(`<p class="notes">${esc(withoutAbsolutePaths(n))}</p>`);
    if (!s.family.hideRecords) for (const run of s.runs) body.push(`<h4>${esc(runLabel(run))}: first records</h4>${sampleTable(run)}`);
    body.push('</section>');
  }

  body.push('<section id="examples"><h2>Example browser</h2>');
  body.push(
    '<p class="blurb">Original vs perturbed text; each edit is highlighted and labelled with its type (hover for ' +
      'details). Red edge: the attack changed the prediction.</p>',
  );
  if (data.examples.some((e) => e.q)) body.push(QA_LEGEND);
  body.push(
    '<div class="filters">' +
      '<label>family <select id="eb-family"><option value="">all</option></select></label>' +
      '<label>edit type <select id="eb-type"><option value="">all</option></select></label>' +
      `<label>outcome <select id="eb-status"><option value="">all</option>${outcomes(stressRuns.length > 0)}</select></label>` +
      '<label>run <select id="eb-run"><option value="">all</option></select></label>' +
      '<label>search <input id="eb-search" type="search" placeholder="text, id or label"></label>' +
      '<span class="spacer"></span><button id="eb-prev" type="button">‹ prev</button><span id="eb-page" class="notes">' +
      '</span><button id="eb-next" type="button">next ›</button>' +
      '</div><div id="eb-count"></div><div id="eb-list"></div>',
  );
  body.push('</section>');
  body.push(definitionsHtml());
  body.push('</main>');
  body.push(`<script type="application/json" id="report-data">${jsonForScript(data)}</script>`);
  body.push(`<script>${SCRIPT}</script>`);

  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${sha256(SCRIPT)}'`,
    `style-src 'sha256-${sha256(STYLE)}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body>` +
    body.join('\n') +
    '</body></html>\n'
  );
}

/** A family's section with the query-budget curve of its attack runs after its own charts (every family shows it alike). */
function withBudgetCurve(content: FamilySectionContent, runs: readonly LoadedRun[]): FamilySectionContent {
  const chart = budgetCurveChart(runs);
  return chart ? { ...content, charts: [...content.charts, chart] } : content;
}

/** The outcome filter's choices; with stress runs, each also names the stress outcome it covers. */
function outcomes(stress: boolean): string {
  const attack = ['attack succeeded', 'attack failed', 'skipped'];
  return attack.map((a, i) => `<option value="${i}">${esc(stress ? `${a} · ${STRESS_OUTCOMES[i]}` : a)}</option>`).join('');
}

/** One headline card per model × dataset in a family; each is the family's own pick among those runs. */
function headlines(
  family: ReportFamily,
  runs: readonly LoadedRun[],
  groups: readonly RunGroup[],
  first: LoadedRun | undefined,
): LoadedRun[] {
  const key = (r: LoadedRun): string => `${r.summary.model}\u0000${r.summary.dataset}`;
  const keys = [...new Set([...(first ? [key(first)] : []), ...runs.map(key)])];
  if (keys.length === 1) return [first ?? runs[0]!];
  return keys.map((k) => {
    const subset = runs.filter((r) => key(r) === k);
    if (first && key(first) === k) return first;
    const pick = family.section!(
      subset,
      groups.filter((g) => g.runs.some((r) => subset.includes(r))),
    ).headline;
    return pick ?? subset[0]!;
  });
}

function figure(c: ChartSpec, svg: string): string {
  return `<figure class="chart"><h4>${esc(c.title)}</h4>${svg}${c.caption ? `<figcaption>${esc(c.caption)}</figcaption>` : ''}</figure>`;
}

function grade(x: number | null, goodAbove: number, badBelow: number): string {
  if (x === null) return 'na';
  return x >= goodAbove ? 'good' : x < badBelow ? 'bad' : 'warn';
}

/** The card's four headline figures, each with its 95% interval and n under it when the run has them. */
/** A family's own card figures (CardTile): shares with their intervals, graded where a direction is better. */
function familyTiles(tiles: readonly CardTile[]): string {
  return (
    '<div class="metrics">' +
    tiles
      .map((t) => {
        const good = t.value === null || !t.better ? '' : grade(t.better === 'higher' ? t.value : 1 - t.value, 0.8, 0.5);
        return `<div class="m ${good}"><div class="v">${pct(t.value)}</div><div class="l">${esc(t.label)}</div>${ciHtml(t.interval)}</div>`;
      })
      .join('') +
    '</div>'
  );
}

function metricTiles(h: HeadlineMetrics, iv: ReturnType<typeof headlineIntervals> = {}): string {
  const tile = (v: string, label: string, cls = '', extra = ''): string =>
    `<div class="m ${cls}"><div class="v">${v}</div><div class="l">${esc(label)}</div>${extra}</div>`;
  return (
    '<div class="metrics">' +
    tile(pct(h.clean), `clean ${h.metric}`, '', ciHtml(iv.clean)) +
    tile(
      pct(h.attacked),
      `${h.metric} under attack`,
      '',
      `<div class="d">${esc(pts(diff(h.attacked, h.clean)))}</div>${ciHtml(iv.attacked)}`,
    ) +
    tile(
      pct(h.attack_success_rate),
      // A tagger's two shares are over different sentences (issue 34): the labels say which.
      h.metric === 'entity F1' ? 'attack success rate (of sentences with an entity right)' : 'attack success rate',
      grade(h.attack_success_rate === null ? null : 1 - h.attack_success_rate, 0.8, 0.5),
      ciHtml(iv.attack_success_rate),
    ) +
    tile(
      pct(h.stability),
      (h.metric === 'entity F1' ? 'stability (of sentences fully right)' : 'stability') + (iv.stability ? '' : ` (n=${h.stability_n})`),
      grade(h.stability, 0.9, 0.6),
      ciHtml(iv.stability),
    ) +
    '</div>'
  );
}

function cardHtml(family: ReportFamily, run: LoadedRun, nRuns: number, labels: Record<string, string>, tiles?: CardTile[]): string {
  const s = run.summary;
  return (
    `<section class="card" data-family="${esc(family.id)}"><h3>${esc(family.title)}</h3>` +
    `<div class="sub">headline run: ${esc(runLabel(run))}${nRuns > 1 ? ` · ${nRuns} runs in this family` : ''} · ${s.n} examples</div>` +
    (tiles ? familyTiles(tiles) : metricTiles(run.headline, headlineIntervals(run))) +
    '<dl class="meta">' +
    `<dt>model</dt><dd>${esc(displayPath(s.model))}</dd><dt>data</dt><dd>${esc(displayPath(s.dataset))}</dd><dt>seed</dt><dd>${esc(String(s.seed))}</dd>` +
    `<dt>settings</dt><dd>${esc(formatSettings(s.settings ?? {}, true, labels))}</dd>${queryMeta(s)}${llmMeta(s)}</dl></section>`
  );
}

/** What a successful attack cost in queries (attack runs since issue 33), with its interval, as a card row. */
function queryMeta(s: LoadedRun['summary']): string {
  if (s.queries_per_success === undefined) return '';
  const iv = s.intervals?.queries_per_success;
  const median = s.queries_per_success_median;
  return (
    `<dt>queries per success</dt><dd>${esc(withInterval(s.queries_per_success, iv, 'number'))}` +
    `${median === null || median === undefined ? '' : ` · median ${median}`}` +
    `${s.query_budget_exhausted ? ` · ${s.query_budget_exhausted} stopped by --max-queries (failed)` : ''}</dd>`
  );
}

/** Tokens, cost and unmappable answers of a run against a metered model (an LLM endpoint), as card rows. */
function llmMeta(s: LoadedRun['summary']): string {
  let out = '';
  if (s.usage) {
    out += `<dt>tokens</dt><dd>${s.usage.input_tokens.toLocaleString('en-US')} in · ${s.usage.output_tokens.toLocaleString('en-US')} out</dd>`;
    const spent = s.process.spent;
    const paid = spent
      ? ` · paid in the last process: ${spent.cost_usd === null ? 'n/a' : dollars(spent.cost_usd)} ` +
        `(${spent.requests} requests, ${s.process.disk_cache_hits ?? 0} answers from the query cache)`
      : '';
    out += `<dt>cost</dt><dd>${s.usage.cost_usd === null ? 'n/a (no prices given)' : dollars(s.usage.cost_usd)}${paid}</dd>`;
  }
  if (s.unmappable) {
    const u = s.unmappable;
    out +=
      `<dt>unmappable answers</dt><dd class="${u.answers ? 'warn' : ''}">${u.answers} in ${u.examples} ` +
      `example${u.examples === 1 ? '' : 's'}${u.clean ? `; ${u.clean} skipped (clean answer unmappable)` : ''}</dd>`;
  }
  return out;
}

function verdictHtml(v: Verdict): string {
  // Checks and verdicts written before statuses existed carry only `passed`.
  const status = (c: { passed: boolean; status?: string }): string => c.status ?? (c.passed ? 'pass' : 'fail');
  const failed = v.checks.filter((c) => status(c) === 'fail');
  const unsure = v.checks.filter((c) => status(c) === 'inconclusive');
  const overall = v.status ?? (v.passed ? 'pass' : 'fail');
  const head =
    v.checks.length === 0
      ? 'Gate: no thresholds set'
      : overall === 'pass'
        ? `Gate passed: all ${v.checks.length} checks hold`
        : overall === 'inconclusive'
          ? `Gate inconclusive: ${unsure.length} of ${v.checks.length} checks have too few examples to judge`
          : `Gate failed: ${failed.length} of ${v.checks.length} checks`;
  const mark: Record<string, string> = { pass: '✓', fail: '✗', inconclusive: '?' };
  const items = [...failed, ...unsure, ...v.checks.filter((c) => status(c) === 'pass')].map(
    // In words and units (CheckResult.text; verdicts written before it: the suite-terms message), the check as written on hover.
    (c) =>
      `<li class="${status(c) === 'inconclusive' ? 'skip' : status(c)}" title="${esc(c.expr)}">${mark[status(c)]} ${esc(c.text ?? c.message)}</li>`,
  );
  for (const sk of v.skipped ?? []) items.push(`<li class="skip">– ${esc(sk.test)}: not run (${esc(sk.reason)})</li>`);
  const names = v.checked_labels ?? v.checked?.map((m) => metricLabel(m));
  const checked = names?.length ? `<p class="gate-checked">Checked: ${names.map(esc).join(', ')}.</p>` : '';
  const warn =
    v.checks.length && v.robustness === false
      ? '<p class="gate-warn">⚠ No check reads a robustness metric (attack success, accuracy under attack, stability …): ' +
        'this gate says nothing about how the model holds up under attack.</p>'
      : '';
  const fallback = fallbackLines(v)
    .map((l) => `<p class="gate-warn" data-fallback>⚠ ${esc(withoutAbsolutePaths(l))}</p>`)
    .join('');
  const cls = overall === 'pass' ? 'pass' : 'fail';
  return `<div class="verdict ${cls}" id="verdict" data-status="${overall}"><h3>${esc(head)}</h3>${checked}${warn}${fallback}<ul>${items.join('')}</ul></div>`;
}

function definitionsHtml(): string {
  return (
    '<footer id="definitions"><dl>' +
    '<dt>clean metric / metric under attack</dt><dd>Accuracy (entity F1 for NER taggers) on the clean examples and ' +
    'on their perturbed versions; examples the model already got wrong count as wrong under attack.</dd>' +
    '<dt>attack success rate</dt><dd>Successful attacks over the examples the model got right before the attack (skipped examples excluded).</dd>' +
    '<dt>stability</dt><dd>Of the examples the model got right and that were attacked, the share whose prediction ' +
    'did not change at all under the perturbation (same label; for taggers the same tag sequence). Higher is ' +
    'better; for untargeted classification it is close to 1 − attack success rate.</dd>' +
    '<dt>words edited</dt><dd>Mean share of words changed in successful attacks.</dd>' +
    '</dl><p>Generated by textstress. This file is self-contained: charts are inline SVG (vega-lite), and the one ' +
    'script only drives the example browser.</p></footer>'
  );
}
