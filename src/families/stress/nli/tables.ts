/**
 * The NLI stress suite's tables, for the terminal and the report alike: the paper's Table 2 (accuracy per test
 * and, in brackets, the % reduction from the original accuracy on the same pairs, each with its 95% interval; the
 * competence tests with accuracy only, their golds being the rules'; the premise-removed test beside the
 * majority-class rate), accuracy per gold label of the competence tests, the error confusion per test, and the
 * N-tautology sweep (the paper's Figure 2).
 */
import type { StressCell, StressMetrics, StressSummary } from '../../../metrics/stress-summary.ts';
import type { GoldAccuracy, StressIntervalTally } from '../../../metrics/stress-interval-tally.ts';
import type { Interval } from '../../../stats/index.ts';
import { NLI_LABEL_SCHEMES, type NliScheme } from './labels.ts';
import { NLI_COMPETENCE_TESTS, NLI_TEST_FAMILY, type NliStressTest } from './types.ts';
import { NA, pct } from '../../../util/format.ts';
import { formatGrid } from '../../../util/table.ts';
import type { ReportTable } from '../../../recipes/report/types.ts';
import { accuracyWithReduction } from '../../../recipes/report/stress-per-test.ts';

/** How each test is named in tables and charts. */
export const NLI_TEST_TITLES: Readonly<Record<NliStressTest, string>> = {
  'word-overlap': 'word overlap',
  negation: 'negation',
  'length-mismatch': 'length mismatch',
  tautology: 'tautology sweep (all N)',
  spelling: 'spelling error',
  antonymy: 'antonymy',
  numerical: 'numerical reasoning',
  'premise-removed': 'premise removed',
};

/** Table 2's rows, in the paper's order (the tautology sweep has a table of its own). */
export const TABLE2_TESTS: readonly NliStressTest[] = [
  'word-overlap',
  'negation',
  'length-mismatch',
  'spelling',
  'antonymy',
  'numerical',
  'premise-removed',
];

/** One point of the tautology sweep. */
export interface SweepPoint {
  n: number;
  cases: number;
  accuracy: number | null;
  reduction: number | null;
  accuracy_interval?: Interval;
  reduction_interval?: Interval;
}

/** What the NLI suite adds to summary.json (`details`). */
export interface NliDetails {
  scheme: NliScheme;
  labels: readonly string[];
  /** The data's field read as the premise and as the hypothesis. */
  premise: string;
  hypothesis: string;
  /** Each model label and the scheme label it is read as. */
  model_labels: Record<string, string>;
  /** The N-tautology sweep: accuracy with N tautologies on the premise or the hypothesis, against the original on the same pairs. */
  sweep: { original_accuracy: number | null; premise: SweepPoint[]; hypothesis: SweepPoint[] } | null;
  /** Premise removed against the majority class of the same pairs: accuracy − majority rate (> 0: the hypothesis alone gives the label away). */
  premise_removed: {
    accuracy: number | null;
    majority: { label: string; rate: number } | null;
    over_majority: number | null;
    /** Bootstrap over the pairs, the majority class found anew in each resample. */
    over_majority_interval?: Interval;
  } | null;
  /** The competence tests' accuracy per gold label (their golds are the rules'; the paper reports these, not reductions). */
  accuracy_by_gold?: Record<string, Record<string, GoldAccuracy>>;
}

/** The sweep, the premise-removed comparison and (with the interval tally) accuracy per gold label, from the tallies. */
export function nliDetails(
  m: StressMetrics,
  base: Omit<NliDetails, 'sweep' | 'premise_removed' | 'accuracy_by_gold'>,
  intervals?: StressIntervalTally,
): NliDetails {
  const taut = m.tests.tautology;
  const points = (side: 'premise' | 'hypothesis'): SweepPoint[] =>
    Object.entries(taut?.variants ?? {})
      .filter(([v]) => v.startsWith(`tautology-${side}-`))
      .map(([v, c]) => ({
        n: Number(v.slice(`tautology-${side}-`.length)),
        cases: c.n,
        accuracy: c.accuracy,
        reduction: c.reduction,
        ...(c.accuracy_interval ? { accuracy_interval: c.accuracy_interval } : {}),
        ...(c.reduction_interval ? { reduction_interval: c.reduction_interval } : {}),
      }))
      .sort((a, b) => a.n - b.n);
  const pr = m.tests['premise-removed'];
  const majority = pr?.majority ?? null;
  const competence = NLI_COMPETENCE_TESTS.filter((t) => m.tests[t]);
  const byGold = intervals?.byGold();
  return {
    ...base,
    sweep: taut ? { original_accuracy: taut.original_accuracy, premise: points('premise'), hypothesis: points('hypothesis') } : null,
    premise_removed: pr
      ? {
          accuracy: pr.accuracy,
          majority,
          over_majority: pr.accuracy === null || !majority ? null : pr.accuracy - majority.rate,
          // The interval's value is the figure beside it (the same sums, added in another order).
          ...(intervals && pr.accuracy !== null && majority
            ? { over_majority_interval: { ...intervals.overMajority('premise-removed'), value: pr.accuracy - majority.rate } }
            : {}),
        }
      : null,
    ...(byGold && competence.length ? { accuracy_by_gold: Object.fromEntries(competence.map((t) => [t, byGold[t] ?? {}])) } : {}),
  };
}

