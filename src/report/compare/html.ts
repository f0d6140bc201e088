/**
 * The comparison page (compare.html) and the transfer heat map: self-contained, static HTML (no script, nothing
 * fetched); every string from a run goes through the report's escaper.
 */
import { escapeHtml as esc } from '../html/escape.ts';
import { displayPath } from '../html/paths.ts';
import { tooWide, type Interval } from '../../stats/index.ts';
import { forDisplay, type Comparison, type ChangedExample, type MetricComparison } from './compare.ts';
import type { ExampleView } from './load.ts';
import type { TransferMatrix } from './transfer.ts';

/** A rate with its interval: "82.5% [67.8, 91.3]"; "n/a" over nothing. */
export function ivText(iv: Interval, signed = false): string {
  if (iv.value === null) return 'n/a';
  const f = (x: number): string => (signed && x > 0 ? '+' : '') + (100 * x).toFixed(1);
  return `${f(iv.value)}${signed ? ' pts' : '%'} [${f(iv.low!)}, ${f(iv.high!)}]`;
}

const pText = (p: number | null): string => (p === null ? 'n/a' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330}table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #d5d9e0;padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:#f1f3f6}
.reg{background:#fde2e1}.imp{background:#e0f4e4}.wide{color:#9a6700}.meta{color:#555}.ex td{max-width:32rem;white-space:pre-wrap}
.heat td.cell{text-align:center;min-width:7rem}`;

/** A whole page around the given body. */
export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<style>${STYLE}</style></head><body>${body}</body></html>\n`
  );
}

function metricRow(m: MetricComparison): string {
  const cls = m.regression ? 'reg' : m.improvement ? 'imp' : '';
  const verdict = m.regression ? 'worse in B' : m.improvement ? 'better in B' : m.p === null ? 'not tested' : 'no significant difference';
  const wide = (iv: Interval): string =>
    iv.value !== null && tooWide(iv)
      ? ` <span class="wide" title="interval wider than 20 points">too few examples (n = ${iv.n})</span>`
      : '';
  const counts = m.counts ? ` (discordant: ${m.counts.onlyA} only A, ${m.counts.onlyB} only B)` : '';
  return (
    `<tr class="${cls}"><td>${esc(m.label ?? m.metric)}</td><td>${esc(ivText(m.a))}${wide(m.a)}<br><span class="meta">n = ${m.a.n}</span></td>` +
    `<td>${esc(ivText(m.b))}${wide(m.b)}<br><span class="meta">n = ${m.b.n}</span></td>` +
    `<td>${esc(ivText(m.diff, true))}<br><span class="meta">paired n = ${m.diff.n}</span></td>` +
    `<td>${m.test === 'mcnemar' ? 'exact McNemar' : 'paired bootstrap'}${esc(counts)}</td>` +
    `<td>${pText(m.p)}</td><td>${pText(m.p_holm)}</td><td>${esc(verdict)}</td></tr>`
  );
}

