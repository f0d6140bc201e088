/**
 * Stress runs in the report: a headline card per run (original accuracy, the lowest test accuracy, the largest
 * reduction), the family's section (its tables and charts; a generic one for recipes without their own), a runs
 * table, and every generated case of the sampled examples in the example browser, highlighted against the
 * original text it was made from.
 */
import type { StressCaseResult, StressResult } from '../../core/stress-suite.ts';
import { accuracyPerTestChart, stressTestsTable } from '../../recipes/report/stress-per-test.ts';
import type { Edit } from '../../text/edits.ts';
import { NA, pct } from '../../util/format.ts';
import { fewClass } from './intervals.ts';
import { escapeHtml as esc } from './escape.ts';
import { displayPath, withoutAbsolutePaths } from './paths.ts';
import { addFamily, shorten, type BrowserData, type BrowserExample } from './examples.ts';
import { textSegments } from './highlight.ts';
import { goldTexts, qaCard } from './qa-view.ts';
import type { ExampleResult } from '../../core/result.ts';
import type { ReportFamily, ReportSections, ReportTable, RunGroup, StressRun, StressSectionContent } from './types.ts';
import { sectionFinder } from './families/index.ts';

/** A family's stress runs and what its section shows. */
export interface StressSlot {
  family: ReportFamily;
  runs: StressRun[];
  content: StressSectionContent;
}

/** Groups stress runs by their recipe's section (or a generic one per recipe), with their section content. */
export function stressSlots(groups: readonly RunGroup[], sections: ReportSections): StressSlot[] {
  const slots: StressSlot[] = [];
  const find = sectionFinder(sections, (f) => f.stressSection !== undefined, genericStressFamily);
  for (const run of groups.flatMap((g) => g.stress ?? [])) {
    const family = find(run.summary.recipe);
    let slot = slots.find((s) => s.family.id === family.id);
    if (!slot) slots.push((slot = { family, runs: [], content: { tables: [], charts: [] } }));
    slot.runs.push(run);
  }
  for (const slot of slots) slot.content = slot.family.stressSection?.(slot.runs) ?? { tables: [], charts: [] };
  return slots;
}

/** The section of a stress recipe with no family of its own: its tests table and the accuracy chart. */
export function genericStressFamily(recipe: string): ReportFamily {
  return {
    id: `stress-${recipe}`,
    title: `Stress suite “${recipe}”`,
    blurb: `Runs of the ${recipe} stress suite: accuracy per test and its reduction from the original accuracy on the same examples.`,
    stressSection: (runs) => ({ tables: runs.map((r) => stressTestsTable(r.summary)), charts: [accuracyPerTestChart(runs)] }),
  };
}

const tile = (v: string, label: string, sub = ''): string =>
  `<div class="m"><div class="v">${esc(v)}</div><div class="l">${esc(label)}</div>${sub ? `<div class="d">${esc(sub)}</div>` : ''}</div>`;

/** The headline card of a stress run. */
export function stressCardHtml(family: ReportFamily, run: StressRun, settings: string): string {
  const s = run.summary;
  return (
    `<section class="card" data-family="${esc(family.id)}"><h3>${esc(family.title)}</h3>` +
    `<div class="sub">run: ${esc(run.name)} · ${s.n} examples · ${s.cases} cases</div>` +
    '<div class="metrics">' +
    tile(pct(s.original.accuracy), 'original accuracy') +
    tile(s.worst ? pct(s.worst.accuracy) : NA, 'lowest test accuracy', s.worst?.test ?? '') +
    tile(s.max_reduction ? pct(s.max_reduction.reduction) : NA, 'largest reduction', s.max_reduction?.test ?? '') +
    tile(String(Object.keys(s.tests).length), 'tests') +
    '</div><dl class="meta">' +
    `<dt>model</dt><dd>${esc(displayPath(s.model))}</dd><dt>data</dt><dd>${esc(displayPath(s.dataset))}</dd><dt>seed</dt><dd>${esc(String(s.seed))}</dd>` +
    `<dt>settings</dt><dd>${esc(settings)}</dd></dl></section>`
  );
}

/** A family's table, every cell escaped. */
/** A cell that reads as a figure (12, 61.2%, −3.1 pts, 0.9975, n/a, 45.0% [38–52] n=120): right-aligned, in tabular digits. */
const FIGURE = /^(?:[−+-]?[\d.,]+\s*(?:%|pts|s|×)?(?:\s*\[[^\]]*\])?(?:\s*n=\d+)?(?:\s*\([^)]*\))?|n\/a|—|-)$/;

