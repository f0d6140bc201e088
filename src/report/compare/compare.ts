/**
 * The paired comparison of two runs over the same examples (issue 27): per metric both runs' values with their
 * intervals, the paired difference B − A with its interval, and a paired test — exact McNemar on per-example binary
 * outcomes, a paired bootstrap for F1 — with Holm's correction over the metrics tested together. Pure: joined
 * outcomes in, a plain JSON-able object out (the CLI, the suite's baseline gate and the report all read it).
 */
import { addCounts, f1 as entityF1, type EntityCounts } from '../../data/entities.ts';
import {
  holm,
  mcnemarExact,
  pairedBootstrap,
  pairedCounts,
  wilson,
  bootstrap,
  sameValueBounds,
  mean,
  type Interval,
  type PairedCounts,
} from '../../stats/index.ts';
import type { Joined, Outcome, RunInfo } from './load.ts';
import type { QueryBudgetComparison } from './budget.ts';
import { metricLabel, settingLabel, settingValue } from '../../metrics/display.ts';
import { displayPath, withoutAbsolutePaths } from '../html/paths.ts';

/** Which way a metric is better: accuracy up, attack success down. */
export type Better = 'higher' | 'lower';

/** One metric compared. */
export interface MetricComparison {
  metric: string;
  /** What tables and pages call it ("attack success rate"). */
  label: string;
  better: Better;
  test: 'mcnemar' | 'paired-bootstrap';
  /** Each run's value over the compared examples it is defined on, with its interval (Wilson or bootstrap). */
  a: Interval;
  b: Interval;
  /** B − A over the examples where both runs define it (paired bootstrap interval over those examples). */
  diff: Interval;
  /** McNemar's table over the paired examples (binary metrics). */
  counts?: PairedCounts;
  /** The test's two-sided p-value (null: nothing to test) and after Holm's correction. */
  p: number | null;
  p_holm: number | null;
  /** Significant after Holm at alpha. */
  significant: boolean;
  /** Significant and B worse than A. */
  regression: boolean;
  /** Significant and B better than A. */
  improvement: boolean;
}

/** Options of {@link comparePaired}. */
export interface CompareOptions {
  /** Seed of every bootstrap (same seed, same intervals). */
  seed: number | string;
  alpha?: number;
  resamples?: number;
  /** Compare only these metrics (default: every one both runs define). */
  metrics?: readonly string[];
}

/** A binary per-example outcome: whether it holds, or null when the example does not count for the metric. */
type Binary = (o: Outcome) => boolean | null;

/** The binary metrics (McNemar), with their per-example outcomes and which way is better. */
export const BINARY_METRICS: Record<string, { better: Better; outcome: Binary }> = {
  clean_accuracy: { better: 'higher', outcome: (o) => o.clean },
  attacked_accuracy: { better: 'higher', outcome: (o) => o.attacked },
  attack_success_rate: { better: 'lower', outcome: (o) => (o.tried ? o.succeeded : null) },
  stability: { better: 'higher', outcome: (o) => o.stable },
  clean_em: { better: 'higher', outcome: (o) => (o.em ? o.em[0] === 1 : null) },
  attacked_em: { better: 'higher', outcome: (o) => (o.em ? o.em[1] === 1 : null) },
};

/** F1-type metrics (paired bootstrap): a statistic over a resample of the examples that define it. */
type Stat = (os: readonly Outcome[], idx: Uint32Array) => number | null;
const meanOf =
  (pick: (o: Outcome) => number): Stat =>
  (os, idx) =>
    mean(os.map(pick), idx);
const corpusF1 =
  (side: 0 | 1): Stat =>
  (os, idx) => {
    let c: EntityCounts = { tp: 0, fp: 0, fn: 0 };
    for (const i of idx) c = addCounts(c, os[i]!.entities![side]);
    return entityF1(c);
  };

