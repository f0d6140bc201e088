import { describe, expect, it } from 'vitest';
import { bestAgainstLayer0, comparisonText } from '../../src/families/encoder/layers.ts';
import { buildErrorSentences, buildMinimalPairs, pairsToSentences } from '../../src/families/encoder/domain.ts';
import { mcnemarExact, stratifiedWilson, wilson } from '../../src/stats/index.ts';
import { bestHead, headlineIntervals } from '../../src/families/encoder/tables.ts';
import type { TypeResult } from '../../src/families/encoder/layers.ts';
import { clozeIntervals } from '../../src/families/encoder/cloze-generator.ts';
import { SENTENCES } from './sentences.ts';

describe("the paper's probing design: sentences, half of them with 1–2 errors", () => {
  it('gives each type its own sentences, every second one with one or two errors of that type, seeded', () => {
    const opts = { types: ['SVA', 'ArtOrDet', 'Prep'] as const, perType: 4, seed: 1 };
    const r = buildErrorSentences(SENTENCES, opts);
    expect(r).toEqual(buildErrorSentences(SENTENCES, opts));
    expect(r.made).toEqual({ ArtOrDet: 4, Prep: 4, SVA: 4 });
    expect(r.withErrors).toEqual({ ArtOrDet: 2, Prep: 2, SVA: 2 });
    expect(r.sentencesTried).toBe(8);
    expect(
      r.sentences.map((s) => [
        s.id,
        s.type,
        s.split,
        s.label,
        s.errorWords,
        s.edits.map((e) => `${e.op}:${e.before}→${e.after}`),
        s.words.words.join(' '),
      ]),
    ).toEqual([
      ['s7', 'ArtOrDet', 'train', 0, [], [], 'My friends live in a big house near the city'],
      ['s2', 'ArtOrDet', 'train', 1, [3], ['delete:the→'], 'He quickly opened door and left the room'],
      ['s4', 'ArtOrDet', 'train', 0, [], [], 'They are going to the market on Sunday'],
      ['s5', 'ArtOrDet', 'test', 1, [2], ['replace:a→the'], 'We bought the new car last year'],
      ['s7', 'Prep', 'train', 0, [], [], 'My friends live in a big house near the city'],
      // two errors: the later one is placed first, then moved one word on by the earlier insertion
      ['s2', 'Prep', 'train', 1, [3, 8], ['insert:→among', 'insert:→by'], 'He quickly opened among the door and left by the room'],
      ['s4', 'Prep', 'train', 0, [], [], 'They are going to the market on Sunday'],
      ['s5', 'Prep', 'test', 1, [2], ['insert:→out'], 'We bought out a new car last year'],
      ['s7', 'SVA', 'train', 0, [], [], 'My friends live in a big house near the city'],
      ['s4', 'SVA', 'train', 1, [1], ['replace:are→is'], 'They is going to the market on Sunday'],
      ['s1', 'SVA', 'train', 0, [], [], 'She has written three books about the war'],
      ['s0', 'SVA', 'test', 1, [2], ['replace:walk→walks'], 'The children walks to school every morning'],
    ]);
    // the error words are the words that carry an edit
    for (const s of r.sentences.filter((x) => x.label === 1)) {
      const inserted = s.edits.filter((e) => e.op !== 'delete').map((e) => e.after.toLowerCase());
      if (s.edits.every((e) => e.op === 'insert' || e.op === 'replace')) {
        expect(s.errorWords.map((w) => s.words.words[w]!.toLowerCase())).toEqual(inserted);
      }
    }
  });

  it('turns a minimal pair into its two labelled sentences, one group, clean first', () => {
    const set = buildMinimalPairs(SENTENCES.slice(0, 6), { types: ['SVA'], perType: 1, seed: 3 });
    const [clean, error] = pairsToSentences(set.pairs);
    const p = set.pairs[0]!;
    expect([clean!.label, clean!.group, clean!.words]).toEqual([0, p.id, p.clean]);
    expect([error!.label, error!.group, error!.words, error!.errorWords]).toEqual([1, p.id, p.error, p.errorWords]);
  });

  it('chooses the best contextual layer on dev, then tests it against layer 0 with exact McNemar on the test sentences', () => {
    const layer0 = [true, true, false, false, false, false, true, false];
    const layer1 = [true, false, true, true, false, true, true, false];
    const layer2 = [true, true, true, true, true, true, true, false];
    // Layer 2 is best on these (test) sentences, but layer 1 is best on dev: layer 1 is the one compared.
    const c = bestAgainstLayer0([layer0, layer1, layer2], [0.5, 0.8, 0.7])!;
    expect(c).toEqual({ layer: 1, onlyBest: 3, onlyLayer0: 1, p: mcnemarExact(3, 1), chosenOn: 'dev' });
    expect(comparisonText(c)).toBe('L1 vs L0: +2 sentences (3 right only on L1, 1 only on L0), McNemar p 0.625');
    // The case: a loss prints with its sign.
    expect(comparisonText({ layer: 2, onlyBest: 7, onlyLayer0: 14, p: mcnemarExact(7, 14), chosenOn: 'dev' })).toBe(
      `L2 vs L0: −7 sentences (7 right only on L2, 14 only on L0), McNemar p ${mcnemarExact(7, 14).toFixed(3)}`,
    );
    // Ties go to the first layer; no dev score, no comparison.
    expect(bestAgainstLayer0([layer0, layer1, layer2], [0.5, 0.7, 0.7])!.layer).toBe(1);
    expect(bestAgainstLayer0([layer0, layer1], [0.5, null])).toBeUndefined();
    expect(bestAgainstLayer0([layer0], [0.5])).toBeUndefined();
  });
});

