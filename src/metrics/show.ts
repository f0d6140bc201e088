/**
 * A figure with its interval as people read it, for the terminal and the report's text:
 * `72.4% [68.1–76.3] n=412`, and `… too few examples (n=15)` when the interval is wider than 20 points.
 */
import { tooWide, TOO_WIDE, type Interval } from '../stats/index.ts';
import { NA, fixed, pct } from '../util/format.ts';

/** How a figure is written: a share (0–1, shown in %), already in percent, or a plain number (a mean). */
export type FigureUnit = 'share' | 'percent' | 'number';

/** The marker beside a figure whose interval is too wide to read. */
export const TOO_FEW = 'too few examples';

/** Whether an interval of a figure in `unit` is too wide to read (20 points for shares and percents; never for plain means). */
export function tooFew(iv: Interval, unit: FigureUnit = 'share'): boolean {
  if (iv.n === 0 || iv.value === null) return false;
  if (unit === 'number') return false;
  return tooWide(iv, unit === 'percent' ? TOO_WIDE * 100 : TOO_WIDE);
}

/** A number in the figure's unit, without its interval. */
function num(x: number | null, unit: FigureUnit, digits: number): string {
  if (unit === 'share') return pct(x, digits);
  if (unit === 'percent') return x === null ? NA : `${x.toFixed(digits)}%`;
  return fixed(x, digits);
}

/** The bounds alone, `[68.1–76.3]` (shares in percent, without the sign). */
export function bounds(iv: Interval, unit: FigureUnit = 'share', digits = 1): string {
  if (iv.low === null || iv.high === null) return '';
  const f = (x: number): string => (unit === 'share' ? (100 * x).toFixed(digits) : x.toFixed(digits));
  return `[${f(iv.low)}–${f(iv.high)}]`;
}

/**
 * `72.4% [68.1–76.3] n=412`; over zero units `n/a (n=0)`; an interval too wide to read ends `too few examples
 * (n=15)` in place of `n=15`. Without an interval (a run written before intervals), the bare figure.
 */
export function withInterval(value: number | null | undefined, iv: Interval | undefined, unit: FigureUnit = 'share', digits = 1): string {
  if (!iv) return num(value ?? null, unit, digits);
  if (iv.value === null) return `${NA} (n=${iv.n})`;
  const head = `${num(value ?? iv.value, unit, digits)} ${bounds(iv, unit, digits)}`;
  return tooFew(iv, unit) ? `${head} ${TOO_FEW} (n=${iv.n})` : `${head} n=${iv.n}`;
}
