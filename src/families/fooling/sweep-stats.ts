/** The sweep's numbers: mean ± sample standard deviation over seeds, per value, per epoch and at the last epoch. */

/** A mean with its sample standard deviation (null with fewer than two seeds) over `n` runs. */
export interface MeanStd {
  mean: number | null;
  std: number | null;
  n: number;
}

/** One epoch of one sub-run, as the sweep records it (a results.jsonl line). */
export interface SweepRecord {
  value: string;
  seed: number;
  epoch: number;
  mean_score: number;
  fooling_fraction: number;
}

export interface SweepRow {
  value: string;
  runs: number;
  final: { S: MeanStd; F: MeanStd };
  curve: { epoch: number; S: MeanStd; F: MeanStd }[];
}

/** summary.json `details` of a sweep. */
export interface SweepDetails {
  vary: 'crossover' | 'population' | 'length' | 'fixed';
  values: string[];
  seeds: number[];
  epochs: number;
  rows: SweepRow[];
}

export function meanStd(xs: readonly number[]): MeanStd {
  const n = xs.length;
  if (n === 0) return { mean: null, std: null, n };
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  const std = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : null;
  return { mean, std, n };
}

/** Rows in `values` order from every sub-run's per-epoch records; the final epoch is each sub-run's last. */
export function sweepRows(values: readonly string[], records: readonly SweepRecord[]): SweepRow[] {
  return values.map((value) => {
    const mine = records.filter((r) => r.value === value);
    const seeds = [...new Set(mine.map((r) => r.seed))];
    const last = seeds.map((s) => mine.filter((r) => r.seed === s).reduce((a, r) => (r.epoch > a.epoch ? r : a)));
    const epochs = [...new Set(mine.map((r) => r.epoch))].sort((a, b) => a - b);
    return {
      value,
      runs: seeds.length,
      final: { S: meanStd(last.map((r) => r.mean_score)), F: meanStd(last.map((r) => r.fooling_fraction)) },
      curve: epochs.map((epoch) => {
        const at = mine.filter((r) => r.epoch === epoch);
        return { epoch, S: meanStd(at.map((r) => r.mean_score)), F: meanStd(at.map((r) => r.fooling_fraction)) };
      }),
    };
  });
}
