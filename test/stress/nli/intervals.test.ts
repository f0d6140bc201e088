/**
 * The stress run's intervals on hand-made result lines: Wilson where each example gives a row at most one case
 * (equal to wilson(k, n)), a bootstrap over whole examples where one gives several, the same seed giving the same
 * interval; no reduction interval for a test without a reduction; accuracy per gold label; accuracy − majority rate.
 */
import { describe, expect, it } from 'vitest';
import type { StressCaseResult, StressResult } from '../../../src/core/stress-suite.ts';
import { StressIntervalTally } from '../../../src/metrics/stress-interval-tally.ts';
import { StressTally } from '../../../src/metrics/stress-summary.ts';
import { wilson } from '../../../src/stats/index.ts';

const c = (test: string, variant: string, gold: string, correct: boolean): StressCaseResult => ({
  test,
  variant,
  text: {},
  gold,
  prediction: correct ? gold : 'other',
  correct,
});
const result = (id: string, orig: boolean, cases: StressCaseResult[]): StressResult => ({
  id,
  original: { text: {}, gold: 'neutral', prediction: 'neutral', correct: orig },
  cases,
  not_applicable: {},
  queries: 1,
  requests: 1,
});

// Six examples: "single" gives one case each; "multi" (no reduction) gives two or three with golds of its own.
const RESULTS = Array.from({ length: 6 }, (_, i) =>
  result(`e${i}`, i % 3 !== 0, [
    c('single', 'single', i % 2 ? 'neutral' : 'entailment', i < 4),
    c('multi', 'multi-a', 'entailment', i % 2 === 0),
    c('multi', 'multi-b', 'neutral', true),
    ...(i < 3 ? [c('multi', 'multi-c', 'contradiction', false)] : []),
  ]),
);

function run(seed: number) {
  const opts = { noReduction: ['multi'] };
  const tally = new StressTally(['single', 'multi'], { confusion: true, ...opts });
  const iv = new StressIntervalTally({ seed, byGold: ['multi'], overMajority: ['single'], ...opts });
  for (const r of RESULTS) {
    tally.add(r);
    iv.add(r);
  }
  return { m: iv.finish(tally.finish()), iv };
}

describe('StressIntervalTally', () => {
  it("Wilson per example, Wilson at the clusters' effective size otherwise (issue 34); reductions by bootstrap; none where a test has none", () => {
    const { m } = run(0);
    expect(m.original.accuracy_interval).toEqual(wilson(4, 6));
    expect(m.tests.single!.accuracy_interval).toEqual(wilson(4, 6));
    expect(m.tests.single!.reduction_interval).toMatchObject({ value: m.tests.single!.reduction, n: 6, method: 'bootstrap' });
    expect(m.tests.multi!.accuracy_interval).toMatchObject({ value: 9 / 15, n: 6, method: 'wilson', cases: 15 });
    expect([m.tests.multi!.reduction, m.tests.multi!.reduction_interval]).toEqual([null, undefined]);
    expect(m.tests.multi!.variants!['multi-c']!.accuracy_interval).toEqual(wilson(0, 3));
    expect(m.max_reduction?.test).toBe('single');
    expect(m.intervals).toEqual({ worst_accuracy: m.tests.multi!.accuracy_interval, max_reduction: m.tests.single!.reduction_interval });
  });

  it('the same seed gives the same intervals; bounds hold the value', () => {
    const a = run(3).m.tests.multi!.accuracy_interval!;
    expect(run(3).m.tests.multi!.accuracy_interval).toEqual(a);
    expect(a.low! <= a.value! && a.value! <= a.high!).toBe(true);
  });

  it('accuracy per gold label, and accuracy − majority rate with a bootstrap interval', () => {
    const { iv } = run(0);
    expect(iv.byGold()).toEqual({
      multi: {
        contradiction: { n: 3, correct: 0, accuracy: 0, accuracy_interval: wilson(0, 3) },
        entailment: { n: 6, correct: 3, accuracy: 0.5, accuracy_interval: wilson(3, 6) },
        neutral: { n: 6, correct: 6, accuracy: 1, accuracy_interval: wilson(6, 6) },
      },
    });
    // single: 4 of 6 right; golds 3 entailment, 3 neutral: majority rate 0.5.
    expect(iv.overMajority('single')).toMatchObject({ n: 6, method: 'bootstrap' });
    expect(iv.overMajority('single').value).toBeCloseTo(4 / 6 - 0.5, 12);
  });
});
