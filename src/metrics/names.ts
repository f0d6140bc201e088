/**
 * The metrics every run reports that a gate threshold may name (the suite reads them; the registry keeps recipes'
 * own metrics from shadowing them). All rates are fractions (0–1).
 */
export const GATE_METRICS = {
  clean_accuracy: 'accuracy before the attack',
  attacked_accuracy: 'accuracy under attack',
  attack_success_rate: 'successful attacks / originally-correct attacked examples',
  stability: 'originally-correct examples whose prediction did not change',
  clean_metric: 'accuracy, or entity F1 for taggers, or answer F1 for QA, before the attack',
  attacked_metric: 'accuracy, or entity F1 for taggers, or answer F1 for QA, under attack',
  metric_drop: 'clean_metric − attacked_metric',
  clean_f1: 'entity F1 (taggers) or mean answer F1 (QA, SQuAD v1.1) before the attack',
  attacked_f1: 'entity F1 (taggers) or mean answer F1 (QA, SQuAD v1.1) under attack',
  clean_em: 'mean answer exact match before the attack (QA, SQuAD v1.1)',
  attacked_em: 'mean answer exact match under attack (QA, SQuAD v1.1)',
  mean_perturbed_word_pct: 'mean share of words edited in successful attacks (0–1)',
  mean_queries: 'mean model queries per example',
  queries_per_success: 'mean model queries (distinct inputs, the clean one included) per successful attack',
} as const;

/** The names in GATE_METRICS. */
export const CORE_METRIC_NAMES: readonly string[] = Object.keys(GATE_METRICS);

/**
 * The values each built-in gate metric can take (rates are fractions; mean_perturbed_word_pct is a fraction of the
 * words too): a threshold outside them is refused when the suite is read.
 */
export const GATE_METRIC_RANGES: Readonly<Record<keyof typeof GATE_METRICS, readonly [number, number]>> = {
  clean_accuracy: [0, 1],
  attacked_accuracy: [0, 1],
  attack_success_rate: [0, 1],
  stability: [0, 1],
  clean_metric: [0, 1],
  attacked_metric: [0, 1],
  metric_drop: [-1, 1],
  clean_f1: [0, 1],
  attacked_f1: [0, 1],
  clean_em: [0, 1],
  attacked_em: [0, 1],
  mean_perturbed_word_pct: [0, 1],
  mean_queries: [0, Infinity],
  queries_per_success: [0, Infinity],
};
