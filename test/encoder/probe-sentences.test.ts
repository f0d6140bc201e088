import { describe, expect, it } from 'vitest';
import { bestAgainstLayer0 } from '../../src/families/encoder/layers.ts';
import { buildErrorSentences, buildMinimalPairs, pairsToSentences } from '../../src/families/encoder/index.ts';
import { mcnemarExact } from '../../src/stats/index.ts';
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

  it('tests the best contextual layer against layer 0 with exact McNemar on the same sentences', () => {
    const layer0 = [true, true, false, false, false, false, true, false];
    const layer1 = [true, false, true, true, false, true, true, false];
    const layer2 = [true, true, true, true, true, true, true, false];
    const c = bestAgainstLayer0([layer0, layer1, layer2])!;
    expect(c).toEqual({ layer: 2, onlyBest: 4, onlyLayer0: 0, p: mcnemarExact(4, 0) });
    expect(c.p).toBeCloseTo(0.125, 10);
    expect(bestAgainstLayer0([layer0])).toBeUndefined();
  });
});
