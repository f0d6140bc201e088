import type { RunSummary } from '../metrics/summary.ts';
import type { HeadlineMetrics } from '../recipes/report/types.ts';
import { GATE_METRICS } from '../metrics/names.ts';

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
  }
}
