/**
 * The run summary's intervals on a small fixed set of results: Wilson intervals equal an independent closed form
 * (the roots of the score test's quadratic), bootstrap intervals equal a bootstrap written out here with the same
 * seed (whole examples resampled; for taggers whole sentences with their entity counts), the seed derives from the
 * run's seed, and the terminal shows them with n and the "too few examples" marker.
 */
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import type { EntityCounts } from '../../src/data/entities.ts';
import { summarize } from '../../src/metrics/summary.ts';
import { withInterval } from '../../src/metrics/show.ts';
import { Rng } from '../../src/util/rng.ts';
import { fakeResult } from '../report/fixtures.ts';

const Z = 1.959963984540054;

/** Wilson bounds as the roots of (1 + z²/n)p² − (2p̂ + z²/n)p + p̂² = 0 (the score test inverted). */
function wilsonRoots(k: number, n: number): [number, number] {
  const ph = k / n;
  const a = 1 + (Z * Z) / n;
  const b = -(2 * ph + (Z * Z) / n);
  const c = ph * ph;
  const d = Math.sqrt(b * b - 4 * a * c);
  return [(-b - d) / (2 * a), (-b + d) / (2 * a)];
}

/** A percentile bootstrap written out: B resamples of n indices from the stats module's seed scheme. */
function handBootstrap(n: number, stat: (idx: number[]) => number | null, seed: string, B = 1000): [number, number] {
  const rng = new Rng(`bootstrap\u0001${seed}`);
  const xs: number[] = [];
  for (let b = 0; b < B; b++) {
    const idx = Array.from({ length: n }, () => rng.int(n));
    const s = stat(idx);
    if (s !== null) xs.push(s);
  }
  xs.sort((x, y) => x - y);
  const at = (q: number): number => {
    const pos = q * (xs.length - 1);
    const lo = Math.floor(pos);
    return xs[lo]! + (xs[Math.ceil(pos)]! - xs[lo]!) * (pos - lo);
  };
  return [at(0.025), at(0.975)];
}

const TEXT = 'the film is a warm and quietly funny study of grief';
const edit = (k: number): ExampleResult['edits'] =>
  Array.from({ length: k }, (_, i) => ({ type: 'typo:swap', field: 'text', wordIndex: i + 1, start: 4, before: 'film', after: 'flim' }));

/** 20 results: 4 skipped, 10 attacks failed, 6 succeeded (with 1, 1, 2, 2, 2, 3 edits); queries vary by example. */
const RESULTS: ExampleResult[] = Array.from({ length: 20 }, (_, i) => {
  const status = i < 4 ? 'skipped' : i < 14 ? 'failed' : 'succeeded';
  const edits = status === 'succeeded' ? edit([1, 1, 2, 2, 2, 3][i - 14]!) : [];
  return { ...fakeResult(i, { text: TEXT, status, edits }), queries: 5 + ((i * 7) % 11) };
});

