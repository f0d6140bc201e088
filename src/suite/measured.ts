/** The checks every suite test gets, whatever its thresholds: it finished, measured something, and not a label swap. */
import type { Registry } from '../recipes/registry/registry.ts';
import { kindOfSummary } from '../kinds/index.ts';
import type { CheckResult, RunGroup } from '../report/html/types.ts';

/**
 * A test that measured nothing fails the gate, whatever its thresholds: a metric over zero examples is no pass; so
 * does one whose classifier scored far below chance on the clean examples (its labels swapped). An
 * experiment measured something when any of its runs did (one point of a curve may attack nothing: a typo source
 * that has no typo for these words).
 */
export function emptyRunChecks(test: string, group: RunGroup, registry: Registry): CheckResult[] {
  const measured = [...group.runs, ...group.stress, ...group.generated].map((run) => ({
    run,
    ...kindOfSummary(run.summary, registry).finished!.gate.measured(run),
  }));
  // Labels paired the wrong way round measure the swap, not the model (issue 34): the test fails, saying so.
  const swapped = group.runs.filter((r) => r.summary.clean_below_chance);
  if (swapped.length) {
    const b = swapped[0]!.summary.clean_below_chance!;
    return [
      {
        test,
        expr: 'clean accuracy above chance',
        passed: false,
        message:
          `${test}: clean accuracy ${(100 * b.accuracy).toFixed(1)}% (n = ${b.n}, upper 95% bound ${(100 * b.high).toFixed(1)}%) is far ` +
          `below chance (${(100 * b.chance).toFixed(1)}% for ${b.classes} classes) in ${swapped.map((r) => r.name).join(', ')} — the ` +
          "model's labels and the data's are most likely paired the wrong way round (check label_map)",
      },
    ];
  }
  const empty = measured.filter((m) => m.n === 0);
  if (!empty.length || empty.length < measured.length) return [];
  const where = empty.map((m) => m.run.name).join(', ');
  return [{ test, expr: 'n > 0', passed: false, message: `${test}: no ${empty[0]!.unit} (0 in ${where}) — nothing was measured` }];
}

/** A test that stopped with an error, and why. */
export interface FailedTest {
  test: string;
  recipe: string;
  reason: string;
}

/** One failed gate check per test that did not finish: a test that could not run is no pass. */
export function failedChecks(failed: readonly FailedTest[]): CheckResult[] {
  return failed.map((f) => ({
    test: f.test,
    expr: 'finished',
    passed: false,
    status: 'fail',
    message: `${f.test}: did not finish — ${f.reason}`,
  }));
}
