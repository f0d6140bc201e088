/** What a universal-names run records (summary.json `details`, ranking.json) and the tables it prints. */
import type { GenerateSummaryView } from '../../../core/generate.ts';
import { fixed, NA, pct } from '../../../util/format.ts';
import { formatGrid } from '../../../util/table.ts';
import type { SplitMetrics } from './evaluate.ts';
import type { Interval } from '../../../stats/index.ts';

/** One ranked candidate (names.jsonl line; summary.json keeps the first ones). */
export interface RankedName {
  rank: number;
  name: string;
  /** Posterior mean α / (α + β) of the name's net harm. */
  mean: number;
  alpha: number;
  beta: number;
  evaluated: number;
  /** Search sentences it was tried on, and the shares that got worse / better (null when never tried). */
  sentences: number;
  worse_share: number | null;
  better_share: number | null;
}

/** One name on the held-out split. */
export interface TransferRow extends SplitMetrics {
  name: string;
  group: 'top' | 'random';
  /** Original metric − this name's metric (positive: the name hurts); null when either is n/a. */
  drop: number | null;
  /** Shares of held-out examples whose per-example metric fell / rose. */
  worse_share: number | null;
  better_share: number | null;
}

/** The transfer test: the top names and random names on every held-out example, against the originals. */
export interface Transfer {
  /** What `metric` is for this task. */
  metric: 'accuracy' | 'entity_f1' | 'answer_f1';
  original: SplitMetrics;
  rows: TransferRow[];
  /** Mean drop of the top names and of the random names; null with no held-out example (or no such names). */
  top_mean_drop: number | null;
  random_mean_drop: number | null;
  /** 95% intervals of the mean drops: a bootstrap over the held-out examples (n = them); absent in older runs. */
  top_mean_drop_interval?: Interval;
  random_mean_drop_interval?: Interval;
}

/** summary.json `details` of a universal-names run. */
export interface UniversalNamesDetails {
  type: string;
  annotator: string;
  counts: {
    examples: number;
    /** Examples with at least one mention of the type; the others are not applicable (never searched nor tested). */
    applicable: number;
    not_applicable: number;
    search: number;
    heldout: number;
    candidates: number;
    rounds: number;
    evaluations: number;
  };
  /** The first ranked names (all of them: names.jsonl, ranking.json). */
  ranking: RankedName[];
  transfer: Transfer;
}

/** The mean of the numbers that are not null; null when there are none. */
export function meanOf(xs: readonly (number | null)[]): number | null {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length ? ok.reduce((a, x) => a + x, 0) / ok.length : null;
}

/** The details of a universal-names summary, or undefined when it has none. */
export function detailsOf(summary: { details?: Record<string, unknown> }): UniversalNamesDetails | undefined {
  const d = summary.details as Partial<UniversalNamesDetails> | undefined;
  return d && d.counts && d.transfer ? (d as UniversalNamesDetails) : undefined;
}

/** " [−3.5, 4.0]": an interval of a drop in points, blank without bounds. */
export function pointsInterval(iv: Interval | undefined): string {
  return iv && iv.low !== null && iv.high !== null ? ` [${points(iv.low)}, ${points(iv.high)}]` : '';
}

/** A difference of fractions in percentage points, one decimal ("0.0", never "-0.0"). */
export function points(x: number | null): string {
  if (x === null) return NA;
  const s = (100 * x).toFixed(1);
  return s === '-0.0' ? '0.0' : s;
}

/** How each task metric reads in titles. */
export const METRIC_NAMES: Record<Transfer['metric'], string> = { accuracy: 'accuracy', entity_f1: 'entity F1', answer_f1: 'answer F1' };

/** The first `shown` ranked names as table rows (rank, name, mean, α, β, evaluated, worse, better): terminal and report. */
export function rankingRows(d: UniversalNamesDetails, shown: number): string[][] {
  return d.ranking
    .slice(0, shown)
    .map((r) => [
      String(r.rank),
      r.name,
      fixed(r.mean, 3),
      fixed(r.alpha, 1),
      fixed(r.beta, 1),
      String(r.evaluated),
      pct(r.worse_share),
      pct(r.better_share),
    ]);
}

/** The ranked names and the held-out transfer test as terminal tables. */
export function universalNamesText(summary: GenerateSummaryView, shown = 20): string {
  const d = detailsOf(summary);
  if (!d) return JSON.stringify(summary, null, 2);
  const c = d.counts;
  const head = [
    `Universal adversarial names (Balasubramanian et al. 2020, Algorithm 2) — ${d.type}, mentions by ${d.annotator}`,
    `${c.applicable} of ${c.examples} examples have a ${d.type} mention (${c.not_applicable} not applicable): ${c.search} search, ${c.heldout} held out; ` +
      `${c.candidates} candidate names, ${c.rounds} rounds, ${c.evaluations} evaluations`,
    '',
    'Ranked names (posterior mean of the net harm; worse / better: shares of the sampled search sentences)',
  ];
  const ranking = formatGrid(['rank', 'name', 'mean', 'α', 'β', 'evaluated', 'worse', 'better'], rankingRows(d, shown));
  const t = d.transfer;
  const metric = METRIC_NAMES[t.metric];
  if (t.original.n === 0)
    return [...head, ranking, '', `Held-out transfer: ${NA} (no held-out example; --holdout is 0 or too few examples).`].join('\n');
  const extra = t.original.em !== undefined;
  const scores = (m: SplitMetrics): string[] => [pct(m.metric), ...(extra ? [pct(m.em)] : [])];
  const transfer = formatGrid(
    ['name', 'group', metric, ...(extra ? ['EM'] : []), 'drop (pts)', 'worse', 'better'],
    [
      ['(original)', '', ...scores(t.original), '', '', ''],
      ...t.rows.map((r) => [r.name, r.group, ...scores(r), points(r.drop), pct(r.worse_share), pct(r.better_share)]),
    ],
  );
  const pts = (x: number | null): string => (x === null ? NA : `${points(x)} points`);
  const tops = t.rows.filter((r) => r.group === 'top').length;
  const randoms = t.rows.filter((r) => r.group === 'random').length;
  return [
    ...head,
    ranking,
    '',
    `Held-out transfer (${t.original.n} examples, every ${d.type} mention replaced by the name): ${metric}`,
    transfer,
    `Mean drop: top ${tops} ${pts(t.top_mean_drop)}${pointsInterval(t.top_mean_drop_interval)}, random ${randoms} ` +
      `${pts(t.random_mean_drop)}${pointsInterval(t.random_mean_drop_interval)}` +
      `${t.top_mean_drop_interval ? ` (95% intervals: bootstrap over the ${t.original.n} held-out examples)` : ''}.`,
  ].join('\n');
}
