/**
 * A figure's 95% interval as the report's cards and tables show it: `[68.1–76.3] n=412` under the figure, and a
 * marked "too few examples (n=15)" when the interval is wider than 20 points (issue 27). Family tables carry the
 * same text (src/metrics/show.ts); tableHtml marks their "too few examples" cells with the same class.
 */
import { bounds, tooFew, TOO_FEW, type FigureUnit } from '../../metrics/show.ts';
import type { Interval } from '../../stats/index.ts';
import { escapeHtml as esc } from './escape.ts';

/** The interval line of a metric tile; '' when the run has no interval for it (written before intervals). */
export function ciHtml(iv: Interval | undefined, unit: FigureUnit = 'share', digits = 1): string {
  if (!iv) return '';
  if (iv.value === null) return `<div class="ci">n=${iv.n}</div>`;
  const b = esc(bounds(iv, unit, digits));
  if (tooFew(iv, unit)) {
    return `<div class="ci few" title="The 95% interval is wider than 20 points: too few examples to read this figure.">${b} ${TOO_FEW} (n=${iv.n})</div>`;
  }
  return `<div class="ci" title="95% interval (${esc(iv.method)}) over ${iv.n} examples">${b} n=${iv.n}</div>`;
}

/** A table cell's extra class: "few" when its text says the figure rests on too few examples. */
export const fewClass = (cell: string): string => (cell.includes(TOO_FEW) ? ' few' : '');
