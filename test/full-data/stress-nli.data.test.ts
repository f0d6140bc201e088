/**
 * `textstress stress nli` on the whole SICK TEST split (4,906 pairs) with the 3-way demo-sick model, as the
 * issue's acceptance command runs it. Honest checks only: counts that must add up, the original accuracy equal to
 * what `eval` measures for the model (its metrics.json), every rate in [0, 1], every reduction equal to
 * (original − accuracy) / original on the same pairs, confusion rows that sum to one, and the premise-removed
 * majority class equal to SICK TEST's own. No ordering between the tests is assumed.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import type { StressCell, StressSummary } from '../../src/metrics/stress-summary.ts';
import { ROOT, runCli, tmp, type CliResult } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

const TESTS = ['word-overlap', 'negation', 'length-mismatch', 'tautology', 'spelling', 'antonymy', 'numerical', 'premise-removed'];
const metrics = (
  JSON.parse(readFileSync(join(ROOT, 'models', 'demo-sick', 'metrics.json'), 'utf8')) as {
    metrics: { test_accuracy: number; test_examples: number; test_majority_class_rate: number };
  }
).metrics;
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function checkCell(name: string, c: StressCell, withOriginal: boolean): void {
  const rates = [c.accuracy, ...(withOriginal ? [c.original_accuracy] : [])];
  for (const r of rates) {
    expect(r, name).not.toBeNull();
    expect(r!, name).toBeGreaterThanOrEqual(0);
    expect(r!, name).toBeLessThanOrEqual(1);
  }
  expect(c.accuracy, name).toBe(c.correct / c.n);
  // The competence tests have no reduction (their golds are the rules').
  if (withOriginal && ['antonymy', 'numerical'].includes(name)) expect(c.reduction, name).toBeNull();
  else if (withOriginal) expect(c.reduction!, name).toBeCloseTo((c.original_accuracy! - c.accuracy!) / c.original_accuracy!, 12);
  expect(c.accuracy_interval?.value, name).toBe(c.accuracy);
  let n = 0;
  for (const [gold, row] of Object.entries(c.confusion ?? {})) {
    n += row.n;
    expect(
      Object.values(row.predicted).reduce((a, b) => a + b, 0),
      `${name} ${gold}`,
    ).toBeCloseTo(1, 12);
  }
  expect(n, name).toBe(c.n);
}

describe('stress nli on the whole SICK TEST split with demo-sick', () => {
  const out = tmp('stress-nli-full');
  let run: CliResult;
  beforeAll(async () => {
    run = await runCli([
      'stress',
      'nli',
      '--model',
      'models/demo-sick',
      '--data',
      shared('sick/SICK.txt'),
      '--split',
      'TEST',
      '--out',
      out,
      '--no-progress',
    ]);
  }, 1_200_000);

  it('tests every pair; each test applies to a pair or says why not', async () => {
    expect(run.code, run.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as StressSummary;
    expect(s.n).toBe(metrics.test_examples);
    expect(Object.keys(s.tests)).toEqual(TESTS);
    for (const test of TESTS) expect([test, s.tests[test]!.examples + s.tests[test]!.not_applicable]).toEqual([test, s.n]);
    // One case per pair for the single-case tests, 2 × 5 for the sweep, 5 to 7 per pair for numerical reasoning
    // (at least, more than N−1 for N ≥ 3, more/fewer than, a changed count, and each entailed pair turned round).
    for (const test of ['word-overlap', 'negation', 'length-mismatch', 'spelling', 'antonymy', 'premise-removed'])
      expect([test, s.tests[test]!.n]).toEqual([test, s.tests[test]!.examples]);
    expect(s.tests.tautology!.n).toBe(10 * s.n);
    expect(s.tests.numerical!.n).toBeGreaterThanOrEqual(5 * s.tests.numerical!.examples);
    expect(s.tests.numerical!.n).toBeLessThanOrEqual(7 * s.tests.numerical!.examples);
    expect(Object.keys(s.tests.numerical!.confusion!)).toEqual(['contradiction', 'entailment', 'neutral']);
    expect(s.cases).toBe(TESTS.reduce((a, t) => a + s.tests[t]!.n, 0));
    let lines = 0;
    let cases = 0;
    for await (const line of createInterface({ input: createReadStream(join(out, 'results.jsonl')) })) {
      lines++;
      cases += (JSON.parse(line) as StressResult).cases.length;
    }
    expect([lines, cases]).toEqual([s.n, s.cases]);
  });

  it('the original accuracy is the model’s SICK TEST accuracy; rates, reductions and confusions are consistent', () => {
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as StressSummary;
    expect(round4(s.original.accuracy!)).toBe(metrics.test_accuracy);
    expect(round4(s.original.majority!.rate)).toBe(metrics.test_majority_class_rate);
    checkCell('original', s.original, false);
    for (const test of TESTS) checkCell(test, s.tests[test]!, true);
    for (const [v, c] of Object.entries(s.tests.tautology!.variants!)) checkCell(v, c, true);
    // Tests that apply to every pair are measured against the original accuracy itself.
    for (const test of ['word-overlap', 'negation', 'length-mismatch', 'tautology', 'premise-removed'])
      expect([test, s.tests[test]!.original_accuracy]).toEqual([test, s.original.accuracy]);
    const d = s.details as {
      sweep: { premise: { n: number; accuracy: number }[] };
      premise_removed: { majority: { rate: number }; over_majority: number };
    };
    expect(d.sweep.premise.map((p) => p.n)).toEqual([1, 2, 3, 4, 5]);
    expect(d.sweep.premise[4]!.accuracy).toBe(s.tests['length-mismatch']!.accuracy);
    expect(d.premise_removed.majority.rate).toBe(s.original.majority!.rate);
    expect(run.stdout).toContain('Table 2: accuracy per stress test (% reduction from the original accuracy on the same pairs)');
    expect(run.stdout).toContain(
      `3-way labels (entailment, neutral, contradiction) · premise: sentence_A · hypothesis: sentence_B · 4906 pairs, ${s.cases} cases`,
    );
  });
});
