import type { RunGroup } from '../report/html/types.ts';
import type { CheckResult, GateStatus, Verdict } from '../report/html/types.ts';
import { groupSubject } from '../report/html/load.ts';
import { fallbackLines } from '../report/html/fallbacks.ts';
import type { RecipeMetric } from '../recipes/registry/define.ts';
import { GATE_METRICS, metricInterval } from '../kinds/attack/gate.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import type { Comparison } from '../report/compare/index.ts';
import { THRESHOLD_RE } from './schema.ts';
import { formatMetric, metricLabel, metricUnit, type MetricUnit } from '../metrics/display.ts';

/**
 * Exit codes of a gated run (`textstress run`, `textstress demo`): 0 every check passed, 1 a check failed (or an
 * error), 3 nothing failed but some check was inconclusive (too few examples to judge). 2 is left to usage errors.
 */
export const GATE_EXIT: Record<GateStatus, number> = { pass: 0, fail: 1, inconclusive: 3 };

/** Gate metrics that measure robustness (behaviour under attack), not only clean performance. */
export const ROBUSTNESS_METRICS: readonly string[] = [
  'attacked_accuracy',
  'attack_success_rate',
  'stability',
  'attacked_metric',
  'metric_drop',
  'attacked_f1',
  'attacked_em',
];

/**
 * Whether a check on this metric checks robustness: the built-in ones above, and every recipe metric except those
 * that describe the clean model or the run itself (`*_original_*`, `clean`, counts of what was probed or generated).
 */
export function isRobustnessMetric(metric: string): boolean {
  if (metric in GATE_METRICS) return ROBUSTNESS_METRICS.includes(metric);
  return !/(^|_)(original|clean)(_|$)|_(probed|sentences|threshold)$/.test(metric);
}
/** A parsed gate check, e.g. "attack_success_rate < 0.4" (see {@link parseThreshold}); percent and points are stored /100. */
export interface Threshold {
  expr: string;
  /** A built-in gate metric or one a recipe adds. */
  metric: string;
  /** The interval bound the check reads (`attack_success_rate.high < 0.3`); absent: the value itself. */
  bound?: 'low' | 'high';
  op: '<' | '<=' | '>' | '>=' | '==';
  /** A fixed bound, or the baseline's value plus `margin`. */
  value?: number;
  baseline?: { margin: number };
}

/** "attack_success_rate < 0.4", "clean_accuracy.low > 0.8", "attacked_accuracy >= baseline - 2pts". Percent and points are /100. */
export function parseThreshold(expr: string, extra: Record<string, RecipeMetric> = {}): Threshold {
  const m = THRESHOLD_RE.exec(expr);
  if (!m || !(m[1]! in GATE_METRICS || m[1]! in extra)) throw new Error(`not a threshold: "${expr}"`);
  const metric = m[1]!;
  const bound = m[2] === 'low' || m[2] === 'high' ? { bound: m[2] as 'low' | 'high' } : {};
  const op = m[3] as Threshold['op'];
  if (m[4]) {
    if (bound.bound) throw new Error(`"${expr}": a baseline check compares values by the paired test; name the metric without .${m[2]}`);
    const size = m[6] ? Number(m[6]) / (m[7] ? 100 : 1) : 0;
    return { expr, metric, op, baseline: { margin: m[5] === '-' ? -size : size } };
  }
  return { expr, metric, ...bound, op, value: Number(m[8]) / (m[9] ? 100 : 1) };
}

const EPS = 1e-9;
function holds(op: Threshold['op'], a: number, b: number): boolean {
  switch (op) {
    case '<':
      return a < b - EPS;
    case '<=':
      return a <= b + EPS;
    case '>':
      return a > b + EPS;
    case '>=':
      return a >= b - EPS;
    case '==':
      return Math.abs(a - b) <= EPS;
  }
}

/**
 * How a check's message names a metric and writes its numbers. The terminal speaks in the suite's own terms (the
 * metric as the threshold names it, fractions: `attack_success_rate = 0.727 fails < 0.400`); the report's banner in
 * words and units (`attack success rate 72.7% fails < 40.0%`), never a snake_case name (issue 34).
 */
interface Voice {
  name(metric: string, bound?: 'low' | 'high'): string;
  num(metric: string, x: number): string;
  /** A baseline's margin: " + 0.02" / " − 2.0 pts", or nothing. */
  margin(metric: string, m: number): string;
  is: string;
  /** Why a check is inconclusive: n below the suite's min_n. */
  few(n: number, minN: number): string;
}