const details = (s: StressSummary): NliDetails | undefined => s.details as NliDetails | undefined;

/** "[58.1, 64.0]", "[−8.9, 4.7]": an interval in percent, "" when it has no bounds. */
export function ciText(iv: Interval | undefined): string {
  if (!iv || iv.low === null || iv.high === null) return '';
  const p = (x: number): string => `${x < 0 ? '−' : ''}${Math.abs(100 * x).toFixed(1)}`;
  return `[${p(iv.low)}, ${p(iv.high)}]`;
}

const competence = (test: string): boolean => NLI_TEST_FAMILY[test as NliStressTest] === 'competence';

/**
 * Table 2: one row per test that ran, with its family, pairs, cases, accuracy (reduction) and the 95% intervals of
 * both, and the original on the same pairs. The competence tests show accuracy only: their golds are the rules'.
 */
export function table2(s: StressSummary): ReportTable {
  const rows = [
    [
      'original',
      '',
      String(s.original.n),
      String(s.original.n),
      '',
      pct(s.original.accuracy),
      ciText(s.original.accuracy_interval),
      '',
      '',
    ],
  ];
  for (const test of TABLE2_TESTS) {
    const t = s.tests[test];
    if (!t) continue;
    const maj = test === 'premise-removed' ? details(s)?.premise_removed?.majority : undefined;
    const own = competence(test);
    rows.push([
      NLI_TEST_TITLES[test],
      NLI_TEST_FAMILY[test].replace('-', ' '),
      String(t.examples),
      String(t.n),
      t.clusters === undefined ? '' : String(t.clusters),
      // The paper compares the premise-removed accuracy with the majority class, not with the original.
      test === 'premise-removed'
        ? `${pct(t.accuracy)} (majority class ${maj ? `${maj.label} ${pct(maj.rate)}` : NA})`
        : own
          ? pct(t.accuracy)
          : accuracyWithReduction(t.accuracy, t.reduction),
      ciText(t.accuracy_interval),
      test === 'premise-removed' || own ? '' : ciText(t.reduction_interval),
      own ? '' : pct(t.original_accuracy),
    ]);
  }
  return {
    title: 'Table 2: accuracy per stress test (% reduction from the original accuracy on the same pairs)',
    head: [
      'test',
      'family',
      'pairs',
      'cases',
      'distinct premises',
      'accuracy (reduction)',
      'accuracy 95% CI',
      'reduction 95% CI',
      'original, same pairs',
    ],
    rows,
    caption:
      'Reduction = (original − test) / original accuracy over the pairs the test applied to; negative = the test ' +
      'raised accuracy. Competence tests (antonymy, numerical reasoning): accuracy only, their golds being the rules’ ' +
      '(per gold label below); their cases are made from the premise alone, so pairs that share a premise give the ' +
      'same cases: distinct premises is what the intervals count. Premise removed: beside the majority-class rate of ' +
      'its pairs. 95% CI: Wilson over the cases where a pair gives one case, else Wilson at the effective sample size ' +
      'of the pairs (of the premises for the competence tests; Korn & Graubard); reductions: a bootstrap over whole pairs.',
  };
}

