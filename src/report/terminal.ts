import type { ExampleResult } from '../attack/result.ts';
import type { Prediction } from '../attack/goals/index.ts';
import type { StressSummary } from '../metrics/stress.ts';
import type { RunSummary } from '../runner/runner.ts';
import { goldTexts, isQaResult } from './html/qa-view.ts';

import { fixed, NA, pct } from '../util/format.ts';
import { formatGrid, formatTable } from '../util/table.ts';

export { formatGrid, formatTable };

/** A run summary as a boxed terminal table (accuracy, success rate, stability, queries, time). */
export function summaryTable(s: RunSummary): string {
  const rows: [string, string][] = [
    ['recipe', s.recipe],
    ['model', s.model],
    ['dataset', s.dataset],
    ['examples', String(s.n)],
    ['succeeded / failed / skipped', `${s.succeeded} / ${s.failed} / ${s.skipped}`],
  ];
  const qa = s.clean_em !== undefined;
  if (qa) {
    // SQuAD reports EM/F1 in percent.
    rows.push(
      ['clean EM / F1', `${pct(s.clean_em)} / ${pct(s.clean_f1)}`],
      ['EM / F1 under attack', `${pct(s.attacked_em)} / ${pct(s.attacked_f1)}`],
    );
  } else if (s.clean_f1 !== undefined && s.attacked_f1 !== undefined) {
    rows.push(['clean entity F1', fixed(s.clean_f1, 3)], ['entity F1 under attack', fixed(s.attacked_f1, 3)]);
  }
  // For taggers "accuracy" is whole-sentence exact match (every entity right), for QA an answer overlapping a gold one.
  const acc = qa ? 'answers with F1 > 0' : s.clean_f1 !== undefined ? 'sentences fully right' : 'accuracy';
  rows.push(
    [`clean ${acc}`, pct(s.clean_accuracy)],
    [`${acc} under attack`, pct(s.attacked_accuracy)],
    ['attack success rate', pct(s.attack_success_rate)],
    ['stability', pct(s.stability)],
    ['mean % words perturbed', s.mean_perturbed_word_pct === null ? NA : `${s.mean_perturbed_word_pct.toFixed(1)}%`],
    ['mean queries / example', fixed(s.mean_queries)],
    ['cache hit rate (own repeats / shared)', `${pct(s.cache_hit_rate)} / ${pct(s.process.cache_hit_rate)}`],
    ['wall time', `${s.wall_seconds.toFixed(1)} s`],
  );
  if (s.usage) {
    const cost = (x: number | null): string =>
      x === null ? 'n/a (no prices)' : x === 0 ? '$0' : `$${x < 0.01 ? x.toPrecision(3) : x.toFixed(4)}`;
    rows.push(
      ['tokens in / out', `${s.usage.input_tokens.toLocaleString('en-US')} / ${s.usage.output_tokens.toLocaleString('en-US')}`],
      ['cost of the run', cost(s.usage.cost_usd)],
    );
    if (s.process.spent) {
      rows.push([
        'paid now (requests, from cache)',
        `${cost(s.process.spent.cost_usd)} (${s.process.spent.requests}, ${s.process.disk_cache_hits ?? 0} from the query cache)`,
      ]);
    }
  }
  if (s.query_budget_exhausted) rows.push(['cut short by the query budget', String(s.query_budget_exhausted)]);
  if (s.unmappable)
    rows.push(['unmappable answers (examples)', `${s.unmappable.answers} (${s.unmappable.examples}; ${s.unmappable.clean} skipped)`]);
  if (s.skipped_rows) rows.push(['bad rows skipped', String(s.skipped_rows)]);
  if (s.replacement_chars) rows.push(['rows with U+FFFD (invalid UTF-8?)', String(s.replacement_chars.rows)]);
  return formatTable(rows, `textstress · ${s.recipe}`);
}

/**
 * A stress run as a grid: the original accuracy, then one row per test with its cases, accuracy, the original
 * accuracy on the same examples, the reduction from it, and the examples it did not apply to. Suites with a
 * layout of their own (NLI: the paper's Table 2) print that instead.
 */
