/** The rate and finish estimate a long run prints (issue 33: time to a useful answer), and how durations read. */
import { describe, expect, it } from 'vitest';
import { progressLine, rateAndEta } from '../../src/cli/progress.ts';
import { expectedSeconds, wallTimeLines } from '../../src/kinds/dry-run-time.ts';
import { duration } from '../../src/util/format.ts';

describe('progress of a long run', () => {
  it('rate and time left from the examples done in this process (a resumed run’s earlier ones left out)', () => {
    // 40 examples done before a resume; 30 more in 60 s: 0.5 a second, 930 to go of 1,000.
    expect(rateAndEta(1000, { done: 40, at: 0 }, { done: 70, at: 60_000 })).toEqual({ perSecond: 0.5, secondsLeft: 1860 });
    expect(rateAndEta(1000, { done: 40, at: 0 }, { done: 40, at: 60_000 })).toBeNull();
  });

  it('one log line with the share done, the rate and the finish time', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    const eta = rateAndEta(872, { done: 0, at: 0 }, { done: 120, at: 60_000 });
    expect(progressLine('typos', 872, 120, 60, eta, now)).toBe(
      'typos: 120 of 872 examples (13.8%) in 1 min 0 s · 2.0 examples/s · finish in ≈ 6 min 16 s (about 10:06 UTC)',
    );
    const slow = rateAndEta(50, { done: 0, at: 0 }, { done: 4, at: 20_000 });
    expect(progressLine('pwws', 50, 4, 20, slow, now)).toBe(
      'pwws: 4 of 50 examples (8.0%) in 20 s · 5.0 s an example · finish in ≈ 3 min 50 s (about 10:03 UTC)',
    );
    expect(progressLine('pwws', 50, 0, 20, null, now)).toBe('pwws: 0 of 50 examples (0.0%) in 20 s');
  });

  it('durations as a person reads them', () => {
    expect([duration(4.26), duration(42.4), duration(119.6), duration(3725), duration(Infinity)]).toEqual([
      '4.3 s',
      '42 s',
      '2 min 0 s',
      '1 h 2 min',
      'n/a',
    ]);
  });
});

describe('what a dry run says of time', () => {
  it('the expectation extrapolates the pilot; the model time is the request bound × the cost per input', () => {
    const e = { n: 872, requests: 40_000, perInput: { seconds: 0.004, inputs: 256, batch: 64 }, pilot: { examples: 20, seconds: 10 } };
    expect(expectedSeconds(e)).toBe(436);
    expect(wallTimeLines(e)).toEqual([
      'Wall time, expected: ≈ 7 min 16 s on this machine now (an expectation, not a bound: 20 of the 872 examples, drawn ' +
        'across the data, ran for real in 10 s, extrapolated; nothing of them was kept).',
      'Model time, at most: ≈ 2 min 40 s (≤ 40,000 requests × 4.00 ms an input, timed on 256 of the inputs this run would ' +
        "send, 64 a batch; the searches' own work is not in it).",
    ]);
    expect(wallTimeLines({ n: 10, requests: 5, notMeasured: 'an endpoint' })).toEqual(['Wall time: not estimated (an endpoint).']);
  });
});