/** F1 metrics: QA mean answer F1 or NER corpus entity F1, whichever the results carry. */
function f1Metrics(a: readonly Outcome[]): Record<string, { defined: (o: Outcome) => boolean; stat: Stat }> {
  if (a.some((o) => o.f1)) {
    return {
      clean_f1: { defined: (o) => !!o.f1, stat: meanOf((o) => o.f1![0]) },
      attacked_f1: { defined: (o) => !!o.f1, stat: meanOf((o) => o.f1![1]) },
    };
  }
  if (a.some((o) => o.entities)) {
    return {
      clean_f1: { defined: (o) => !!o.entities, stat: corpusF1(0) },
      attacked_f1: { defined: (o) => !!o.entities, stat: corpusF1(1) },
    };
  }
  return {};
}

/** Compares every metric both runs define on the joined examples (see the file comment). */
export function comparePaired(j: Joined, opts: CompareOptions): MetricComparison[] {
  const alpha = opts.alpha ?? 0.05;
  // A difference whose resamples never spread (every example agrees in both runs) is kept: the runs differ by exactly
  // that on these examples, and the paired test beside it (p = 1) says the rest.
  const boot = { seed: opts.seed, ...(opts.resamples ? { resamples: opts.resamples } : {}), degenerate: 'keep' as const };
  const want = (m: string): boolean => !opts.metrics || opts.metrics.includes(m);
  const rows: Omit<MetricComparison, 'p_holm' | 'significant' | 'regression' | 'improvement'>[] = [];
  for (const [metric, def] of Object.entries(BINARY_METRICS)) {
    if (!want(metric)) continue;
    const xa = j.a.map(def.outcome);
    const xb = j.b.map(def.outcome);
    // Exact match is a QA metric: absent from runs whose results carry no answer scores.
    if (metric.endsWith('_em') && xa.every((x) => x === null) && xb.every((x) => x === null)) continue;
    const own = (xs: (boolean | null)[]): Interval => {
      const d = xs.filter((x): x is boolean => x !== null);
      return wilson(d.filter(Boolean).length, d.length);
    };
    const pa: boolean[] = [];
    const pb: boolean[] = [];
    xa.forEach((x, i) => {
      const y = xb[i];
      if (x !== null && y !== null && y !== undefined) {
        pa.push(x);
        pb.push(y);
      }
    });
    const counts = pairedCounts(pa, pb);
    const va = pa.map(Number);
    const vb = pb.map(Number);
    const diff = pairedBootstrap(
      pa.length,
      (idx) => mean(va, idx),
      (idx) => mean(vb, idx),
      { ...boot, seed: `${String(opts.seed)}:${metric}` },
    );
    rows.push({
      metric,
      label: metricLabel(metric),
      better: def.better,
      test: 'mcnemar',
      a: own(xa),
      b: own(xb),
      diff: { value: diff.value, low: diff.low, high: diff.high, n: diff.n, method: 'bootstrap' },
      counts,
      p: pa.length ? mcnemarExact(counts.onlyA, counts.onlyB) : null,
    });
  }
  for (const [metric, def] of Object.entries(f1Metrics([...j.a, ...j.b]))) {
    if (!want(metric)) continue;
    const keep = j.ids.map((_, i) => i).filter((i) => def.defined(j.a[i]!) && def.defined(j.b[i]!));
    const oa = keep.map((i) => j.a[i]!);
    const ob = keep.map((i) => j.b[i]!);
    const own = (os: Outcome[], side: string): Interval => {
      const d = os.filter(def.defined);
      const v = d.length
        ? def.stat(
            d,
            Uint32Array.from(d, (_, i) => i),
          )
        : null;
      // One run's F1: where every example gave one value, a cautious bound rather than [v, v].
      return bootstrap(d.length, (idx) => def.stat(d, idx), {
        ...boot,
        seed: `${String(opts.seed)}:${metric}:${side}`,
        degenerate: v === null ? 'unknown' : () => sameValueBounds(v, d.length, [0, 1]),
      });
    };
    const d = pairedBootstrap(
      oa.length,
      (idx) => def.stat(oa, idx),
      (idx) => def.stat(ob, idx),
      { ...boot, seed: `${String(opts.seed)}:${metric}` },
    );
    rows.push({
      metric,
      label: metricLabel(metric),
      better: 'higher',
      test: 'paired-bootstrap',
      a: own(j.a, 'a'),
      b: own(j.b, 'b'),
      diff: { value: d.value, low: d.low, high: d.high, n: d.n, method: 'bootstrap' },
      p: d.p,
    });
  }
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((r, i) => {
    const p_holm = adjusted[i] ?? null;
    const significant = p_holm !== null && p_holm < alpha && r.diff.value !== null && r.diff.value !== 0;
    const worse = r.diff.value !== null && (r.better === 'higher' ? r.diff.value < 0 : r.diff.value > 0);
    return { ...r, p_holm, significant, regression: significant && worse, improvement: significant && !worse };
  });
}