const TERMS: Voice = {
  name: (m, b) => (b ? `${m}.${b}` : m),
  num: (m, x) => (m === 'mean_queries' || m === 'queries_per_success' ? x.toFixed(1) : x.toFixed(3)),
  margin: (_, m) => (m ? ` ${m > 0 ? '+' : '−'} ${Math.abs(m)}` : ''),
  is: ' =',
  few: (n, minN) => `n = ${n} < min_n ${minN}`,
};

function words(extra: Record<string, RecipeMetric>): Voice {
  const unit = (m: string): MetricUnit => metricUnit(m, undefined, extra[m]);
  return {
    name: (m, b) => metricLabel(b ? `${m}.${b}` : m, extra[m]),
    num: (m, x) => formatMetric(x, unit(m)),
    margin: (m, x) =>
      x ? ` ${x > 0 ? '+' : '−'} ${formatMetric(Math.abs(x), unit(m) === 'rate' ? 'points' : unit(m)).replace(/^\+/, '')}` : '',
    is: '',
    few: (n, minN) => `n = ${n} is below the suite's minimum of ${minN}`,
  };
}

/** The message in both voices: `message` for the terminal and verdict.json, `text` for the report. */
const spoken = (say: (v: Voice) => string, extra: Record<string, RecipeMetric>): Pick<CheckResult, 'message' | 'text'> => ({
  message: say(TERMS),
  text: say(words(extra)),
});

export { metricInterval };

/** Options of {@link checkTest}. */
export interface CheckOptions {
  /** Fewest examples behind a metric for its check to pass (default 0: no minimum; suites pass their min_n). */
  minN?: number;
  /** Paired comparisons of this test's run against the baseline's (`baseline` checks then use the paired test). */
  paired?: Comparison;
}

/** Evaluates one test's thresholds on its headline run (and on the baseline's test of the same name). */
export function checkTest(
  test: string,
  group: RunGroup,
  exprs: readonly string[],
  baseline: readonly RunGroup[] | undefined,
  extra: Record<string, RecipeMetric> = {},
  registry?: Registry,
  opts: CheckOptions = {},
): CheckResult[] {
  const run = groupSubject(group, registry);
  const minN = opts.minN ?? 0;
  const fail = (expr: string, say: (v: Voice) => string, more: Partial<CheckResult> = {}): CheckResult => ({
    test,
    expr,
    passed: false,
    status: 'fail',
    ...more,
    ...spoken(say, extra),
  });
  return exprs.map((expr) => {
    const t = parseThreshold(expr, extra);
    const value = run.gate.value(t.metric, run.run, extra);
    const shownExpr = (v: Voice): string => (v === TERMS ? expr : `${v.name(t.metric, t.bound)} ${t.op} ${thresholdText(t, v)}`);
    if (value === undefined) return fail(expr, (v) => `${test}: ${shownExpr(v)} — ${v.name(t.metric)} is not reported by this run`);
    if (value === null)
      return fail(expr, (v) => `${test}: ${shownExpr(v)} — ${v.name(t.metric)} is n/a: ${run.gate.naReason(t.metric, run.run)}`);
    // Every check needs the metric's n (its own units: the attacked examples for attack_success_rate, the premises
    // of a competence test …): a metric whose n is not known is refused, never judged on its value alone.
    const iv = run.gate.interval(t.metric, run.run, extra);
    if (!iv) {
      return fail(
        expr,
        (v) =>
          `${test}: ${shownExpr(v)} — refused: the number of examples behind ${v.name(t.metric)} is not known (its run's summary.json carries ` +
          'no interval for it: a run written before intervals, or a metric declared without one), so no check on it can pass',
      );
    }
    const n = iv.n;
    const enough = n >= minN;
    const ivPart = { interval: iv };
    if (t.baseline) return baselineCheck(test, t, value, n, baseline, extra, registry, opts, ivPart);
    let actual = value;
    if (t.bound) {
      const b = iv[t.bound];
      if (b === null) {
        const why = iv.method === 'bootstrap' ? ' (every resample gave the same value, so the bootstrap cannot bound it)' : '';
        return {
          test,
          expr,
          passed: false,
          status: 'inconclusive',
          n,
          ...spoken((v) => `${test}: ${shownExpr(v)} — no interval is known for ${v.name(t.metric)}${why}`, extra),
        };
      }
      actual = b;
    }
    const ok = holds(t.op, actual, t.value!);
    // Below min_n a check is inconclusive whichever way it points: too few examples to judge a pass or a fail.
    const status: GateStatus = !enough ? 'inconclusive' : ok ? 'pass' : 'fail';
    const shown = (v: Voice): string =>
      iv.low !== null && iv.high !== null && iv.value !== null
        ? ` (${v.num(t.metric, iv.value)} [${v.num(t.metric, iv.low)}, ${v.num(t.metric, iv.high)}], n = ${n})`
        : ` (n = ${n})`;
    const nPart = status === 'inconclusive' ? ` (n = ${n})` : '';
    const verb = status === 'pass' ? 'meets' : status === 'fail' ? 'fails' : ok ? 'would meet' : 'would fail';
    const why = (v: Voice): string => (status === 'inconclusive' ? ` — inconclusive: ${v.few(n, minN)}, too few examples to judge` : '');
    return {
      test,
      expr,
      passed: status === 'pass',
      status,
      actual,
      bound: t.value!,
      n,
      ...ivPart,
      // A plain check that passes or fails reads as before; n is shown where it decides or an interval was read.
      ...spoken(
        (v) =>
          `${test}: ${v.name(t.metric, t.bound)}${v.is} ${v.num(t.metric, actual)}${t.bound ? shown(v) : nPart} ${verb} ${t.op} ` +
          `${v.num(t.metric, t.value!)}${why(v)}`,
        extra,
      ),
    };
  });
}