export function tableHtml(t: ReportTable): string {
  // Figures right, words (sentences, names, tests) left: a column is numeric when every filled cell is a figure.
  const numeric = t.head.map((_, i) => {
    const filled = t.rows.map((r) => (r[i] ?? '').trim()).filter((c) => c !== '');
    return i > 0 && filled.length > 0 && filled.every((c) => FIGURE.test(c) || fewClass(c) !== '');
  });
  const head = t.head.map((h, i) => `<th${numeric[i] ? ' class="n"' : ''}>${esc(h)}</th>`).join('');
  // A cell whose figure rests on too few examples (its text says so, see metrics/show.ts) is marked.
  const cell = (c: string, i: number): string => {
    const cls = [numeric[i] ? 'n' : '', fewClass(c).trim()].filter(Boolean).join(' ');
    return `<td${cls ? ` class="${cls}"` : ''}>${esc(withoutAbsolutePaths(c))}</td>`;
  };
  const rows = t.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('');
  return (
    `<h4>${esc(t.title)}</h4><div class="scroll"><table class="runs stress"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>` +
    (t.caption ? `<p class="notes">${esc(withoutAbsolutePaths(t.caption))}</p>` : '')
  );
}

/** One row per stress run: what ran, its size and headline numbers. */
export function stressRunsTable(runs: readonly StressRun[]): string {
  return tableHtml({
    title: 'Runs',
    head: ['run', 'model', 'data', 'seed', 'examples', 'cases', 'original', 'lowest test', 'largest reduction', 'wall'],
    rows: runs.map((r) => {
      const s = r.summary;
      return [
        r.name,
        displayPath(s.model),
        displayPath(s.dataset),
        String(s.seed),
        String(s.n),
        String(s.cases),
        pct(s.original.accuracy),
        s.worst ? `${pct(s.worst.accuracy)} (${s.worst.test})` : NA,
        s.max_reduction ? `${pct(s.max_reduction.reduction)} (${s.max_reduction.test})` : NA,
        `${s.wall_seconds.toFixed(1)} s`,
      ];
    }),
  });
}

/** The badge of a stress case by status (0, 1, 2: the attacks' succeeded, failed, skipped). */
export const STRESS_OUTCOMES = ['broken by the test', 'held', 'wrong before and after'] as const;

/**
 * Adds the cases of the sampled stress results to the example browser, at most `quota` cases per run: each case
 * is one entry, its changed field drawn against the original text it was made from. Status 0: the model was right
 * on the original and wrong on the case; 1: right on the case; 2: wrong on both.
 */
export function addStressExamples(data: BrowserData, slots: readonly StressSlot[], quota: number): void {
  const typeIds = new Map(data.types.map((t, i) => [t.id, i]));
  for (const slot of slots) {
    const { fi, typeIndex } = addFamily(data, slot.family, typeIds);
    for (const run of slot.runs) {
      const ri = data.runs.push({ label: run.name, family: fi }) - 1;
      data.total += run.summary.cases;
      let left = quota;
      for (const r of run.sample) {
        for (const c of r.cases) {
          if (left-- <= 0) break;
          data.examples.push(caseEntry(r, c, ri, typeIndex));
        }
      }
    }
  }
}

const show = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
const round = (x: number | undefined): number => Math.round((x ?? 0) * 1000) / 1000;

function caseEntry(r: StressResult, c: StressCaseResult, ri: number, typeIndex: (t: string) => number): BrowserExample {
  const edits: Edit[] = c.edits ?? [];
  const fields = Object.keys(c.text);
  const field = edits[0]?.field ?? fields.find((f) => c.text[f] !== r.original.text[f]) ?? fields[0] ?? 'text';
  const before = r.original.text[c.from?.[field] ?? field] ?? '';
  const after = c.text[field] ?? '';
  const type = edits[0]?.type ?? `stress:${c.test}`;
  const s: 0 | 1 | 2 = c.correct ? 1 : r.original.correct ? 0 : 2;
  return {
    r: ri,
    id: `${withoutAbsolutePaths(r.source ?? r.id)} · ${c.variant}`,
    s,
    k: STRESS_OUTCOMES[s],
    g: show(c.gold),
    b: [r.original.prediction, round(r.original.confidence)],
    a: [c.prediction, round(c.confidence)],
    t: [typeIndex(type)],
    f: c.from?.[field] ? `${field} (from the ${c.from[field]})` : field,
    x: shorten(
      textSegments(
        before,
        after,
        edits.filter((e) => e.field === field),
        typeIndex,
      ),
    ),
    ...(goldTexts(c.gold).length ? qaEntry(r, c, typeIndex) : {}),
  };
}

/** A QA case as the attacks' QA card: the question, and the context before and after with the gold spans of each side. */
function qaEntry(r: StressResult, c: StressCaseResult, typeIndex: (t: string) => number): Pick<BrowserExample, 'x' | 'q' | 'g'> {
  const side = (p: { prediction: string; metrics?: Record<string, number> }) => ({ label: p.prediction, score: 0, ...(p.metrics ?? {}) });
  // Only what qaCard reads: texts, golds, edits and each side's EM/F1 (stress results keep no answer offsets).
  const view = {
    gold: r.original.gold,
    perturbed_gold: c.perturbed_gold,
    original: r.original.text,
    perturbed: c.text,
    original_prediction: side(r.original),
    perturbed_prediction: side(c),
    edits: c.edits ?? [],
  };
  const { x, q } = qaCard(view as unknown as ExampleResult, typeIndex);
  return { x: shorten(x), q, g: q.ga.join(' | ') };
}
