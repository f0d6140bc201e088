import { Rng } from '../util/rng.ts';

/**
 * A figure with its 95% interval and the number of units it was computed over. `value`, `low` and `high` are null
 * when n is 0 (a metric over nothing is "n/a", never a number). `method` names how the interval was computed.
 */
export interface Interval {
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
  method: 'wilson' | 'bootstrap' | 'exact';
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Number of bootstrap resamples unless told otherwise (percentile intervals; enough for 2-decimal bounds). */
export const DEFAULT_RESAMPLES = 1000;

/** An interval wider than this (in the metric's own units, 0–1 for rates) is "too few examples" to read. */
export const TOO_WIDE = 0.2;

/** Wilson score interval for k successes out of n (Wilson 1927); null bounds over n = 0. */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`wilson needs integers 0 <= k <= n, got k=${k}, n=${n}`);
  }
  if (n === 0) return { value: null, low: null, high: null, n: 0, method: 'wilson' };
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Clamp only float noise: at k = 0 the low bound is 0 exactly, at k = n the high bound is 1.
  return { value: p, low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half), n, method: 'wilson' };
}

export interface BootstrapOptions {
  /** Seed of the resampling (same seed, same interval). */
  seed: number | string;
  resamples?: number;
  /** Two-sided level; 0.95 unless told. */
  level?: number;
}

/**
 * Percentile bootstrap over n units (examples): `stat` receives the indices of one resample (with repeats) and
 * returns the statistic or null (undefined on that resample, e.g. F1 with no entity; such resamples are dropped).
 * Resampling whole units keeps the cases of one example together.
 */
export function bootstrap(n: number, stat: (idx: Uint32Array) => number | null, opts: BootstrapOptions): Interval {
  const { value, draws } = resample(n, stat, opts, 'bootstrap');
  if (value === null) return { value: null, low: null, high: null, n, method: 'bootstrap' };
  const [low, high] = percentiles(draws, opts.level ?? 0.95);
  return { value, low: low ?? value, high: high ?? value, n, method: 'bootstrap' };
}

/**
 * The statistic on all n units and on B seeded resamples of them (with repeats); resamples where it is undefined
 * are dropped. `stream` names the generator's stream, so two kinds of bootstrap with one seed draw independently.
 */
function resample(
  n: number,
  stat: (idx: Uint32Array) => number | null,
  opts: BootstrapOptions,
  stream: string,
): { value: number | null; draws: number[] } {
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const value = n === 0 ? null : stat(all);
  if (value === null) return { value, draws: [] };
  const rng = new Rng(`${stream}\u0001${String(opts.seed)}`);
  const B = opts.resamples ?? DEFAULT_RESAMPLES;
  const draws: number[] = [];
  const idx = new Uint32Array(n);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < n; i++) idx[i] = rng.int(n);
    const s = stat(idx);
    if (s !== null && Number.isFinite(s)) draws.push(s);
  }
  return { value, draws };
}

/** Bootstrap interval of a mean of per-unit values (nulls are units without a value and are left out). */
export function bootstrapMean(values: readonly (number | null)[], opts: BootstrapOptions): Interval {
  const xs = values.filter((v): v is number => v !== null);
  return bootstrap(xs.length, (idx) => mean(xs, idx), opts);
}

/**
 * Paired bootstrap of a difference b − a between two statistics computed on the same units: both statistics see
 * the same resample each time, so the interval reflects the pairing.
 */
export function pairedBootstrap(
  n: number,
  statA: (idx: Uint32Array) => number | null,
  statB: (idx: Uint32Array) => number | null,
  opts: BootstrapOptions,
): Interval & { p: number | null } {
  const diff = (idx: Uint32Array): number | null => {
    const a = statA(idx);
    const b = statB(idx);
    return a === null || b === null ? null : b - a;
  };
  const { value, draws: ds } = resample(n, diff, opts, 'paired-bootstrap');
  if (value === null) return { value: null, low: null, high: null, n, method: 'bootstrap', p: null };
  const [low, high] = percentiles(ds, opts.level ?? 0.95);
  return { value, low: low ?? value, high: high ?? value, n, method: 'bootstrap', p: bootstrapP(ds) };
}

/**
 * Two-sided bootstrap p-value of "no difference": twice the smaller share of resampled differences on either side
 * of 0 (ties split), capped at 1; 1 when every difference is 0 (a run compared with itself).
 */
function bootstrapP(ds: readonly number[]): number | null {
  if (ds.length === 0) return null;
  let below = 0;
  let above = 0;
  let zero = 0;
  for (const d of ds) {
    if (d < 0) below++;
    else if (d > 0) above++;
    else zero++;
  }
  const lo = (below + zero / 2) / ds.length;
  const hi = (above + zero / 2) / ds.length;
  return Math.min(1, 2 * Math.min(lo, hi));
}

/** Mean of xs at the given indices (all of them when idx is absent); null over none. */
export function mean(xs: readonly number[], idx?: Uint32Array): number | null {
  const n = idx ? idx.length : xs.length;
  if (n === 0) return null;
  let s = 0;
  for (let i = 0; i < n; i++) s += xs[idx ? idx[i]! : i]!;
  return s / n;
}

/** The (1−level)/2 and (1+level)/2 percentiles, linear interpolation between order statistics; null on no data. */
function percentiles(xs: number[], level: number): [number | null, number | null] {
  if (xs.length === 0) return [null, null];
  const s = Float64Array.from(xs).sort();
  const at = (q: number): number => {
    const pos = q * (s.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
  };
  return [at((1 - level) / 2), at((1 + level) / 2)];
}

/** Width of an interval (high − low), or null when it has no bounds. */
export function width(iv: Pick<Interval, 'low' | 'high'>): number | null {
  return iv.low === null || iv.high === null ? null : iv.high - iv.low;
}

/** True when the interval is too wide to read (see {@link TOO_WIDE}) or has no bounds. */
export function tooWide(iv: Pick<Interval, 'low' | 'high'>, limit = TOO_WIDE): boolean {
  const w = width(iv);
  return w === null || w > limit + 1e-12;
}