/** The right-hand side of a threshold in a voice: a number, or "baseline ± margin". */
function thresholdText(t: Threshold, v: Voice): string {
  return t.baseline ? `baseline${v.margin(t.metric, t.baseline.margin)}` : v.num(t.metric, t.value!);
}

/**
 * `METRIC OP baseline ± margin`. With a paired comparison of the two runs (same examples) and a per-example metric,
 * a check whose values miss the bound fails only when the miss is beyond sampling noise: without a margin, when the
 * paired test (exact McNemar / paired bootstrap, Holm-adjusted) finds the difference significant; with a margin,
 * when the paired difference's 95% interval lies wholly beyond it. A miss within noise passes (says so). Otherwise (stress and
 * generator runs, or no comparison) the raw values are compared as before.
 */
function baselineCheck(
  test: string,
  t: Threshold,
  actual: number,
  n: number,
  baseline: readonly RunGroup[] | undefined,
  extra: Record<string, RecipeMetric>,
  registry: Registry | undefined,
  opts: CheckOptions,
  ivPart: Partial<CheckResult>,
): CheckResult {
  const expr = t.expr;
  const shownExpr = (v: Voice): string => (v === TERMS ? expr : `${v.name(t.metric)} ${t.op} ${thresholdText(t, v)}`);
  const fail = (message: (v: Voice) => string): CheckResult => ({
    test,
    expr,
    passed: false,
    status: 'fail',
    actual,
    ...spoken((v) => `${test}: ${shownExpr(v)} — ${message(v)}`, extra),
  });
  const b = baseline?.find((g) => g.name === test) ?? (baseline?.length === 1 ? baseline[0] : undefined);
  if (!b) return fail(() => 'no baseline run for this test (pass --baseline DIR)');
  const br = groupSubject(b, registry);
  const bv = br.gate.value(t.metric, br.run, extra);
  if (bv === undefined) return fail((v) => `the baseline does not report ${v.name(t.metric)}`);
  if (bv === null) return fail((v) => `the baseline's ${v.name(t.metric)} is n/a: ${br.gate.naReason(t.metric, br.run)}`);
  const bound = bv + t.baseline!.margin;
  const within = holds(t.op, actual, bound);
  const paired = opts.paired?.metrics.find((m) => m.metric === t.metric);
  const minN = opts.minN ?? 0;
  const judged = (status: GateStatus, more: Partial<CheckResult>, say: (v: Voice) => string): CheckResult => ({
    test,
    expr,
    passed: status === 'pass',
    status,
    actual,
    bound,
    ...more,
    ...ivPart,
    ...spoken(say, extra),
  });
  const base = (v: Voice): string =>
    `${test}: ${v.name(t.metric)}${v.is} ${v.num(t.metric, actual)} vs baseline ${v.num(t.metric, bv)}${v.margin(t.metric, t.baseline!.margin)}`;
  if (paired && paired.p_holm !== null) {
    const pn = paired.diff.n;
    const m = t.baseline!.margin;
    const d = paired.diff;
    // Margin 0: the paired test decides. A margin: the paired difference's 95% interval must lie wholly beyond it.
    const beyond =
      m === 0
        ? paired.significant
        : d.low !== null &&
          d.high !== null &&
          (t.op === '<' || t.op === '<=' ? d.low > m + EPS : t.op === '==' ? d.low > m + EPS || d.high < m - EPS : d.high < m - EPS);
    // Below min_n: inconclusive whichever way the paired test points.
    const status: GateStatus = pn < minN ? 'inconclusive' : !within && beyond ? 'fail' : 'pass';
    const diffNum = (v: Voice, x: number): string => (v === TERMS ? v.num(t.metric, x) : v.margin(t.metric, x).trim() || '0');
    const test_ = (v: Voice): string =>
      `paired ${paired.test === 'mcnemar' ? 'exact McNemar' : 'bootstrap'} over ${pn} examples, p (Holm) = ${paired.p_holm!.toPrecision(3)}` +
      (m === 0 || d.low === null ? '' : `; difference ${diffNum(v, d.value!)} [${diffNum(v, d.low)}, ${diffNum(v, d.high!)}]`);
    const said = (v: Voice): string =>
      status === 'fail'
        ? `fails ${t.op} (${m === 0 ? 'significant' : 'the whole 95% interval of the difference is beyond the margin'}: ${test_(v)})`
        : status === 'inconclusive'
          ? `${!within && beyond ? 'would fail' : 'would meet'} ${t.op} — inconclusive: ${v.few(pn, minN)}, too few examples to judge (${test_(v)})`
          : within
            ? `meets ${t.op} (${test_(v)})`
            : `meets ${t.op} within sampling noise: the shortfall is not significant (${test_(v)})`;
    return judged(status, { n: pn, p: paired.p_holm }, (v) => `${base(v)} ${said(v)}`);
  }
  const status: GateStatus = n < minN ? 'inconclusive' : !within ? 'fail' : 'pass';
  const said = (v: Voice): string =>
    status === 'fail'
      ? 'fails'
      : status === 'pass'
        ? 'meets'
        : `${within ? 'would meet' : 'would fail'} (inconclusive: ${v.few(n, minN)}, too few examples to judge)`;
  return judged(status, { n }, (v) => `${base(v)} ${said(v)} ${t.op} (raw values: no paired test for this run)`);
}

