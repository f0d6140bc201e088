/** The report section of the QA stress suite: Table 4 and a chart of EM per test with its reduction. */
import type { ReportFamily, ReportTable, StressRun } from '../../../recipes/report/types.ts';
import { accuracyPerTestChart } from '../../../recipes/report/stress-per-test.ts';
import type { QaStressTest } from './settings.ts';
import { QA_TEST_TITLES, table4, WORST_OF_SETS, type QaDetails } from './tables.ts';

const title = (test: string): string => QA_TEST_TITLES[test as QaStressTest] ?? test;

/** The run with each AddAny/AddCommon test's figures those of its worst set (the row), not pooled over every set. */
function worstSetsOnly(r: StressRun): StressRun {
  const rows = (r.summary.details as QaDetails | undefined)?.table4 ?? [];
  const tests = { ...r.summary.tests };
  for (const row of rows) {
    const t = tests[row.test];
    if (!WORST_OF_SETS.has(row.test) || !t) continue;
    const worst = row.worst_set ? t.variants?.[row.worst_set] : undefined;
    tests[row.test] = worst ? { ...t, ...worst } : { ...t, n: 0 };
  }
  return { ...r, summary: { ...r.summary, tests } };
}

/** The report card section of stress-qa runs. */
export const stressQaFamily: ReportFamily = {
  id: 'stress-qa',
  title: 'QA stress tests',
  blurb:
    'Aspillaga et al. (2020) on SQuAD v1.1: Jia & Liang’s AddSent and AddOneSent (the worst adversarial copy of each question), ' +
    'AddAny and AddCommon as in Table 4 (the worst of the 10-word-distractor sets searched against other models, the model’s own left out), ' +
    'the same search against the model itself (the adaptive rows), and noise on every context word with the answers kept; ' +
    'EM per test and its reduction from the original EM on the same questions (exact match is a case’s “correct”).',
  editTypeLabel: (t) => t.replace(/^distraction:/, '').replace(/^noise:/, 'noise: '),
  stressSection(runs) {
    const suffix = (r: StressRun, t: ReportTable): ReportTable => (runs.length > 1 ? { ...t, title: `${t.title} — ${r.name}` } : t);
    const chart = accuracyPerTestChart(runs.map(worstSetsOnly), title);
    const notes = runs.flatMap((r) =>
      Object.entries(r.summary.tests)
        .filter(([, t]) => t.not_applicable > 0)
        .map(
          ([test, t]) =>
            `${runs.length > 1 ? `${r.name}: ` : ''}${title(test)} did not apply to ${t.not_applicable} of ${r.summary.n} ` +
            `questions (${Object.keys(t.not_applicable_reasons).join('; ')}); they are not scored.`,
        ),
    );
    return {
      tables: runs.map((r) => suffix(r, table4(r.summary))),
      charts: [
        {
          ...chart,
          title: 'EM per test',
          caption: 'Bars: exact match on each test’s cases. Black tick: the original EM on the same questions. Red: the reduction from it.',
        },
      ],
      notes,
    };
  },
};
