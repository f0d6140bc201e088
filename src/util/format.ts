/** Numbers as people read them; a metric over zero examples (null) reads "n/a", never 0. */
export const NA = 'n/a';

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NA : `${(100 * x).toFixed(digits)}%`;
}

/** A figure of unknown unit for a terminal line: integers as they are, others to 3 significant digits. */
export function figure(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NA;
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(3)));
}

export function fixed(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NA : x.toFixed(digits);
}

/** A duration as a person reads it: 42 s, 3 min 5 s, 2 h 10 min. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'n/a';
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  const m = Math.round(seconds / 60);
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
