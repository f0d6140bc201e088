import type { RunMetrics, RunSummary } from '../../metrics/summary.ts';
import type { HeadlineMetrics } from '../../recipes/report/types.ts';

/** The numbers of a run's headline card; stability from the summary (older runs: counted from the results). */
export function headlineMetrics(summary: RunSummary, counted: RunMetrics): HeadlineMetrics {
  const st =
    typeof summary.stability_n === 'number' && 'stability' in summary
      ? { value: summary.stability, n: summary.stability_n }
      : { value: counted.stability, n: counted.stability_n };
  // Taggers and QA (which also report EM) are judged on F1; classifiers on accuracy.
  const byF1 = summary.clean_f1 !== undefined && summary.attacked_f1 !== undefined;
  return {
    metric: !byF1 ? 'accuracy' : summary.clean_em !== undefined ? 'answer F1' : 'entity F1',
    clean: byF1 ? summary.clean_f1! : summary.clean_accuracy,
    attacked: byF1 ? summary.attacked_f1! : summary.attacked_accuracy,
    attack_success_rate: summary.attack_success_rate,
    stability: st.value,
    stability_n: st.n,
  };
}
