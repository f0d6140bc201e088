import { Rng } from '../util/rng.ts';
import { studentQuantile } from './student.ts';

/**
 * A figure with its 95% interval and the number of units it was computed over. `value`, `low` and `high` are null
 * when n is 0 (a metric over nothing is "n/a", never a number); `low` and `high` alone are null where no interval
 * can be given (a bootstrap whose every resample gave one value: see BootstrapOptions.degenerate). `method` names
 * how the interval was computed: `wilson` (Wilson's score interval, also at an effective sample size: clustered and
 * stratified shares), `bootstrap` (seeded percentile bootstrap over units), `exact` (distribution-free, from order
 * statistics), `t` (Student's t over a few units, e.g. seeds), `bound` (every unit gave the same value: the share of
 * units that could differ is bounded by Wilson's interval of 0 in n, see {@link sameValueBounds}), `observed` (a
 * count or an extreme of the run itself, not an estimate: low = high = value).
 */
export interface Interval {
  value: number | null;
  low: number | null;
  high: number | null;
  /** The independent units behind the figure (examples, sentences; for clustered cases: the clusters). */
  n: number;
  method: 'wilson' | 'bootstrap' | 'exact' | 't' | 'bound' | 'observed';
  /** Clustered shares: the cases counted, when they are more than the clusters `n` (e.g. several cases per premise). */
  cases?: number;
  /** Clustered or stratified shares: the effective sample size Wilson's interval was taken at. */
  n_eff?: number;
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

/** Wilson's score bounds at a share p (0–1) over an effective sample size nEff > 0 (not necessarily whole). */
export function wilsonBounds(p: number, nEff: number, z = Z95): [number, number] {
  const z2 = z * z;
  const denom = 1 + z2 / nEff;
  const centre = (p + z2 / (2 * nEff)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / nEff + z2 / (4 * nEff * nEff))) / denom;
  return [p <= 0 ? 0 : Math.max(0, centre - half), p >= 1 ? 1 : Math.min(1, centre + half)];
}

/**
 * Wilson interval of a share of cases that come in clusters (several cases made from one premise, one example):
 * Σ correct / Σ cases, the cases of a cluster not independent. Korn & Graubard (1998): Wilson's interval at the
 * effective sample size Σ cases / deff, deff the ratio of the cluster-robust (linearised ratio-estimator) variance to
 * the binomial one, never below 1, and scaled by (z / t_{C−1})² for the C clusters' degrees of freedom. Where the
 * variance cannot be estimated (every case right, or every case wrong: no spread to measure) each cluster counts as
 * one observation (n_eff = C), the most cautious reading. `n` is the number of clusters; with at most one case per
 * cluster this is Wilson's interval over the cases exactly.
 */
export function clusteredWilson(correct: ArrayLike<number>, cases: ArrayLike<number>): Interval {
  let k = 0;
  let m = 0;
  let c = 0;
  let multi = false;
  for (let i = 0; i < cases.length; i++) {
    if (cases[i]! <= 0) continue;
    k += correct[i]!;
    m += cases[i]!;
    c++;
    if (cases[i]! > 1) multi = true;
  }
  if (!multi) return wilson(k, m);
  const p = k / m;
  let nEff = c;
  if (p > 0 && p < 1 && c > 1) {
    let ss = 0;
    for (let i = 0; i < cases.length; i++) if (cases[i]! > 0) ss += (correct[i]! - p * cases[i]!) ** 2;
    const varCluster = ((c / (c - 1)) * ss) / (m * m);
    const varBinomial = (p * (1 - p)) / m;
    nEff = varCluster > 0 ? Math.min(m, m / Math.max(1, varCluster / varBinomial)) : m;
  }
  // Few clusters: the variance is estimated on C − 1 degrees of freedom (Korn & Graubard's correction).
  nEff *= c > 1 ? (Z95 / studentQuantile(0.975, c - 1)) ** 2 : (Z95 / studentQuantile(0.975, 1)) ** 2;
  const [low, high] = wilsonBounds(p, nEff);
  return { value: p, low, high, n: c, method: 'wilson', cases: m, n_eff: nEff };
}

/**
 * Wilson interval of the unweighted mean of several shares (e.g. a probe's accuracy averaged over error types, each
 * over its own test sentences): at Kish's effective sample size T² / Σ 1/n_t for T shares (the mean's variance if
 * they had one rate), which is Σ n_t when the shares are over equally many units — the pooled Wilson interval.
 * Shares over zero units are left out; n is the units of the others together.
 */
export function stratifiedWilson(strata: readonly { hits: number; n: number }[]): Interval {
  const used = strata.filter((s) => s.n > 0);
  const n = used.reduce((a, s) => a + s.n, 0);
  if (used.length === 0) return { value: null, low: null, high: null, n: 0, method: 'wilson' };
  const p = used.reduce((a, s) => a + s.hits / s.n, 0) / used.length;
  const nEff = (used.length * used.length) / used.reduce((a, s) => a + 1 / s.n, 0);
  const [low, high] = wilsonBounds(p, nEff);
  return { value: p, low, high, n, method: 'wilson', ...(used.length > 1 ? { n_eff: nEff } : {}) };
}