/** A check's status (checks written before statuses existed: from `passed`). */
export const statusOf = (c: CheckResult): GateStatus => c.status ?? (c.passed ? 'pass' : 'fail');

/** The gate's verdict: fail if a check failed, else inconclusive if one was, else pass (also when there is none). */
export function verdictOf(checks: CheckResult[], extra: Record<string, RecipeMetric> = {}): Verdict {
  const statuses = checks.map(statusOf);
  const status: GateStatus = statuses.includes('fail') ? 'fail' : statuses.includes('inconclusive') ? 'inconclusive' : 'pass';
  // The metrics named (not the "n > 0" check every test gets).
  const checked = [...new Set(checks.map((c) => THRESHOLD_RE.exec(c.expr)?.[1]).filter((m): m is string => !!m && m !== 'n'))];
  const checked_labels = checked.map((m) => metricLabel(m, extra[m]));
  return { passed: status === 'pass', status, checked, checked_labels, robustness: checked.some(isRobustnessMetric), checks };
}

/** The short verdict printed at the end of `textstress run`. */
export function verdictText(v: Verdict): string {
  if (v.checks.length === 0) return 'Gate: no thresholds set.';
  const failed = v.checks.filter((c) => statusOf(c) === 'fail');
  const unsure = v.checks.filter((c) => statusOf(c) === 'inconclusive');
  const lines: string[] = [];
  if (failed.length)
    lines.push(`Gate: FAIL — ${failed.length} of ${v.checks.length} checks failed:`, ...failed.map((c) => `  ✗ ${c.message}`));
  if (unsure.length) {
    lines.push(
      `Gate: ${failed.length ? '' : 'INCONCLUSIVE — '}${unsure.length} of ${v.checks.length} checks inconclusive ` +
        '(too few examples to judge; exit code 3 when nothing failed):',
      ...unsure.map((c) => `  ? ${c.message}`),
    );
  }
  if (!lines.length) lines.push(`Gate: PASS — all ${v.checks.length} checks hold.`);
  lines.push(...fallbackLines(v));
  if (v.robustness === false)
    lines.push('Gate: note — no check reads a robustness metric (attack success, accuracy under attack, stability …).');
  return lines.join('\n');
}
