/**
 * The metrics every run reports that a gate threshold may name (the suite reads them; the registry keeps recipes'
 * own metrics from shadowing them). All rates are fractions (0–1).
 */
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


/** The names in GATE_METRICS. */
export const CORE_METRIC_NAMES: readonly string[] = Object.keys(GATE_METRICS);
