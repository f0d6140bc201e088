/**
 * The QA stress suite's table, for the terminal, summary.json and the report alike: the paper's Table 4 — EM and
 * F1 per test and, in brackets, the % reduction from the original EM/F1 on the same questions.
 */
import type { StressCell, StressMetrics, StressSummary } from '../../../metrics/stress-summary.ts';
import type { Interval } from '../../../stats/index.ts';
import type { QaIntervals, QaRowIntervals } from './intervals.ts';
import { NA, pct } from '../../../util/format.ts';
import { formatGrid } from '../../../util/table.ts';
import type { ReportTable } from '../../../recipes/report/types.ts';
import { accuracyWithReduction } from '../../../recipes/report/stress-per-test.ts';
import type { QaStressTest } from './settings.ts';

/** How each test is named in tables and charts (the adaptive rows get their base added, see {@link rowTitle}). */
export const QA_TEST_TITLES: Readonly<Record<QaStressTest, string>> = {
  addsent: 'AddSent',
  addonesent: 'AddOneSent',
  addany: 'AddAny',
  addcommon: 'AddCommon',
  'addany-adaptive': 'AddAny adaptive',
  'addcommon-adaptive': 'AddCommon adaptive',
  'noise-natural': 'noise: natural',
  'noise-swap': 'noise: swap',
  'noise-middle-random': 'noise: middle random',
  'noise-fully-random': 'noise: fully random',
  'noise-keyboard': 'noise: keyboard',
};

/** The rows that are the worst over alternative adversarial sets (one variant per set). */
export const WORST_OF_SETS: ReadonlySet<string> = new Set(['addany', 'addcommon']);

/** One alternative adversarial set of an AddAny / AddCommon row, scored on the row's questions. */
export interface SetRow {
  name: string;
  n: number;
  em: number | null;
  f1: number | null;
}

/** One row of Table 4: a test's questions, EM/F1, the original EM/F1 on the same questions, and the reductions. */
export interface Table4Row {
  test: string;
  /** The row's label: the paper's name, or for the adaptive rows what they are run on. */
  title?: string;
  /** Questions scored (one case each; AddAny/AddCommon: one case per set); 0 = n/a. */
  n: number;
  not_applicable: number;
  em: number | null;
  f1: number | null;
  original_em: number | null;
  original_f1: number | null;
  /** (original − test) / original; null over zero questions or a zero original. */
  em_reduction: number | null;
  f1_reduction: number | null;
  /** 95% intervals, each with its n: EM Wilson over the questions, F1 and the reductions a bootstrap over whole questions. */
  em_interval?: Interval;
  f1_interval?: Interval;
  em_reduction_interval?: Interval;
  f1_reduction_interval?: Interval;
  /** AddAny / AddCommon: every set used (the row is the worst, by F1 then EM), and those left out with why. */
  sets?: SetRow[];
  worst_set?: string | null;
  excluded?: ExcludedSet[];
}

/** A set left out of an AddAny / AddCommon row. */
export interface ExcludedSet {
  name: string;
  source: string;
  origin: string;
  why: string;
}

/** What the QA suite adds to summary.json (`details`). */
export interface QaDetails {
  /** The adversarial files used (null: not found or not asked for). */
  files: { addsent: string | null; addonesent: string | null };
  questions: 'all' | 'adversarial';
  adaptive_limit: number;
  /** The identity of the model under test (folder digest): what the AddAny / AddCommon rows leave out. */
  model_identity?: string;
  original: { n: number; em: number | null; f1: number | null; em_interval?: Interval; f1_interval?: Interval };
  table4: Table4Row[];
}

/** What the run knows beside the tallies: the sets left out of each AddAny / AddCommon row. */
export interface QaDetailsBase extends Omit<QaDetails, 'original' | 'table4'> {
  excluded?: Partial<Record<string, ExcludedSet[]>>;
}