export function stressTable(s: StressSummary): string {
  const rows = [['original', String(s.original.n), pct(s.original.accuracy), '', '', '']];
  for (const [test, t] of Object.entries(s.tests)) {
    rows.push([test, String(t.n), pct(t.accuracy), pct(t.original_accuracy), pct(t.reduction), String(t.not_applicable)]);
  }
  return [
    `textstress · ${s.recipe} · ${s.model} on ${s.dataset} · ${s.n} examples, ${s.cases} cases · ${s.wall_seconds.toFixed(1)} s`,
    formatGrid(['test', 'cases', 'accuracy', 'original (same examples)', 'reduction', 'not applicable'], rows),
  ].join('\n');
}

/** A few successful attacks, original → perturbed, with each edit spelled out. */
export function exampleLines(results: readonly ExampleResult[], max = 3): string {
  const shown = results.filter((r) => r.status === 'succeeded').slice(0, max);
  if (shown.length === 0) return '';
  const out = ['Examples of successful attacks:'];
  for (const r of shown) {
    const field = r.field;
    const before = r.original[field];
    const after = r.perturbed[field];
    const show = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join(' ') : (v ?? ''));
    const qa = isQaResult(r);
    out.push(
      qa
        ? `  ${r.id}: answer ${answer(r.original_prediction)} → ${answer(r.perturbed_prediction)}`
        : `  ${r.id}: ${r.original_prediction.label} (${r.original_prediction.score.toFixed(2)}) → ` +
            `${r.perturbed_prediction.label} (${r.perturbed_prediction.score.toFixed(2)})`,
      ...(qa
        ? [
            `    gold:   ${
              goldTexts(r.gold)
                .map((t) => `“${truncate(t, 80)}”`)
                .join(' | ') || NA
            }`,
          ]
        : []),
      `    before: ${truncate(show(before))}`,
      `    after:  ${truncate(show(after))}`,
      `    edits:  ${r.edits.map((e) => `${e.before}→${e.after} [${e.type}]`).join(', ')}`,
    );
  }
  return out.join('\n');
}

/** A QA answer with its scores: “text” (EM 1, F1 1.00). */
function answer(p: Prediction): string {
  const f1 = p.f1 === undefined ? NA : p.f1.toFixed(2);
  return `${p.label ? `“${truncate(p.label, 80)}”` : '(no answer)'} (EM ${p.em ?? NA}, F1 ${f1})`;
}

function truncate(s: string, n = 160): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** One run of a dry run: what it would send, from its summary (stand-in model; see standInModel). */
export interface DryRunRow {
  name: string;
  n: number;
  process: RunSummary['process'];
}

/**
 * What a dry run found, per run: examples, the requests the real run would send at most (every search run to its
 * end; answers already in the query cache left out), and their tokens and cost at most (prompts at ~4 bytes a
 * token, max_tokens out).
 */
export function dryRunTable(rows: readonly DryRunRow[]): string {
  const num = (x: number): string => x.toLocaleString('en-US');
  const money = (x: number | null | undefined): string =>
    x === null || x === undefined ? 'n/a' : `≤ $${x < 0.01 && x > 0 ? x.toPrecision(3) : x.toFixed(2)}`;
  const total = { n: 0, sent: 0, cached: 0, input: 0, output: 0, cost: 0 as number | null };
  const lines = rows.map((r) => {
    const p = r.process;
    const sent = p.model_inferences;
    total.n += r.n;
    total.sent += sent;
    total.cached += p.disk_cache_hits ?? 0;
    total.input += p.spent?.input_tokens ?? 0;
    total.output += p.spent?.output_tokens ?? 0;
    total.cost = total.cost === null || p.spent?.cost_usd == null ? null : total.cost + p.spent.cost_usd;
    return [
      r.name,
      num(r.n),
      `≤ ${num(sent)}`,
      num(p.disk_cache_hits ?? 0),
      p.spent ? `≤ ${num(p.spent.input_tokens)}` : '',
      p.spent ? `≤ ${num(p.spent.output_tokens)}` : '',
      p.spent ? money(p.spent.cost_usd) : '',
    ];
  });
  if (rows.length > 1)
    lines.push([
      'total',
      num(total.n),
      `≤ ${num(total.sent)}`,
      num(total.cached),
      `≤ ${num(total.input)}`,
      `≤ ${num(total.output)}`,
      money(total.cost),
    ]);
  const head = ['run', 'examples', 'requests', 'from cache', 'tokens in', 'tokens out', 'cost'];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    'Dry run: nothing was sent. Estimates that err high: no attack succeeds or is skipped, so every search runs to its end (1.1-1.5x the real requests on our runs); prompts at ~4 bytes a token, max_tokens out.',
    fmt(head),
    ...lines.map(fmt),
  ].join('\n');
}
