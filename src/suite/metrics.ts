import type { RunSummary } from '../metrics/summary.ts';
import type { HeadlineMetrics } from '../recipes/report/types.ts';

/** Metrics a gate threshold may name, with how to read them from a run. All rates are fractions (0–1). */
export const GATE_METRICS = {
  clean_accuracy: 'accuracy before the attack',
  attacked_accuracy: 'accuracy under attack',
  attack_success_rate: 'successful attacks / originally-correct attacked examples',
  stability: 'originally-correct examples whose prediction did not change',
  clean_metric: 'accuracy, or entity F1 for taggers, before the attack',
  attacked_metric: 'accuracy, or entity F1 for taggers, under attack',
  metric_drop: 'clean_metric − attacked_metric',
  clean_f1: 'entity F1 before the attack (taggers)',
  attacked_f1: 'entity F1 under attack (taggers)',
  mean_perturbed_word_pct: 'mean share of words edited in successful attacks (0–1)',
  mean_queries: 'mean model queries per example',
} as const;

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
    case 'mean_perturbed_word_pct':
      return summary.mean_perturbed_word_pct === null ? null : summary.mean_perturbed_word_pct / 100;
    case 'mean_queries':
      return summary.mean_queries;
  }
}