/** The competence tests' accuracy per gold label, with n (cases) and the 95% interval; undefined when none ran. */
export function competenceTable(s: StressSummary): ReportTable | undefined {
  const by = details(s)?.accuracy_by_gold;
  if (!by || Object.keys(by).length === 0) return undefined;
  const rows = Object.entries(by).flatMap(([test, golds]) =>
    Object.entries(golds).map(([gold, g]) => [
      NLI_TEST_TITLES[test as NliStressTest] ?? test,
      gold,
      String(g.n),
      g.clusters === undefined ? '' : String(g.clusters),
      pct(g.accuracy),
      ciText(g.accuracy_interval),
    ]),
  );
  return {
    title: 'Competence tests: accuracy per gold label',
    head: ['test', 'gold', 'cases', 'distinct premises', 'accuracy', '95% CI'],
    rows,
    caption:
      'The rules set these golds: antonymy contradiction; numerical reasoning entailment, contradiction and neutral (Naik et al. §4.2). ' +
      '95% CI: Wilson at the effective sample size of the distinct premises the cases were made from.',
  };
}

const ABBR: Record<string, string> = { entailment: 'E', neutral: 'N', contradiction: 'C', not_entailment: '¬E' };

/** The error confusion: per test, the share of gold X predicted as Y, for every X ≠ Y of the scheme. */
export function confusionTable(s: StressSummary): ReportTable {
  const labels = NLI_LABEL_SCHEMES[details(s)?.scheme ?? '3-way'];
  const pairs = labels.flatMap((g) => labels.filter((p) => p !== g).map((p) => [g, p] as const));
  const row = (name: string, c: StressCell): string[] => [
    name,
    ...pairs.map(([g, p]) => {
      const r = c.confusion?.[g];
      return r ? pct(r.predicted[p] ?? 0) : NA;
    }),
  ];
  const tests = [...TABLE2_TESTS.slice(0, 3), 'tautology' as const, ...TABLE2_TESTS.slice(3)].filter((t) => s.tests[t]);
  return {
    title: 'Error confusion: share of gold X predicted as Y',
    head: ['test', ...pairs.map(([g, p]) => `${ABBR[g]}→${ABBR[p]}`)],
    rows: [row('original', s.original), ...tests.map((t) => row(NLI_TEST_TITLES[t], s.tests[t]!))],
    caption: `${labels.map((l) => `${ABBR[l]} = ${l}`).join(', ')}. n/a: no case of that gold label.`,
  };
}

/** The tautology sweep: accuracy (reduction) with N tautologies appended to the premise or to the hypothesis. */
export function sweepTable(s: StressSummary): ReportTable | undefined {
  const sweep = details(s)?.sweep;
  if (!sweep) return undefined;
  const ns = [...new Set([...sweep.premise, ...sweep.hypothesis].map((p) => p.n))].sort((a, b) => a - b);
  const at = (side: SweepPoint[], n: number): string => {
    const p = side.find((x) => x.n === n);
    return p ? accuracyWithReduction(p.accuracy, p.reduction) : NA;
  };
  return {
    title: 'Tautology sweep: "and true is true" appended N times (the paper’s Figure 2)',
    head: ['N', 'on the premise', 'on the hypothesis'],
    rows: [
      ['0 (original)', pct(sweep.original_accuracy), pct(sweep.original_accuracy)],
      ...ns.map((n) => [String(n), at(sweep.premise, n), at(sweep.hypothesis, n)]),
    ],
  };
}

const grid = (t: ReportTable): string => [t.title, formatGrid(t.head, t.rows), ...(t.caption ? [t.caption] : [])].join('\n');

/** What `textstress stress nli` prints: the run, Table 2, the error confusion, the sweep and what did not apply. */
export function nliText(s: StressSummary): string {
  const d = details(s);
  const head = [
    `textstress · stress-nli · ${s.model} on ${s.dataset}${typeof s.settings.split === 'string' ? ` (${s.settings.split})` : ''}`,
    (d ? `${d.scheme} labels (${d.labels.join(', ')}) · premise: ${d.premise} · hypothesis: ${d.hypothesis} · ` : '') +
      `${s.n} pairs, ${s.cases} cases · ${s.wall_seconds.toFixed(1)} s`,
  ];
  const na = Object.entries(s.tests)
    .filter(([, t]) => t.not_applicable > 0)
    .map(
      ([test, t]) =>
        `${NLI_TEST_TITLES[test as NliStressTest] ?? test}: ${t.not_applicable} pairs (${Object.keys(t.not_applicable_reasons).join('; ')})`,
    );
  const sweep = sweepTable(s);
  const comp = competenceTable(s);
  return [
    head.join('\n'),
    grid(table2(s)),
    ...(comp ? [grid(comp)] : []),
    grid(confusionTable(s)),
    ...(sweep ? [grid(sweep)] : []),
    ...(na.length ? [`Not applicable (no case made, not scored): ${na.join('; ')}.`] : []),
  ].join('\n\n');
}
