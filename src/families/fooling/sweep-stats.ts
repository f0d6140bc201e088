/**
 * The sweep's numbers: mean ± sample standard deviation over seeds, per value, per epoch and at the last epoch; for a
 * crossover sweep, the paired difference on − off at the last epoch with Student's t interval over the seeds (a
 * percentile bootstrap over a handful of seeds is far too narrow, and [d, d] over one seed).
 */
import { pairedT, type Interval } from '../../stats/index.ts';

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
  /** Crossover sweeps: the last epoch's on − off, paired by seed (absent for other sweeps and older runs). */
  difference?: SweepDifference | null;
}

/** A paired difference b − a over the seeds both values ran with: its mean, 95% t interval and paired t test's p. */
export interface SweepDifference {
  a: string;
  b: string;
  /** The seeds both ran with (the interval's units). */
  seeds: number[];
  S: Interval & { p: number | null };
  F: Interval & { p: number | null };
}

/**
 * The last epoch's S and F of value `b` minus value `a`, paired by seed: the mean of the per-seed differences with
 * Student's t interval and the paired t test (no interval with fewer than two seeds, or when every seed gave the
 * same difference). `_seed` is the run's seed, kept for the signature (the t interval draws nothing).
 */
export function pairedDifference(a: string, b: string, records: readonly SweepRecord[], _seed: number): SweepDifference {
  const final = (value: string): Map<number, SweepRecord> => {
    const out = new Map<number, SweepRecord>();
    for (const r of records) if (r.value === value && r.epoch > (out.get(r.seed)?.epoch ?? 0)) out.set(r.seed, r);
    return out;
  };
  const fa = final(a);
  const fb = final(b);
  const seeds = [...fa.keys()].filter((s) => fb.has(s)).sort((x, y) => x - y);
  const diff = (key: 'mean_score' | 'fooling_fraction'): Interval & { p: number | null } =>
    pairedT(seeds.map((s) => fb.get(s)![key] - fa.get(s)![key]));
  return { a, b, seeds, S: diff('mean_score'), F: diff('fooling_fraction') };
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
