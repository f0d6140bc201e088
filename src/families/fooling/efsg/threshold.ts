/**
 * T_task of EFSG: the score that a share (0.75 in the paper) of the positive training examples exceed, i.e. the
 * (1 − share) quantile of their target-class scores — with 0.75, the 25th percentile. Quantiles interpolate
 * linearly between order statistics (numpy's default): h = (n − 1)·q, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('a quantile of no values');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile must lie in [0, 1], got ${q}`);
  const x = values.slice().sort((a, b) => a - b);
  const h = (x.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return x[lo]! + (h - lo) * (x[hi]! - x[lo]!);
}

/** The score that `share` of the given positive-example scores exceed. */
export function thresholdAt(positiveScores: readonly number[], share: number): number {
  if (!(share > 0 && share < 1)) throw new RangeError(`the threshold share must lie in (0, 1), got ${share}`);
  return quantile(positiveScores, 1 - share);
}
