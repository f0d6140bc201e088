import type { ExampleResult } from '../../core/result.ts';
import { textSegments, tokenSegments, type Segment } from './highlight.ts';
import { isQaResult, qaCard, type QaCard } from './qa-view.ts';
import type { LoadedRun, ReportFamily } from './types.ts';
import { runLabel } from '../../recipes/report/charts.ts';
import { withoutAbsolutePaths } from './paths.ts';

/** One example as the page's script draws it (short keys: the data island is the bulk of the file). */
export interface BrowserExample {
  /** Index into runs. */
  r: number;
  id: string;
  /** 0 succeeded, 1 failed, 2 skipped. */
  s: 0 | 1 | 2;
  /** Gold label (or tags), as text. */
  g: string;
  /** Prediction and score before / after. */
  b: [string, number];
  a: [string, number];
  /** Edit types (indices into types). */
  t: number[];
  /** The perturbed field, when it is not "text". */
  f?: string;
  /** The edited field's text (QA: the question). */
  x: Segment[];
  /** QA: the context with the answer spans before and after, the gold answers, EM/F1. */
  q?: QaCard;
  /** Skip reason. */
  why?: string;
  /** The outcome badge's text, when not the attack's (stress cases: "broken by the test", …). */
  k?: string;
  /** Taggers: per token the words before/after, the gold tags and the predicted tags before and after (a window of them). */
  tg?: { w: string[]; pw: string[]; g: string[]; b: string[]; a: string[]; from: number };
}

export interface BrowserData {
  families: { id: string; title: string }[];
  runs: { label: string; family: number }[];
  types: { id: string; label: string }[];
  examples: BrowserExample[];
  /** Examples in the runs, before sampling. */
  total: number;
}

const STATUS = { succeeded: 0, failed: 1, skipped: 2 } as const;
const KEEP = 160;

/**
 * Collects the example browser's data. Runs larger than their share of `maxExamples` are sampled (successful
 * attacks first, evenly spaced), and long unchanged stretches of text are shortened around the edits, so that
 * the report stays small for any run size.
 */
export function browserData(slots: readonly { family: ReportFamily; runs: LoadedRun[] }[], maxExamples: number): BrowserData {
  const data: BrowserData = { families: [], runs: [], types: [], examples: [], total: 0 };
  const typeIds = new Map<string, number>();
  const allRuns = slots.flatMap((s) => s.runs);
  const quota = Math.max(20, Math.floor(maxExamples / Math.max(1, allRuns.length)));
  for (const slot of slots) {
    const { fi, typeIndex } = addFamily(data, slot.family, typeIds);
    for (const run of slot.runs) {
      const ri = data.runs.push({ label: runLabel(run), family: fi }) - 1;
      data.total += run.profile.examples;
      for (const r of sample(run.results, quota)) data.examples.push(toBrowser(r, ri, typeIndex));
    }
  }
  return data;
}

/**
 * Adds a family to the browser's data: its index, and the index of an edit type in the shared type list (added,
 * with the family's label for it, on first use; `typeIds` remembers them across families).
 */
export function addFamily(
  data: BrowserData,
  family: ReportFamily,
  typeIds: Map<string, number>,
): { fi: number; typeIndex: (t: string) => number } {
  const fi = data.families.push({ id: family.id, title: family.title }) - 1;
  const typeIndex = (t: string): number => {
    let i = typeIds.get(t);
    if (i === undefined) {
      i = data.types.push({ id: t, label: family.editTypeLabel?.(t) ?? t }) - 1;
      typeIds.set(t, i);
    }
    return i;
  };
  return { fi, typeIndex };
}

function sample(results: readonly ExampleResult[], quota: number): ExampleResult[] {
  if (results.length <= quota) return [...results];
  const wins = results.filter((r) => r.status === 'succeeded');
  const rest = results.filter((r) => r.status !== 'succeeded');
  const nWins = Math.min(wins.length, Math.max(Math.ceil(quota * 0.6), quota - rest.length));
  const picked = new Set([...spaced(wins, nWins), ...spaced(rest, quota - nWins)]);
  return results.filter((r) => picked.has(r));
}

