/**
 * What the terminal shows for an attack-shaped run (attacks and probes): the summary as a boxed table, a few
 * successful attacks spelled out, where the files are; or the recipe's own text (e.g. the entity paper's Table 3).
 */
import { join } from 'node:path';
import type { Prediction } from '../../core/goals/index.ts';
import { goldTexts, isQaResult, type ExampleResult } from '../../core/result.ts';
import type { RunSummary } from '../../metrics/summary.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { RESULTS_FILE, SUMMARY_FILE } from '../../runner/per-example.ts';
import { NA, pct } from '../../util/format.ts';
import { bounds, withInterval } from '../../metrics/show.ts';
import { TEXTATTACK_NOTE, textAttackOf, textAttackTable } from '../../metrics/textattack.ts';
import { resourceLines, resourcesOf } from '../../metrics/resources.ts';
import { budgetLine } from '../../metrics/budget.ts';
import { formatTable } from '../../util/table.ts';
import { terminalSafe } from '../../util/terminal.ts';
import type { Printed } from '../types.ts';
import { emptyRunWarnings } from '../print.ts';

/** The terminal's text for a finished attack-shaped run in `dir`; `extra` lines follow the results' paths. */
export async function printAttackRun(
  run: { dir: string; summary: RunSummary; text?: string },
  opts: { json: boolean },
  extra: string[] = [],
  kind: { probe?: boolean } = {},
): Promise<Printed> {
  const { failed, warnings } = emptyRunWarnings(run.summary, kind);
  if (opts.json) return { text: JSON.stringify(run.summary, null, 2), warnings, failed };
  const parts: string[] = [];
  if (run.text !== undefined) parts.push(run.text);
  else {
    parts.push(summaryTable(run.summary));
    const ta = textAttackOf(run.summary.details);
    if (ta) parts.push(textAttackTable(ta), TEXTATTACK_NOTE);
    const resources = resourcesOf(run.summary.details);
    if (resources) parts.push(...resourceLines(resources));
    const ex = exampleLines(await firstSuccesses(join(run.dir, RESULTS_FILE), 3));
    if (ex) parts.push(ex);
  }
  parts.push(`Results: ${join(run.dir, SUMMARY_FILE)}, ${join(run.dir, RESULTS_FILE)}`, ...extra);
  return { text: parts.join('\n'), warnings, failed };
}

/** The first n successful attacks of a results file, read until found. */
async function firstSuccesses(path: string, n: number): Promise<ExampleResult[]> {
  const out: ExampleResult[] = [];
  for await (const r of readResults(path)) {
    if (r.status !== 'succeeded') continue;
    out.push(r);
    if (out.length >= n) break;
  }
  return out;
}

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
  // Each figure with its 95% interval and n (runs written before intervals: the bare figure).
  const iv = s.intervals ?? {};
  if (qa) {
    // SQuAD reports EM/F1 in percent.
    rows.push(
      ['clean EM', withInterval(s.clean_em, iv.clean_em)],
      ['clean F1', withInterval(s.clean_f1, iv.clean_f1)],
      ['EM under attack', withInterval(s.attacked_em, iv.attacked_em)],
      ['F1 under attack', withInterval(s.attacked_f1, iv.attacked_f1)],
    );
  } else if (s.clean_f1 !== undefined && s.attacked_f1 !== undefined) {
    rows.push(
      ['clean entity F1', withInterval(s.clean_f1, iv.clean_f1, 'number', 3)],
      ['entity F1 under attack', withInterval(s.attacked_f1, iv.attacked_f1, 'number', 3)],
    );
  }
  // For taggers "accuracy" is whole-sentence exact match (every entity right), for QA an answer overlapping a gold one.
  const acc = qa ? 'answers with F1 > 0' : s.clean_f1 !== undefined ? 'sentences fully right' : 'accuracy';
  // A tagger's success rate and stability are over different sentences (issue 34): the labels say which.
  const tagger = !qa && s.clean_f1 !== undefined;
  rows.push(
    [`clean ${acc}`, withInterval(s.clean_accuracy, iv.clean_accuracy)],
    [`${acc} under attack`, withInterval(s.attacked_accuracy, iv.attacked_accuracy)],
    [
      tagger ? 'attack success rate (of sentences with an entity right)' : 'attack success rate',
      withInterval(s.attack_success_rate, iv.attack_success_rate),
    ],
    [tagger ? 'stability (of sentences fully right)' : 'stability', withInterval(s.stability, iv.stability)],
    ['mean % words perturbed', withInterval(s.mean_perturbed_word_pct, iv.mean_perturbed_word_pct, 'percent')],
    ['mean queries / example', withInterval(s.mean_queries, iv.mean_queries, 'number')],
    ...queryBudgetRows(s),
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
 * The query-budget view of an attack run (absent in probes and older runs): queries per successful attack (mean and
 * median, with intervals) and attack success within a few budgets up to the run's maximum.
 */
function queryBudgetRows(s: RunSummary): [string, string][] {
  if (s.success_by_budget === undefined) return [];
  const iv = s.intervals ?? {};
  const median =
    s.queries_per_success_median === null || s.queries_per_success_median === undefined
      ? ''
      : `; median ${s.queries_per_success_median}${iv.queries_per_success_median ? ` ${bounds(iv.queries_per_success_median, 'number', 0)}` : ''}`;
  return [
    ['queries per successful attack', withInterval(s.queries_per_success ?? null, iv.queries_per_success, 'number') + median],
    [`success within a query budget${s.query_budget_exhausted ? ' (budget-stopped = failed)' : ''}`, budgetLine(s.success_by_budget)],
  ];
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
        ? `  ${terminalSafe(r.id)}: answer ${answer(r.original_prediction)} → ${answer(r.perturbed_prediction)}`
        : `  ${terminalSafe(r.id)}: ${terminalSafe(r.original_prediction.label)} (${r.original_prediction.score.toFixed(2)}) → ` +
            `${terminalSafe(r.perturbed_prediction.label)} (${r.perturbed_prediction.score.toFixed(2)})`,
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
      `    edits:  ${terminalSafe(r.edits.map((e) => `${e.before}→${e.after} [${e.type}]`).join(', '))}`,
    );
  }
  return out.join('\n');
}

/** A QA answer with its scores: “text” (EM 1, F1 1.00). */
function answer(p: Prediction): string {
  const f1 = p.f1 === undefined ? NA : p.f1.toFixed(2);
  return `${p.label ? `“${truncate(p.label, 80)}”` : '(no answer)'} (EM ${p.em ?? NA}, F1 ${f1})`;
}

/** A field of data on one terminal line: control characters shown (terminalSafe), cut at `n` characters. */
function truncate(s: string, n = 160): string {
  const safe = terminalSafe(s);
  return safe.length > n ? `${safe.slice(0, n - 1)}…` : safe;
}
