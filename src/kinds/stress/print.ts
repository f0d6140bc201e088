/** What the terminal shows for a stress run: the recipe's own table (e.g. NLI's Table 2), else one row per test. */
import { join } from 'node:path';
import type { StressSummary } from '../../metrics/stress-summary.ts';
import { RESULTS_FILE, SUMMARY_FILE } from '../../runner/per-example.ts';
import { pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';
import type { Printed } from '../types.ts';
import { emptyRunWarnings } from '../print.ts';

/** The terminal's text for a finished stress run in `dir`. */
export function printStressRun(run: { dir: string; summary: StressSummary; text?: string }, opts: { json: boolean }): Printed {
  const { failed, warnings } = emptyRunWarnings(run.summary);
  if (opts.json) return { text: JSON.stringify(run.summary, null, 2), warnings, failed };
  const table = run.text ?? stressTable(run.summary);
  return { text: `${table}\nResults: ${join(run.dir, SUMMARY_FILE)}, ${join(run.dir, RESULTS_FILE)}`, warnings, failed };
}

/**
 * A stress run as a grid: the original accuracy, then one row per test with its cases, accuracy, the original
 * accuracy on the same examples, the reduction from it, and the examples it did not apply to. Suites with a
 * layout of their own (NLI: the paper's Table 2) print that instead.
 */
export function stressTable(s: StressSummary): string {
  const rows = [['original', String(s.original.n), pct(s.original.accuracy), '', '', '']];
  for (const [test, t] of Object.entries(s.tests)) {
    rows.push([test, String(t.n), pct(t.accuracy), pct(t.original_accuracy), pct(t.reduction), String(t.not_applicable)]);
  }
  return [
    `textstress · ${s.recipe} · ${s.model} on ${s.dataset} · ${s.n} examples, ${s.cases} cases · ${s.wall_seconds.toFixed(1)} s`,
    formatGrid(['test', 'cases', 'accuracy', 'original (same examples)', 'reduction', 'not applicable'], rows),
  ].join('\n');
}
