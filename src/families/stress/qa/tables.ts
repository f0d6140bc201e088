/**
 * The QA stress suite's table, for the terminal, summary.json and the report alike: the paper's Table 4 — EM and
 * F1 per test and, in brackets, the % reduction from the original EM/F1 on the same questions.
 */
import type { StressMetrics, StressSummary } from '../../../metrics/stress.ts';
import { NA, pct } from '../../../util/format.ts';
import { formatGrid } from '../../../util/table.ts';
import type { ReportTable } from '../../../recipes/report/types.ts';
import { accuracyWithReduction } from '../../../recipes/report/stress.ts';
import type { QaStressTest } from './settings.ts';

/** How each test is named in tables and charts. */
export const QA_TEST_TITLES: Readonly<Record<QaStressTest, string>> = {
  addsent: 'AddSent',
  addonesent: 'AddOneSent',
  addany: 'AddAny',
  addcommon: 'AddCommon',
  'noise-natural': 'noise: natural',
  'noise-swap': 'noise: swap',
  'noise-middle-random': 'noise: middle random',
  'noise-fully-random': 'noise: fully random',
  'noise-keyboard': 'noise: keyboard',
};

/** One row of Table 4: a test's questions, EM/F1, the original EM/F1 on the same questions, and the reductions. */
export interface Table4Row {
  test: string;
  /** Questions scored (one case each); 0 = n/a. */
  n: number;
  not_applicable: number;
  em: number | null;
  f1: number | null;
  original_em: number | null;
  original_f1: number | null;
  /** (original − test) / original; null over zero questions or a zero original. */
  em_reduction: number | null;
  f1_reduction: number | null;
}

/** What the QA suite adds to summary.json (`details`). */
export interface QaDetails {
  /** The adversarial files used (null: not found or not asked for). */
  files: { addsent: string | null; addonesent: string | null };
  questions: 'all' | 'adversarial';
  adaptive_limit: number;
  original: { n: number; em: number | null; f1: number | null };
  table4: Table4Row[];
}

/** Table 4's rows from the tallies (each test's EM/F1 means and their originals on the same questions). */
export function table4Rows(m: StressMetrics): Table4Row[] {
  return Object.entries(m.tests).map(([test, t]) => {
    const em = t.metrics?.em;
    const f1 = t.metrics?.f1;
    return {
      test,
      n: t.n,
      not_applicable: t.not_applicable,
      em: em?.mean ?? null,
      f1: f1?.mean ?? null,
      original_em: em?.original ?? null,
      original_f1: f1?.original ?? null,
      em_reduction: em?.reduction ?? null,
      f1_reduction: f1?.reduction ?? null,
    };
  });
}

/** The details of a run: files, selection and Table 4. */
export function qaDetails(m: StressMetrics, base: Omit<QaDetails, 'original' | 'table4'>): QaDetails {
  return {
    ...base,
    original: { n: m.original.n, em: m.original.metrics?.em?.mean ?? null, f1: m.original.metrics?.f1?.mean ?? null },
    table4: table4Rows(m),
  };
}

const details = (s: StressSummary): QaDetails | undefined => s.details as QaDetails | undefined;
const title = (test: string): string => QA_TEST_TITLES[test as QaStressTest] ?? test;

/** Table 4: one row per test that ran. */
export function table4(s: StressSummary): ReportTable {
  const d = details(s);
  const rows = [['original', String(d?.original.n ?? s.original.n), pct(d?.original.em), pct(d?.original.f1), '', '']];
  for (const r of d?.table4 ?? table4Rows(s)) {
    rows.push([
      title(r.test),
      String(r.n),
      accuracyWithReduction(r.em, r.em_reduction),
      accuracyWithReduction(r.f1, r.f1_reduction),
      r.n ? `${pct(r.original_em)} / ${pct(r.original_f1)}` : NA,
      String(r.not_applicable),
    ]);
  }
  return {
    title: 'Table 4: EM and F1 per stress test (% reduction from the original on the same questions)',
    head: ['test', 'questions', 'EM (reduction)', 'F1 (reduction)', 'original EM / F1, same questions', 'not applicable'],
    rows,
    caption:
      'Reduction = (original − test) / original over the questions the test applied to; negative = the test raised ' +
      'it. AddSent/AddOneSent: the worst adversarial copy per question; AddAny/AddCommon: questions the model had ' +
      'right (F1 > 0) within --adaptive-limit.',
  };
}

/** What `textstress stress qa` prints: the run, the files used, Table 4 and what did not apply. */
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
  return [
    head.join('\n'),
    [t.title, formatGrid(t.head, t.rows), t.caption].join('\n'),
    ...(na.length ? [`Not applicable (not scored): ${na.join('; ')}.`] : []),
  ].join('\n\n');
}