/** The worst variant of a worst-of row: lowest F1, then lowest EM, then the first. */
function worstVariant(variants: Record<string, StressCell>): string | null {
  let worst: string | null = null;
  const f1 = (c: StressCell): number => c.metrics?.f1?.mean ?? Infinity;
  const em = (c: StressCell): number => c.metrics?.em?.mean ?? Infinity;
  for (const [name, c] of Object.entries(variants)) {
    if (c.n === 0) continue;
    const w = worst === null ? undefined : variants[worst]!;
    if (!w || f1(c) < f1(w) || (f1(c) === f1(w) && em(c) < em(w))) worst = name;
  }
  return worst;
}

/** The row's label: the paper's name; an adaptive row says it searched this model, on how many of which questions. */
export function rowTitle(test: string, n: number, adaptiveLimit: number | undefined): string {
  const name = QA_TEST_TITLES[test as QaStressTest] ?? test;
  if (!test.endsWith('-adaptive')) return name;
  return `${name} (this model; ${n} it answered of the first ${adaptiveLimit ?? '?'})`;
}

/** Table 4's rows from the tallies (each test's EM/F1 means and their originals on the same questions). */
export function table4Rows(m: StressMetrics, base?: Partial<QaDetailsBase>, iv?: QaIntervals): Table4Row[] {
  return Object.entries(m.tests).map(([test, t]) => {
    const worstOf = WORST_OF_SETS.has(test);
    const worst = worstOf && t.variants ? worstVariant(t.variants) : null;
    const cell: StressCell = worst ? t.variants![worst]! : t;
    const em = cell.metrics?.em;
    const f1 = cell.metrics?.f1;
    const row: Table4Row = {
      test,
      title: rowTitle(test, cell.n, base?.adaptive_limit),
      n: worstOf && !worst ? 0 : cell.n,
      not_applicable: t.not_applicable,
      em: em?.mean ?? null,
      f1: f1?.mean ?? null,
      original_em: em?.original ?? null,
      original_f1: f1?.original ?? null,
      em_reduction: em?.reduction ?? null,
      f1_reduction: f1?.reduction ?? null,
      ...(iv ? (iv.tests[test] ?? emptyIntervals()) : {}),
    };
    if (worstOf) {
      row.sets = Object.entries(t.variants ?? {}).map(([name, c]) => ({
        name,
        n: c.n,
        em: c.metrics?.em?.mean ?? null,
        f1: c.metrics?.f1?.mean ?? null,
      }));
      row.worst_set = worst;
      row.excluded = base?.excluded?.[test] ?? [];
    }
    return row;
  });
}

const none = (method: Interval['method'] = 'bootstrap'): Interval => ({ value: null, low: null, high: null, n: 0, method });
const emptyIntervals = (): QaRowIntervals => ({
  em_interval: none('wilson'),
  f1_interval: none(),
  em_reduction_interval: none(),
  f1_reduction_interval: none(),
});

/** The details of a run: files, selection, Table 4 and its intervals. */
export function qaDetails(m: StressMetrics, base: QaDetailsBase, iv?: QaIntervals): QaDetails {
  const { excluded: _excluded, ...rest } = base;
  return {
    ...rest,
    original: {
      n: m.original.n,
      em: m.original.metrics?.em?.mean ?? null,
      f1: m.original.metrics?.f1?.mean ?? null,
      ...(iv ? iv.original : {}),
    },
    table4: table4Rows(m, base, iv),
  };
}

const details = (s: StressSummary): QaDetails | undefined => s.details as QaDetails | undefined;
const title = (test: string): string => QA_TEST_TITLES[test as QaStressTest] ?? test;

/** An interval as the table shows it: "[low, high]" in %, blank when the run has none, n/a over nothing. */
function ci(iv: Interval | undefined): string {
  if (!iv) return '';
  return iv.low === null || iv.high === null ? NA : `[${(100 * iv.low).toFixed(1)}, ${(100 * iv.high).toFixed(1)}]`;
}

