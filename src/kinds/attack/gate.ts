/**
 * What the gate and the suite's lines read of an attack-shaped run (attacks, and probes, whose worst variant is the
 * result): the built-in gate metrics from its summary and headline, and any metric its recipe adds.
 */
import type { RunSummary } from '../../metrics/summary.ts';
import type { HeadlineMetrics, LoadedRun } from '../../recipes/report/types.ts';
import { GATE_METRICS } from '../../metrics/names.ts';
import { pct } from '../../util/format.ts';
import { wilson, type Interval } from '../../stats/index.ts';
import type { GateRuntime } from '../types.ts';
import { attackRunOf, recipeInterval, recipeMetric } from '../gate.ts';

export { GATE_METRICS };

/** Name of a built-in gate metric (a key of {@link GATE_METRICS}). */
export type GateMetric = keyof typeof GATE_METRICS;

/** A run's value of a gate metric: null = over zero examples (n/a), undefined = the run does not report it. */
export function metricValue(name: GateMetric, summary: RunSummary, h: HeadlineMetrics): number | null | undefined {
  switch (name) {
    case 'clean_accuracy':
      return summary.clean_accuracy;
    case 'attacked_accuracy':
      return summary.attacked_accuracy;
    case 'attack_success_rate':
      return summary.attack_success_rate;
    case 'stability':
      return h.stability;
    case 'clean_metric':
      return h.clean;
    case 'attacked_metric':
      return h.attacked;
    case 'metric_drop':
      return h.clean === null || h.attacked === null ? null : h.clean - h.attacked;
    case 'clean_f1':
      return summary.clean_f1;
    case 'attacked_f1':
      return summary.attacked_f1;
    case 'clean_em':
      return summary.clean_em;
    case 'attacked_em':
      return summary.attacked_em;
    case 'mean_perturbed_word_pct':
      return summary.mean_perturbed_word_pct === null ? null : summary.mean_perturbed_word_pct / 100;
    case 'mean_queries':
      return summary.mean_queries;
    case 'queries_per_success':
      return summary.queries_per_success;
  }
}

/** k of n from a rate the summary rounds to a float (k = rate·n is an integer up to float noise). */
const countOf = (rate: unknown, n: unknown): [number, number] | undefined =>
  typeof rate === 'number' && typeof n === 'number' && n > 0 ? [Math.round(rate * n), n] : undefined;

/**
 * A built-in metric's 95% interval from a run's summary: `intervals[metric]` (in the metric's own units: the word
 * share as a fraction, as the gate reads it); for runs written before summaries had intervals, Wilson from the counts
 * of the four per-example rates, and undefined for the others (their n is not known).
 */
export function metricInterval(metric: string, summary: object): Interval | undefined {
  const s = summary as Record<string, unknown>;
  const own = (s.intervals as Record<string, Interval> | undefined)?.[metric];
  if (own && typeof own.n === 'number') {
    if (metric !== 'mean_perturbed_word_pct') return own;
    const f = (x: number | null): number | null => (x === null ? null : x / 100);
    return { ...own, value: f(own.value), low: f(own.low), high: f(own.high) };
  }
  const kn =
    metric === 'clean_accuracy'
      ? countOf(s.clean_accuracy, s.n)
      : metric === 'attacked_accuracy'
        ? countOf(s.attacked_accuracy, s.n)
        : metric === 'attack_success_rate'
          ? typeof s.succeeded === 'number' && typeof s.attacked === 'number'
            ? ([s.succeeded, s.attacked] as [number, number])
            : undefined
          : metric === 'stability'
            ? countOf(s.stability, s.stability_n)
            : undefined;
  if (kn) return wilson(kn[0], kn[1]);
  if (metric === 'attack_success_rate' && s.attacked === 0) return wilson(0, 0);
  return undefined;
}

const loaded = attackRunOf;

/** The suite's line for an attack run: its headline numbers. */
export function attackLine(run: LoadedRun): string {
  const h = run.headline;
  return `clean ${pct(h.clean)}, under attack ${pct(h.attacked)}, success ${pct(h.attack_success_rate)}, stability ${pct(h.stability)}`;
}

/**
 * The gate of attack-shaped runs; `line` is the kind's progress line. What an attack measured is its attacked
 * examples (a run that skipped every one measured nothing); a probe's, its examples tested (the probe's own figures
 * say how many it probed).
 */
export function attackGate(
  line: (run: LoadedRun) => string,
  opts: { probe?: boolean; row?: (run: LoadedRun) => string[] | undefined } = {},
): GateRuntime {
  return {
    builtIn: Object.keys(GATE_METRICS),
    value(metric, run, extra) {
      const r = loaded(run);
      const v = metric in GATE_METRICS ? metricValue(metric as GateMetric, r.summary, r.headline) : recipeMetric(metric, r.summary, extra);
      // A run over zero examples reports no entity F1 at all: that is n/a for want of examples, not a missing metric.
      return v === undefined && r.summary.n === 0 ? null : v;
    },
    interval(metric, run, extra) {
      const s = loaded(run).summary;
      return metric in GATE_METRICS ? metricInterval(metric, s) : recipeInterval(metric, s, extra);
    },
    naReason(metric, run) {
      const s = loaded(run).summary;
      if (s.n === 0) return 'no examples tested (0 examples)';
      if (metric === 'stability') return `no example the model got right was attacked (${s.n} examples, ${s.skipped} skipped)`;
      if (metric === 'attack_success_rate') return `no example was attacked (${s.n} examples, all ${s.skipped} skipped)`;
      if (metric === 'mean_perturbed_word_pct' || metric === 'queries_per_success') return 'no attack succeeded';
      return `it is taken over zero examples (${s.n} examples)`;
    },
    measured(run) {
      const s = loaded(run).summary;
      return s.n === 0 || opts.probe ? { n: s.n, unit: 'examples tested' } : { n: s.attacked, unit: 'examples attacked' };
    },
    line: (run) => line(loaded(run)),
    row(run) {
      const r = loaded(run);
      const own = opts.row?.(r);
      if (own) return own;
      const h = r.headline;
      return [r.summary.recipe, String(r.summary.n), pct(h.clean), pct(h.attacked), pct(h.attack_success_rate), pct(h.stability)];
    },
  };
}
