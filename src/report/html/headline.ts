import type { RunMetrics, RunSummary } from '../../metrics/summary.ts';
import type { HeadlineMetrics } from '../../recipes/report/types.ts';

/** The numbers of a run's headline card; stability from the summary (older runs: counted from the results). */
export function headlineMetrics(summary: RunSummary, counted: RunMetrics): HeadlineMetrics {
  const st = typeof summary.stability_n === 'number' && 'stability' in summary ? { value: summary.stability, n: summary.stability_n } : { value: counted.stability, n: counted.stability_n };
  const ner = summary.clean_f1 !== undefined && summary.attacked_f1 !== undefined;
  return {
    metric: ner ? 'entity F1' : 'accuracy',
    clean: ner ? summary.clean_f1! : summary.clean_accuracy,
    attacked: ner ? summary.attacked_f1! : summary.attacked_accuracy,
    attack_success_rate: summary.attack_success_rate,
    stability: st.value,
    stability_n: st.n,
  };
}