/** An example that changed between the runs, with both runs' view of it (filled in by the caller). */
export interface ChangedExample {
  id: string;
  a?: unknown;
  b?: unknown;
}

/** compare.json: the two runs, how they were joined, every metric compared, and the examples that changed. */
export interface Comparison {
  version: 1;
  a: RunInfo;
  b: RunInfo;
  joined: { n: number; mode: Joined['mode']; only_a: number; only_b: number };
  seed: number | string;
  alpha: number;
  metrics: MetricComparison[];
  /** Right under attack in A, wrong in B (and the reverse), in A's order; `newly_*_n` counts them all. */
  newly_broke: ChangedExample[];
  newly_held: ChangedExample[];
  newly_broke_n: number;
  newly_held_n: number;
  /** Some metric is significantly worse in B (after Holm). */
  regression: boolean;
  /**
   * Attack runs: success within each query budget in both runs and its paired difference (Holm over the budgets, apart
   * from `metrics`: it never sets `regression`), and queries per successful attack (see budget.ts).
   */
  query_budget?: QueryBudgetComparison;
  /**
   * What differs between the two runs besides the results: the recipe, model, data, seed and every recorded setting
   * whose value is not the same (issue 34: a K = 1 and a K = 3 typos run must not read alike). Values as shown.
   */
  differ: SettingDifference[];
}

/** One thing that differs between the runs compared: its label in words and each run's value. */
export interface SettingDifference {
  key: string;
  label: string;
  a: string;
  b: string;
}

/** The recipe, model, data, seed and settings that differ between two runs (values as people read them). */
export function differences(a: RunInfo, b: RunInfo): SettingDifference[] {
  const shown = (v: unknown): string => (v === undefined || v === null ? '—' : withoutAbsolutePaths(settingValue(v)));
  const out: SettingDifference[] = [];
  const add = (key: string, label: string, x: unknown, y: unknown): void => {
    if (JSON.stringify(x ?? null) !== JSON.stringify(y ?? null)) out.push({ key, label, a: shown(x), b: shown(y) });
  };
  add('recipe', 'recipe', a.recipe, b.recipe);
  add('model', 'model', displayPath(a.model), displayPath(b.model));
  add('dataset', 'data', displayPath(a.dataset), displayPath(b.dataset));
  add('seed', 'seed', a.seed, b.seed);
  for (const key of [...new Set([...Object.keys(a.settings ?? {}), ...Object.keys(b.settings ?? {})])]) {
    add(key, settingLabel(key), a.settings?.[key], b.settings?.[key]);
  }
  return out;
}

/** "k: 1 → 3 · max words: 512 → 256", or "" when nothing differs. */
export const differencesText = (d: readonly SettingDifference[]): string => d.map((x) => `${x.label}: ${x.a} → ${x.b}`).join(' · ');

/** The comparison with its runs named as a page shows them: no absolute path (folders as given, or `dirs`). */
export function forDisplay(c: Comparison, dirs?: readonly [string, string]): Comparison {
  const run = (r: RunInfo, dir: string | undefined): RunInfo => ({
    ...r,
    dir: dir ?? displayPath(r.dir),
    model: displayPath(r.model),
    dataset: displayPath(r.dataset),
  });
  return { ...c, a: run(c.a, dirs?.[0]), b: run(c.b, dirs?.[1]) };
}

/** The examples right under attack in A and wrong in B (broke), and the reverse (held). */
export function changedIds(j: Joined): { broke: string[]; held: string[] } {
  const broke: string[] = [];
  const held: string[] = [];
  j.ids.forEach((id, i) => {
    if (j.a[i]!.attacked && !j.b[i]!.attacked) broke.push(id);
    else if (!j.a[i]!.attacked && j.b[i]!.attacked) held.push(id);
  });
  return { broke, held };
}