function spaced<T>(xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(xs[Math.floor((i * xs.length) / n)]!);
  return out;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
  return JSON.stringify(v) ?? '';
}

function toBrowser(r: ExampleResult, ri: number, typeIndex: (t: string) => number): BrowserExample {
  const base = {
    r: ri,
    id: withoutAbsolutePaths(r.source ?? r.id),
    s: STATUS[r.status] ?? 2,
    b: [r.original_prediction.label, round(r.original_prediction.score)] as [string, number],
    a: [r.perturbed_prediction.label, round(r.perturbed_prediction.score)] as [string, number],
    t: [...new Set(r.edits.map((e) => typeIndex(e.type)))],
  };
  const extra: { why?: string; k?: string; tg?: BrowserExample['tg'] } = r.skip_reason ? { why: clip(r.skip_reason, 200) } : {};
  // A probe has no attack: its badge says how many of the B variants changed the prediction.
  if (r.probe && r.status !== 'skipped')
    extra.k =
      r.probe.changed > 0 ? `prediction changed in ${r.probe.changed} of ${r.probe.variants}` : `stable over ${r.probe.variants} variants`;
  if (isQaResult(r)) {
    const { x, q } = qaCard(r, typeIndex);
    return { ...base, g: clip(q.ga.join(' | '), 300), x: shorten(x), q, ...extra };
  }
  // Compact results keep the texts of successful attacks only.
  const o = r.original[r.field] ?? '';
  const p = r.perturbed[r.field] ?? o;
  let segs: Segment[];
  const tags = tagRows(r, o, p);
  if (tags) extra.tg = tags;
  if (Array.isArray(o) && Array.isArray(p)) segs = tokenSegments(o, p, r.edits, typeIndex);
  else segs = textSegments(show(o), show(p), r.edits, typeIndex);
  return { ...base, g: clip(show(r.gold), 300), x: shorten(segs), ...(r.field !== 'text' ? { f: r.field } : {}), ...extra };
}

const TAG_WINDOW = 40;

/**
 * A tagger's tags to show beside its tokens: gold, predicted before and predicted after, over a window of at most
 * TAG_WINDOW tokens around the first edit (long sentences), so a reader sees which tags the edit changed.
 */
function tagRows(r: ExampleResult, o: unknown, p: unknown): BrowserExample['tg'] | undefined {
  const before = r.original_prediction.tags;
  const after = r.perturbed_prediction.tags;
  if (!Array.isArray(o) || !Array.isArray(p) || !before || !after || !Array.isArray(r.gold)) return undefined;
  const first = Math.min(...r.edits.map((e) => e.wordIndex), Number.MAX_SAFE_INTEGER);
  const n = Math.max(o.length, p.length);
  const from = n <= TAG_WINDOW || !Number.isFinite(first) ? 0 : Math.max(0, Math.min(first - 10, n - TAG_WINDOW));
  const cut = (xs: readonly unknown[]): string[] => xs.slice(from, from + TAG_WINDOW).map((x) => String(x));
  return { w: cut(o), pw: cut(p), g: cut(r.gold as unknown[]), b: cut(before), a: cut(after), from };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Keeps KEEP characters of unchanged text on each side of the edits. */
export function shorten(segs: Segment[]): Segment[] {
  return segs.map((s, i) => {
    if (typeof s !== 'string' || s.length <= 2 * KEEP + 20) return s;
    const first = i === 0;
    const last = i === segs.length - 1;
    if (first && last) return clip(s, 2 * KEEP);
    if (first) return `…${s.slice(-KEEP)}`;
    if (last) return `${s.slice(0, KEEP)}…`;
    return `${s.slice(0, KEEP)} … ${s.slice(-KEEP)}`;
  });
}
