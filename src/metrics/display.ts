/**
 * How a figure or a setting is written for people, in one place (issue 34): every page, table, chart axis and banner
 * names a metric by its label ("attack success rate", not `attack_success_rate`) and writes it in its unit — a share
 * as a percentage, a difference of shares in points, a count as a whole number, a layer as its index — never by the
 * type of the number (`424.000` pairs, `0.400` beside `90.7%`). Settings are named in words, not camelCase.
 */
import { GATE_METRICS } from './names.ts';

/** How a figure is written: a share (0–1, in %), a difference of shares (points), a count, a layer index, or a plain number. */
export type MetricUnit = 'rate' | 'points' | 'count' | 'index' | 'number';

/** What a recipe may declare about a metric it reports (RecipeMetric carries these). */
export interface MetricDisplay {
  label?: string;
  unit?: MetricUnit;
  description?: string;
}

/** The built-in gate metrics' labels and units. */
export const GATE_METRIC_DISPLAY: Readonly<Record<keyof typeof GATE_METRICS, { label: string; unit: MetricUnit }>> = {
  clean_accuracy: { label: 'clean accuracy', unit: 'rate' },
  attacked_accuracy: { label: 'accuracy under attack', unit: 'rate' },
  attack_success_rate: { label: 'attack success rate', unit: 'rate' },
  stability: { label: 'stability', unit: 'rate' },
  clean_metric: { label: 'clean metric', unit: 'rate' },
  attacked_metric: { label: 'metric under attack', unit: 'rate' },
  metric_drop: { label: 'drop under attack', unit: 'points' },
  clean_f1: { label: 'clean F1', unit: 'rate' },
  attacked_f1: { label: 'F1 under attack', unit: 'rate' },
  clean_em: { label: 'clean exact match', unit: 'rate' },
  attacked_em: { label: 'exact match under attack', unit: 'rate' },
  mean_perturbed_word_pct: { label: 'words edited (mean share)', unit: 'rate' },
  mean_queries: { label: 'queries per example', unit: 'number' },
  queries_per_success: { label: 'queries per successful attack', unit: 'number' },
};

const isGate = (name: string): name is keyof typeof GATE_METRICS => Object.prototype.hasOwnProperty.call(GATE_METRIC_DISPLAY, name);

/** A name in words: `best_layer_accuracy` → "best layer accuracy", `layer0_accuracy` → "layer 0 accuracy", `maxWords` → "max words". */
export function inWords(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b([A-Z])([a-z])/g, (_, a: string, b: string) => a.toLowerCase() + b);
}

/** A metric's label: a built-in's, the recipe's declared one, else its name in words. `.low` / `.high` name the bound. */
export function metricLabel(name: string, declared?: MetricDisplay): string {
  const bound = /\.(low|high)$/.exec(name)?.[1];
  const base = bound ? name.slice(0, -bound.length - 1) : name;
  const label = isGate(base) ? GATE_METRIC_DISPLAY[base].label : (declared?.label ?? inWords(base));
  return bound ? `${label} (${bound === 'low' ? 'lower' : 'upper'} 95% bound)` : label;
}

/**
 * A metric's unit: a built-in's or the recipe's declared one, else read from its name and value (whole numbers of
 * counted things are counts, `…_layer` an index; accuracies, shares, rates and chance are rates; drops, reductions
 * and differences points).
 */
export function metricUnit(name: string, value?: unknown, declared?: MetricDisplay): MetricUnit {
  const base = name.replace(/\.(low|high)$/, '');
  if (isGate(base)) return GATE_METRIC_DISPLAY[base].unit;
  if (declared?.unit) return declared.unit;
  if (/(^|_)layer$/.test(base)) return 'index';
  if (
    /(^|_)(n|count|pairs|sentences|queries|steps|records|cases|probed|used|skipped|generated|epochs)(_|$)/.test(base) &&
    !/_(rate|share)$/.test(base)
  )
    return 'count';
  if (/(accuracy|localisation|localization|fraction|share|rate|stability|chance|precision|recall|f1|em)$/.test(base)) return 'rate';
  if (/(drop|minus_far|reduction|change|gap|diff)$/.test(base)) return 'points';
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) > 1) return 'count';
  return 'number';
}

/** A plain number with three significant digits at most (0.907, 12.3, 1,234). */
function plain(x: number): string {
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const a = Math.abs(x);
  return a >= 100 ? Math.round(x).toLocaleString('en-US') : Number(x.toPrecision(3)).toString();
}

/** A figure in its unit: 61.2%, +0.9 pts, 7,040, 3, 0.907; "n/a" for null. */
export function formatMetric(value: unknown, unit: MetricUnit, digits = 1): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value === null || value === undefined ? 'n/a' : String(value);
  switch (unit) {
    case 'rate':
      return `${(value * 100).toFixed(digits)}%`;
    case 'points': {
      const shown = Math.abs(value * 100).toFixed(digits);
      // A difference that rounds to zero is written without a sign (not "−0.0 pts").
      return `${Number(shown) === 0 ? '' : value > 0 ? '+' : '−'}${shown} pts`;
    }
    case 'count':
      return Math.round(value).toLocaleString('en-US');
    case 'index':
      return String(value);
    case 'number':
      return plain(value);
  }
}

/** A bound of an interval in its unit, without the sign or unit of a share (`[81.2–96.8]`'s parts), for intervals. */
export function formatBound(value: number, unit: MetricUnit, digits = 1): string {
  const text = unit === 'rate' || unit === 'points' ? (value * 100).toFixed(digits) : formatMetric(value, unit, digits);
  return text.replace(/^-(?=\d)/, '−').replace(/^−(0\.0*)$/, '$1');
}

/** A setting's name in words (`maxWords` → "max words", `errorTypes` → "error types"). */
export const settingLabel = (key: string): string => inWords(key);

/** A setting's value as a person reads it: yes/no for booleans, lists joined, objects as JSON. */
export function settingValue(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
