/** Numbers as people read them; a metric over zero examples (null) reads "n/a", never 0. */
export const NA = 'n/a';

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NA : `${(100 * x).toFixed(digits)}%`;
}

export function fixed(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NA : x.toFixed(digits);
}