/**
 * Bounds for a mean whose n units all gave the same value v, each unit's value lying in [min, max]: the share of
 * units that could give anything else is at most Wilson's upper bound of 0 in n (u), so the mean lies within
 * [v − (v − min)·u, v + (max − v)·u]. What a bootstrap cannot say (its every resample is v), this does, cautiously.
 */
export function sameValueBounds(v: number, n: number, range: readonly [number, number]): { low: number; high: number; method: 'bound' } {
  const u = wilson(0, n).high ?? 1;
  return { low: v - (v - range[0]) * u, high: v + (range[1] - v) * u, method: 'bound' };
}

export interface BootstrapOptions {
  /** Seed of the resampling (same seed, same interval). */
  seed: number | string;
  resamples?: number;
  /** Two-sided level; 0.95 unless told. */
  level?: number;
  /**
   * A zero-width interval (every resample gave the same value: the bootstrap saw no spread, and [v, v] would read
   * as exact): its bounds become unknown (null, the default), a cautious interval of the caller's (e.g.
   * {@link sameValueBounds}, or the interval of a rate it derives from), or are kept where the difference is exactly
   * 0 by construction ('keep': a run compared with itself).
   */
  degenerate?: 'unknown' | 'keep' | (() => { low: number; high: number; method: Interval['method'] } | null);
}

/** The percentile bounds, or what `degenerate` makes of a zero-width pair of them (see BootstrapOptions). */
function bounds(
  value: number,
  n: number,
  [low, high]: [number | null, number | null],
  degenerate: BootstrapOptions['degenerate'],
): Pick<Interval, 'low' | 'high' | 'method'> {
  const lo = low ?? value;
  const hi = high ?? value;
  if (hi - lo > 0 || n === 0 || degenerate === 'keep') return { low: lo, high: hi, method: 'bootstrap' };
  if (degenerate === undefined || degenerate === 'unknown') return { low: null, high: null, method: 'bootstrap' };
  const f = degenerate();
  if (!f) return { low: null, high: null, method: 'bootstrap' };
  return { low: Math.min(f.low, value), high: Math.max(f.high, value), method: f.method };
}

/**
 * Percentile bootstrap over n units (examples): `stat` receives the indices of one resample (with repeats) and
 * returns the statistic or null (undefined on that resample, e.g. F1 with no entity; such resamples are dropped).
 * Resampling whole units keeps the cases of one example together.
 */
export function bootstrap(n: number, stat: (idx: Uint32Array) => number | null, opts: BootstrapOptions): Interval {
  const { value, draws } = resample(n, stat, opts, 'bootstrap');
  if (value === null) return { value: null, low: null, high: null, n, method: 'bootstrap' };
  const b = bounds(value, n, percentiles(draws, opts.level ?? 0.95), opts.degenerate);
  return { value, low: b.low, high: b.high, n, method: b.method };
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

/**
 * Bootstrap interval of a mean of per-unit values (nulls are units without a value and are left out). With `range`
 * (the values' possible range, e.g. [0, 1] for F1), units that all gave one value get {@link sameValueBounds}.
 */
export function bootstrapMean(
  values: readonly (number | null)[],
  opts: BootstrapOptions & { range?: readonly [number, number] },
): Interval {
  const xs = values.filter((v): v is number => v !== null);
  const { range, ...rest } = opts;
  return bootstrap(xs.length, (idx) => mean(xs, idx), {
    ...rest,
    ...(range && !opts.degenerate ? { degenerate: () => sameValueBounds(xs[0]!, xs.length, range) } : {}),
  });
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
  const b = bounds(value, n, percentiles(ds, opts.level ?? 0.95), opts.degenerate);
  return { value, low: b.low, high: b.high, n, method: b.method, p: bootstrapP(ds) };
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

/**
 * Distribution-free 95% interval of the q-quantile of the population the values were drawn from: the order
 * statistics x(l) and x(u) with l, u chosen so that P(l ≤ B < u) ≥ 0.95 for B ~ Binomial(n, q), as narrow as the
 * binomial allows (each tail at most 2.5%). A bound beyond the data is the values' `range` end. `value` is the caller's
 * estimate (e.g. the interpolated quantile).
 */
export function quantileInterval(values: readonly number[], q: number, value: number, range: readonly [number, number]): Interval {
  const n = values.length;
  if (n === 0) return { value: null, low: null, high: null, n: 0, method: 'exact' };
  const x = values.slice().sort((a, b) => a - b);
  // P(B = k) for k = 0…n, in log space (n may be thousands).
  const logP: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    logP.push(logC + (q > 0 ? k * Math.log(q) : k === 0 ? 0 : -Infinity) + (q < 1 ? (n - k) * Math.log(1 - q) : k === n ? 0 : -Infinity));
  }
  const pmf = logP.map((l) => Math.exp(l));
  // l: the largest with P(B ≤ l − 1) ≤ 0.025; u: the smallest with P(B ≥ u) ≤ 0.025 (1-based order statistics).
  let below = 0;
  let l = 0;
  while (l < n && below + pmf[l]! <= 0.025) below += pmf[l++]!;
  let above = 0;
  let u = n + 1;
  while (u - 1 > l && above + pmf[u - 1]! <= 0.025) above += pmf[--u]!;
  return {
    value,
    low: l >= 1 ? x[l - 1]! : range[0],
    high: u <= n ? x[u - 1]! : range[1],
    n,
    method: 'exact',
  };
}