describe('run summary intervals', () => {
  const m = summarize(RESULTS, { seed: 7 });
  const iv = m.intervals!;

  it('are Wilson intervals for shares of examples, equal to the closed form', () => {
    const cases: [keyof typeof iv, number, number][] = [
      ['clean_accuracy', 16, 20],
      ['attacked_accuracy', 10, 20],
      ['attack_success_rate', 6, 16],
      ['stability', 10, 16],
    ];
    for (const [name, k, n] of cases) {
      const got = iv[name] as { value: number; low: number; high: number; n: number; method: string };
      const [low, high] = wilsonRoots(k, n);
      expect(got.method, name).toBe('wilson');
      expect(got.n, name).toBe(n);
      expect(got.value, name).toBe(k / n);
      expect(got.low, name).toBeCloseTo(low, 12);
      expect(got.high, name).toBeCloseTo(high, 12);
    }
    // Every figure's interval holds its figure exactly.
    expect(iv.clean_accuracy!.value).toBe(m.clean_accuracy);
    expect(iv.attack_success_rate!.value).toBe(m.attack_success_rate);
    // The headline metric of a classifier is accuracy: same intervals under the gate's names.
    expect(iv.clean_metric).toEqual(iv.clean_accuracy);
    expect(iv.attacked_metric).toEqual(iv.attacked_accuracy);
  });

  it('give accuracy by edits a Wilson interval per k', () => {
    expect(m.accuracy_by_edits).toEqual([16 / 20, 14 / 20, 11 / 20, 10 / 20]);
    const byK = iv.accuracy_by_edits!;
    expect(byK.map((x) => x.n)).toEqual([20, 20, 20, 20]);
    [16, 14, 11, 10].forEach((k, i) => {
      const [low, high] = wilsonRoots(k, 20);
      expect(byK[i]!.low).toBeCloseTo(low, 12);
      expect(byK[i]!.high).toBeCloseTo(high, 12);
    });
  });

  it('bootstrap means over their own examples, seeded from the run seed and the figure name', () => {
    const queries = RESULTS.map((r) => r.queries);
    const q = iv.mean_queries!;
    expect(q.method).toBe('bootstrap');
    expect(q.n).toBe(20);
    expect(q.value).toBe(m.mean_queries);
    const mean = (xs: number[]) => (idx: number[]) => idx.reduce((s, i) => s + xs[i]!, 0) / idx.length;
    const [low, high] = handBootstrap(20, mean(queries), '7\u0001mean_queries');
    expect(q.low).toBeCloseTo(low, 12);
    expect(q.high).toBeCloseTo(high, 12);
    // Words perturbed: over the 6 successes only (TextAttack's convention), in percent like its figure.
    const pcts = RESULTS.filter((r) => r.status === 'succeeded').map((r) => r.perturbed_word_pct);
    const w = iv.mean_perturbed_word_pct!;
    expect(w.n).toBe(6);
    expect(w.value).toBeCloseTo(m.mean_perturbed_word_pct!, 12);
    const [wl, wh] = handBootstrap(6, mean(pcts), '7\u0001mean_perturbed_word_pct');
    expect(w.low).toBeCloseTo(wl, 12);
    expect(w.high).toBeCloseTo(wh, 12);
    // Same seed, same intervals; another seed, another resampling.
    expect(summarize(RESULTS, { seed: 7 }).intervals).toEqual(iv);
    expect(summarize(RESULTS, { seed: 8 }).intervals!.mean_queries!.low).not.toBe(q.low);
  });

  it('give the metric drop a paired bootstrap (clean − attacked on the same resample)', () => {
    const d = iv.metric_drop!;
    expect(d.n).toBe(20);
    expect(d.value).toBeCloseTo(0.3, 12);
    const rng = new Rng('paired-bootstrap\u00017\u0001metric_drop');
    const ds: number[] = [];
    for (let b = 0; b < 1000; b++) {
      let diff = 0;
      for (let i = 0; i < 20; i++) {
        const r = RESULTS[rng.int(20)]!;
        diff += (r.original_correct ? 1 : 0) - (r.perturbed_correct ? 1 : 0);
      }
      ds.push(diff / 20);
    }
    ds.sort((x, y) => x - y);
    const at = (q: number): number =>
      ds[Math.floor(q * 999)]! + (ds[Math.ceil(q * 999)]! - ds[Math.floor(q * 999)]!) * (q * 999 - Math.floor(q * 999));
    expect(d.low).toBeCloseTo(at(0.025), 12);
    expect(d.high).toBeCloseTo(at(0.975), 12);
    // Paired: the drop's interval is narrower than the two accuracies' intervals side by side would suggest.
    expect(d.high! - d.low!).toBeLessThan(
      iv.clean_accuracy!.high! - iv.attacked_accuracy!.low! - (iv.clean_accuracy!.low! - iv.attacked_accuracy!.high!),
    );
  });

  it('bootstrap corpus entity F1 over whole sentences for taggers', () => {
    const counts: [EntityCounts, EntityCounts][] = [
      [
        { tp: 2, fp: 0, fn: 0 },
        { tp: 1, fp: 1, fn: 1 },
      ],
      [
        { tp: 1, fp: 1, fn: 0 },
        { tp: 1, fp: 1, fn: 0 },
      ],
      [
        { tp: 0, fp: 0, fn: 1 },
        { tp: 0, fp: 1, fn: 1 },
      ],
      [
        { tp: 3, fp: 0, fn: 1 },
        { tp: 2, fp: 0, fn: 2 },
      ],
      [
        { tp: 0, fp: 0, fn: 0 },
        { tp: 0, fp: 1, fn: 0 },
      ],
    ];
    const tagged = counts.map(([c, a], i) => {
      const r = fakeResult(i, { text: TEXT, status: 'failed' });
      return {
        ...r,
        original_prediction: { ...r.original_prediction, entities: c },
        perturbed_prediction: { ...r.perturbed_prediction, entities: a },
      };
    });
    const t = summarize(tagged, { seed: 3 }).intervals!;
    const corpus = (which: 0 | 1) => (idx: number[]) => {
      const s = idx.reduce(
        (acc, i) => ({ tp: acc.tp + counts[i]![which].tp, fp: acc.fp + counts[i]![which].fp, fn: acc.fn + counts[i]![which].fn }),
        {
          tp: 0,
          fp: 0,
          fn: 0,
        },
      );
      return s.tp + s.fp + s.fn ? (2 * s.tp) / (2 * s.tp + s.fp + s.fn) : null;
    };
    expect(t.clean_f1!.value).toBeCloseTo(12 / 15, 12);
    expect(t.clean_f1!.n).toBe(5);
    const [cl, ch] = handBootstrap(5, corpus(0), '3\u0001clean_f1');
    expect(t.clean_f1!.low).toBeCloseTo(cl, 12);
    expect(t.clean_f1!.high).toBeCloseTo(ch, 12);
    const [al, ah] = handBootstrap(5, corpus(1), '3\u0001attacked_f1');
    expect(t.attacked_f1!.low).toBeCloseTo(al, 12);
    expect(t.attacked_f1!.high).toBeCloseTo(ah, 12);
    // The headline metric of a tagger is entity F1.
    expect(t.clean_metric).toEqual(t.clean_f1);
  });

  it('are n/a over zero examples, and the terminal shows n and marks too few examples', () => {
    const none = summarize([]).intervals!;
    expect(none.clean_accuracy).toEqual({ value: null, low: null, high: null, n: 0, method: 'wilson' });
    expect(none.mean_queries).toMatchObject({ value: null, n: 0 });
    expect(withInterval(null, none.clean_accuracy)).toBe('n/a (n=0)');
    const [low, high] = wilsonRoots(16, 20);
    expect(withInterval(m.clean_accuracy, iv.clean_accuracy)).toBe(
      `80.0% [${(100 * low).toFixed(1)}–${(100 * high).toFixed(1)}] too few examples (n=20)`,
    );
    expect(withInterval(0.724, { value: 0.724, low: 0.681, high: 0.763, n: 412, method: 'wilson' })).toBe('72.4% [68.1–76.3] n=412');
    // A mean has no 20-point rule; runs written before intervals show the bare figure.
    expect(withInterval(m.mean_queries, iv.mean_queries, 'number')).toMatch(/^\d+\.\d \[\d+\.\d–\d+\.\d\] n=20$/);
    expect(withInterval(0.5, undefined)).toBe('50.0%');
  });
});