/** Table 4: one row per test that ran. */
export function table4(s: StressSummary): ReportTable {
  const d = details(s);
  const o = d?.original;
  const rows = [['original', String(o?.n ?? s.original.n), pct(o?.em), pct(o?.f1), ci(o?.em_interval), ci(o?.f1_interval), '', '']];
  for (const r of d?.table4 ?? table4Rows(s)) {
    rows.push([
      r.title ?? title(r.test),
      String(r.n),
      accuracyWithReduction(r.em, r.em_reduction),
      accuracyWithReduction(r.f1, r.f1_reduction),
      ci(r.em_interval),
      ci(r.f1_interval),
      r.n ? `${pct(r.original_em)} / ${pct(r.original_f1)}` : NA,
      String(r.not_applicable),
    ]);
  }
  return {
    title: 'Table 4: EM and F1 per stress test (% reduction from the original on the same questions)',
    head: [
      'test',
      'questions',
      'EM (reduction)',
      'F1 (reduction)',
      'EM 95% CI',
      'F1 95% CI',
      'original EM / F1, same questions',
      'not applicable',
    ],
    rows,
    caption:
      'Reduction = (original − test) / original over the questions the test applied to; negative = the test raised ' +
      'it. 95% CI: EM (right or wrong per question) Wilson over the questions; F1 a bootstrap over whole questions. ' +
      'AddSent/AddOneSent: the worst adversarial copy per question. ' +
      'AddAny/AddCommon (as Aspillaga et al.’s Table 4 caption defines them, for Jia & Liang’s adversaries): the worst (by F1) ' +
      'of the alternative adversarial sets generated against other models, over every question; sets generated against ' +
      'this model are left out. AddAny/AddCommon adaptive: ' +
      'searched against this model, on the questions it had right (F1 > 0) within --adaptive-limit.',
  };
}

/** One line per AddAny / AddCommon row: the sets it was the worst of, and those left out. */
export function setLines(s: StressSummary): string[] {
  return (details(s)?.table4 ?? [])
    .filter((r) => r.sets !== undefined)
    .map((r) => {
      const used = (r.sets ?? []).map(
        (x) => `${x.name}${x.name === r.worst_set ? ' (worst)' : ''}: EM ${pct(x.em)}, F1 ${pct(x.f1)} over ${x.n}`,
      );
      const out = (r.excluded ?? []).map((x) => `${x.name} (${x.why})`);
      const sets = used.length
        ? `worst of ${used.length} set${used.length > 1 ? 's' : ''} from other models — ${used.join('; ')}`
        : 'n/a, no set from another model';
      return `${r.title ?? title(r.test)}: ${sets}${out.length ? `; left out: ${out.join('; ')}` : ''}`;
    });
}

/** What `textstress stress qa` prints: the run, the files used, Table 4, the AddAny/AddCommon sets and what did not apply. */
export function qaText(s: StressSummary): string {
  const d = details(s);
  const head = [
    `textstress · stress-qa · ${s.model} on ${s.dataset}`,
    `${s.n} questions${d?.questions === 'adversarial' ? ' (the adversarial files’ originals)' : ''}, ${s.cases} cases · ${s.wall_seconds.toFixed(1)} s`,
    ...(d ? [`AddSent file: ${d.files.addsent ?? 'none found'} · AddOneSent file: ${d.files.addonesent ?? 'none found'}`] : []),
  ];
  const t = table4(s);
  const na = Object.entries(s.tests)
    .filter(([, x]) => x.not_applicable > 0)
    .map(
      ([test, x]) =>
        `${title(test)}: ${Object.entries(x.not_applicable_reasons)
          .map(([why, k]) => `${k} (${why})`)
          .join(', ')}`,
    );
  const sets = setLines(s);
  return [
    head.join('\n'),
    [t.title, formatGrid(t.head, t.rows), t.caption].join('\n'),
    ...(sets.length ? [sets.join('\n')] : []),
    ...(na.length ? [`Not applicable (not scored): ${na.join('; ')}.`] : []),
  ].join('\n\n');
}