describe('the headline best layer and best head: chosen on dev, measured on test, with an interval for the mean over types', () => {
  // A type's per-layer test hits (of n, and of nErr sentences with an error), dev scores, and one layer of two heads.
  const typeOf = (
    type: string,
    [n, nErr]: [number, number],
    acc: number[],
    devAccuracy: number[],
    loc: number[],
    devLocalisation: number[],
    heads: number[],
    headsDev: number[],
  ) => ({
    type,
    counts: { train: 4 * n, dev: n / 2, test: n },
    chance: 0.2,
    accuracy: acc.map((hits) => ({ hits, n })),
    devAccuracy,
    localisation: loc.map((hits) => ({ hits, n: nErr })),
    devLocalisation,
    heads: [heads.map((hits) => ({ hits, n: nErr }))],
    headsDev: [headsDev.map((hits) => ({ hits, n: nErr }))],
  });
  const share = (hits: number, n: number) => ({ hits, n });
  // Two types: on the test sentences layer 2 looks best, on dev layer 1 is; Prep has fewer test sentences.
  const types = [
    typeOf('SVA', [20, 10], [10, 14, 17], [0.5, 0.9, 0.6], [2, 5, 4], [0.1, 0.3, 0.7], [3, 8], [6, 1]),
    typeOf('Prep', [10, 5], [5, 6, 9], [0.5, 0.8, 0.7], [1, 2, 3], [0.2, 0.2, 0.6], [1, 4], [3, 0]),
  ] as unknown as TypeResult[];

  it('the best layer is the one best on dev; its figure is the mean of the types’ test shares, with Kish’s effective n', () => {
    const iv = headlineIntervals(types);
    // Layer 1 (dev means 0.85 vs 0.65), not layer 2 (the best on the test sentences).
    expect(iv.best_layer_accuracy).toEqual(stratifiedWilson([share(14, 20), share(6, 10)]));
    expect(iv.best_layer_accuracy!.value).toBeCloseTo((14 / 20 + 6 / 10) / 2, 12);
    // n_eff = T² / Σ 1/n_t = 4 / (1/20 + 1/10): fewer than the 30 sentences pooled, as the unequal weights cost.
    expect(iv.best_layer_accuracy!.n_eff).toBeCloseTo(4 / (1 / 20 + 1 / 10), 12);
    expect(iv.best_layer_accuracy!.n).toBe(30);
    // Localisation: layer 2 is best on dev there.
    expect(iv.best_layer_localisation!.value).toBeCloseTo((4 / 10 + 3 / 5) / 2, 12);
    expect(iv.layer0_accuracy!.value).toBe(0.5);
  });

  it('the best head is the one best on dev (head 1 here), measured on the test sentences, pooled over types', () => {
    expect(bestHead(types)).toEqual({ layer: 0, head: 0, interval: wilson(4, 15) });
  });
});

describe('cloze intervals', () => {
  it('resamples whole pairs; the value is the pooled mean drop', () => {
    // pair 1: two tokens next to the error (drops 0.2 and 0.4), one far (0); pair 2: one near (0.1), one far (0.05)
    const units: [number, number, number, number][] = [
      [0.6, 2, 0, 1],
      [0.1, 1, 0.05, 1],
    ];
    const iv = clozeIntervals(units, 0);
    expect(iv.near_error_drop.value).toBeCloseTo(0.7 / 3, 12);
    expect(iv.far_drop.value).toBeCloseTo(0.025, 12);
    expect(iv.near_minus_far.value).toBeCloseTo(0.7 / 3 - 0.025, 12);
    // the resamples: both pairs twice (0.1 near, 0.05 far), pair 1 twice (0.3, 0), or the mix
    expect(iv.near_error_drop.low).toBeCloseTo(0.1, 12);
    expect(iv.near_error_drop.high).toBeCloseTo(0.3, 12);
    expect(iv.near_error_drop.n).toBe(2);
    expect(clozeIntervals(units, 0)).toEqual(iv);
    expect(clozeIntervals([], 0).near_error_drop).toMatchObject({ value: null, n: 0 });
  });
});
