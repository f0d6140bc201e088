import type { RunGroup } from '../report/html/types.ts';
import type { CheckResult, Verdict } from '../report/html/types.ts';
import { groupSubject } from '../report/html/load.ts';
import type { RecipeMetric } from '../recipes/registry/define.ts';
import { GATE_METRICS } from '../kinds/attack/gate.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { THRESHOLD_RE } from './schema.ts';

/** A parsed gate check, e.g. "attack_success_rate < 0.4" (see {@link parseThreshold}); percent and points are stored /100. */
export interface Threshold {
  expr: string;
  /** A built-in gate metric or one a recipe adds. */
  metric: string;
  op: '<' | '<=' | '>' | '>=' | '==';
  /** A fixed bound, or the baseline's value plus `margin`. */
  value?: number;
  baseline?: { margin: number };
}

/** "attack_success_rate < 0.4", "stability > 90%", "attacked_accuracy >= baseline - 2pts". Percent and points are /100. */
export function parseThreshold(expr: string, extra: Record<string, RecipeMetric> = {}): Threshold {
  const m = THRESHOLD_RE.exec(expr);
  if (!m || !(m[1]! in GATE_METRICS || m[1]! in extra)) throw new Error(`not a threshold: "${expr}"`);
  const metric = m[1]!;
  const op = m[2] as Threshold['op'];
  if (m[3]) {
    const size = m[5] ? Number(m[5]) / (m[6] ? 100 : 1) : 0;
    return { expr, metric, op, baseline: { margin: m[4] === '-' ? -size : size } };
  }
  return { expr, metric, op, value: Number(m[7]) / (m[8] ? 100 : 1) };
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

/** A baseline's margin as a threshold shows it: " + 0.02", " − 0.02", or nothing. */
const marginText = (m: number): string => (m ? ` ${m > 0 ? '+' : '−'} ${Math.abs(m)}` : '');

const fmt = (metric: string, x: number): string => (metric === 'mean_queries' ? x.toFixed(1) : x.toFixed(3));

/** Evaluates one test's thresholds on its headline run (and on the baseline's test of the same name). */
export function checkTest(
  test: string,
  group: RunGroup,
  exprs: readonly string[],
  baseline: readonly RunGroup[] | undefined,
  extra: Record<string, RecipeMetric> = {},
  registry?: Registry,
): CheckResult[] {
  const run = groupSubject(group, registry);
  return exprs.map((expr) => {
    const t = parseThreshold(expr, extra);
    const actual = run.gate.value(t.metric, run.run, extra);
    if (actual === undefined) {
      return { test, expr, passed: false, message: `${test}: ${expr} — ${t.metric} is not reported by this run` };
    }
    if (actual === null) {
      return { test, expr, passed: false, message: `${test}: ${expr} — ${t.metric} is n/a: ${run.gate.naReason(t.metric, run.run)}` };
    }
    let bound = t.value;
    if (t.baseline) {
      const b = baseline?.find((g) => g.name === test) ?? (baseline?.length === 1 ? baseline[0] : undefined);
      if (!b)
        return { test, expr, passed: false, actual, message: `${test}: ${expr} — no baseline run for this test (pass --baseline DIR)` };
      const br = groupSubject(b, registry);
      const bv = br.gate.value(t.metric, br.run, extra);
      if (bv === undefined)
        return { test, expr, passed: false, actual, message: `${test}: ${expr} — the baseline does not report ${t.metric}` };
      if (bv === null)
        return {
          test,
          expr,
          passed: false,
          actual,
          message: `${test}: ${expr} — the baseline's ${t.metric} is n/a: ${br.gate.naReason(t.metric, br.run)}`,
        };
      bound = bv + t.baseline.margin;
    }
    const passed = holds(t.op, actual, bound!);
    return {
      test,
      expr,
      passed,
      actual,
      bound: bound!,
      message:
        `${test}: ${t.metric} = ${fmt(t.metric, actual)} ${passed ? 'meets' : 'fails'} ${t.op} ` +
        `${fmt(t.metric, bound!)}${t.baseline ? ` (baseline${marginText(t.baseline.margin)})` : ''}`,
    };
  });
}

/** The gate's verdict: passed when every check passed (so also when there is none). */
export function verdictOf(checks: CheckResult[]): Verdict {
  return { passed: checks.every((c) => c.passed), checks };
}

/** The short verdict printed at the end of `textstress run`. */
export function verdictText(v: Verdict): string {
  if (v.checks.length === 0) return 'Gate: no thresholds set.';
  const failed = v.checks.filter((c) => !c.passed);
  if (!failed.length) return `Gate: PASS — all ${v.checks.length} checks hold.`;
  return [`Gate: FAIL — ${failed.length} of ${v.checks.length} checks failed:`, ...failed.map((c) => `  ✗ ${c.message}`)].join('\n');
}