const fields = (r: Record<string, string | string[]>): string =>
  Object.entries(r)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : v}`)
    .join('\n');

function exampleRows(xs: ChangedExample[]): string {
  return xs
    .map(({ id, a, b }) => {
      const va = a as ExampleView | undefined;
      const vb = b as ExampleView | undefined;
      const side = (v: ExampleView | undefined): string =>
        v
          ? `<td>${esc(fields(v.perturbed))}</td><td>${esc(v.clean_answer)} → ${esc(v.attacked_answer)} (${esc(v.status)})</td>`
          : '<td colspan="2">n/a</td>';
      const gold = JSON.stringify(va?.gold ?? vb?.gold ?? null);
      return `<tr><td>${esc(id)}</td><td>${esc(va ? fields(va.original) : '')}</td><td>${esc(gold)}</td>${side(va)}${side(vb)}</tr>`;
    })
    .join('');
}

function examplesTable(title: string, xs: ChangedExample[], total: number): string {
  const head =
    '<tr><th>id</th><th>original</th><th>gold</th><th>A: attacked text</th><th>A: clean → attacked answer</th>' +
    '<th>B: attacked text</th><th>B: clean → attacked answer</th></tr>';
  const shown = xs.length < total ? ` (first ${xs.length} shown)` : '';
  return `<h2>${esc(title)}: ${total}${shown}</h2>${xs.length ? `<table class="ex">${head}${exampleRows(xs)}</table>` : '<p>None.</p>'}`;
}

/** compare.html's query-budget section: the curves' chart (pre-rendered SVG, when given) and the table per budget. */
function budgetHtml(c: Comparison, svg?: string): string {
  const q = c.query_budget;
  if (!q) return '';
  const qs = q.queries_per_success;
  const num = (iv: Interval, signed = false): string =>
    iv.value === null
      ? 'n/a'
      : `${signed && iv.value > 0 ? '+' : ''}${iv.value.toFixed(1)}${iv.low === null ? '' : ` [${iv.low.toFixed(1)}, ${iv.high!.toFixed(1)}]`}`;
  const rows = q.budgets.map(
    (r) =>
      `<tr><td>≤ ${r.budget}</td><td>${esc(ivText(r.a))}<br><span class="meta">n = ${r.a.n}</span></td>` +
      `<td>${esc(ivText(r.b))}<br><span class="meta">n = ${r.b.n}</span></td><td>${esc(ivText(r.diff, true))}<br>` +
      `<span class="meta">paired n = ${r.diff.n}</span></td><td>exact McNemar (${r.counts.onlyA} only A, ${r.counts.onlyB} only B)</td>` +
      `<td>${pText(r.p)}</td><td>${pText(r.p_holm)}</td></tr>`,
  );
  return [
    '<h2>Attack success by query budget</h2>',
    '<p class="meta">Of the attacked examples (the model right before the attack), the share broken within at most that many ' +
      'queries per example (distinct model inputs, the clean one included). Δ over the examples both runs attacked; Holm over ' +
      'the budgets of this table (a family apart from the metrics above). An example a run’s --max-queries stopped is a failed attack.</p>',
    svg ? `<figure>${svg}</figure>` : '',
    '<table><tr><th>budget</th><th>A</th><th>B</th><th>Δ (B − A)</th><th>test</th><th>p</th><th>p (Holm)</th></tr>',
    ...rows,
    '</table>',
    `<p>Queries per successful attack: A ${esc(num(qs.a))} (n = ${qs.a.n}), B ${esc(num(qs.b))} (n = ${qs.b.n}); ` +
      `B − A on the ${qs.diff.n} examples both runs broke: ${esc(num(qs.diff, true))}, paired bootstrap p = ${pText(qs.p)}.</p>`,
  ].join('\n');
}

/** compare.html for a comparison; `budgetSvg`: the query-budget chart, already rendered (see writeComparison). */
export function compareHtml(comparison: Comparison, budgetSvg?: string): string {
  // No absolute path on the page (it may be shared): folders, models and data as displayPath writes them.
  const c = forDisplay(comparison);
  const run = (label: string, r: Comparison['a']): string =>
    `<li><b>${label}</b>: ${esc(r.dir)} — ${esc(r.recipe)} on ${esc(r.model)}, data ${esc(r.dataset)}, seed ${r.seed}, ${r.n} examples</li>`;
  const differ = c.differ ?? [];
  const joined =
    c.joined.mode === 'same'
      ? `both runs hold the same ${c.joined.n} examples`
      : `compared on the ${c.joined.n} examples both hold (${c.joined.only_a} only in A, ${c.joined.only_b} only in B left out)`;
  const regressions = c.metrics.filter((m) => m.regression).map((m) => m.label ?? m.metric);
  const body = [
    '<h1>textstress compare</h1>',
    `<ul>${run('A', c.a)}${run('B', c.b)}</ul>`,
    differ.length
      ? `<table class="differ"><tr><th>what differs</th><th>A</th><th>B</th></tr>${differ
          .map((d) => `<tr><td>${esc(d.label)}</td><td>${esc(d.a)}</td><td>${esc(d.b)}</td></tr>`)
          .join('')}</table>`
      : '<p class="meta">The two runs have the same recipe, model, data, seed and settings.</p>',
    `<p class="meta">Joined per example by id: ${esc(joined)}. 95% intervals (Wilson for rates, seeded bootstrap for F1 and ` +
      `differences; seed ${esc(String(c.seed))}). Paired tests: exact McNemar on per-example outcomes, paired bootstrap for F1; ` +
      `p adjusted by Holm over the ${c.metrics.filter((m) => m.p !== null).length} metrics tested; α = ${c.alpha}. ` +
      `Δ = B − A.</p>`,
    `<p><b>${regressions.length ? `Significant regression in B: ${esc(regressions.join(', '))}` : 'No significant regression in B.'}</b></p>`,
    '<table><tr><th>metric</th><th>A</th><th>B</th><th>Δ (B − A)</th><th>test</th><th>p</th><th>p (Holm)</th><th>verdict</th></tr>',
    ...c.metrics.map(metricRow),
    '</table>',
    budgetHtml(c, budgetSvg),
    examplesTable('Newly broke (right under attack in A, wrong in B)', c.newly_broke, c.newly_broke_n),
    examplesTable('Newly held (wrong under attack in A, right in B)', c.newly_held, c.newly_held_n),
  ];
  return page('textstress compare', body.join('\n'));
}

/** The transfer matrix as a heat map: rows the runs, columns the models, each cell coloured by its rate. */
export function transferHtml(t: TransferMatrix): string {
  const shade = (x: number | null): string => (x === null ? '#eee' : `hsl(${Math.round(120 * (1 - x))} 70% ${Math.round(92 - 30 * x)}%)`);
  const head = `<tr><th>adversarial examples of</th>${t.models.map((m) => `<th>${esc(m)}</th>`).join('')}</tr>`;
  const rows = t.rows.map(
    (r) =>
      `<tr><th>${esc(r.run.recipe)} on ${esc(displayPath(r.run.model))}<br><span class="meta">${esc(displayPath(r.run.dir))}</span></th>` +
      r.cells
        .map(
          (c) =>
            `<td class="cell" style="background:${shade(c.rate.value)}">${esc(ivText(c.rate))}<br><span class="meta">${c.fooled} / ${c.clean_correct}` +
            ` (of ${c.adversarial} adversarial)${c.rate.value !== null && tooWide(c.rate) ? ' · too few examples' : ''}</span></td>`,
        )
        .join('') +
      '</tr>',
  );
  return page(
    'textstress transfer',
    `<h1>textstress transfer</h1><p class="meta">${esc(t.definition)}</p><table class="heat">${head}${rows.join('')}</table>`,
  );
}
