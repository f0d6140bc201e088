/** The spelling-error rule on hand-made hypotheses, with fixed seeds and exact outputs. */
import { describe, expect, it } from 'vitest';
import { nliSpellingError, type NliPair } from '../../../src/internal.ts';
import { typoEligible } from '../../../src/families/stress/nli/noise.ts';

const pair = (id: string, hypothesis: string): NliPair => ({ id, premise: 'A man sleeps.', hypothesis, label: 'entailment' });
const brief = (p: NliPair, seed: number) => nliSpellingError(p, { seed }).map((s) => [s.variant, s.hypothesis, s.edits]);

describe('spelling error: one swap or keyboard slip in one hypothesis word of 4+ characters', () => {
  const p = pair('n1', 'A man is sleeping on a wooden bench.');

  it.each([
    [0, 'spelling-keyboard', 'A man is skeeping on a wooden bench.', 9, 'sleeping', 'skeeping'],
    [1, 'spelling-keyboard', 'A man is sleeoing on a wooden bench.', 9, 'sleeping', 'sleeoing'],
    [2, 'spelling-keyboard', 'A man is sleeping on a wooxen bench.', 23, 'wooden', 'wooxen'],
    [3, 'spelling-swap', 'A man is sleeping on a wooden bnech.', 30, 'bench', 'bnech'],
  ])('seed %i', (seed, variant, hypothesis, at, from, to) => {
    expect(brief(p, seed)).toEqual([[variant, hypothesis, [{ field: 'hypothesis', at, from, to }]]]);
  });

  it('keeps the premise and the gold label, and is the same for the same seed', () => {
    const [a] = nliSpellingError(p, { seed: 3 });
    expect([a!.id, a!.test, a!.premise, a!.label, a!.labelFrom]).toEqual([
      'n1:spelling-swap',
      'spelling',
      'A man sleeps.',
      'entailment',
      'original',
    ]);
    expect(nliSpellingError(p, { seed: 3 })).toEqual([a]);
  });

  it('a word no inner swap can change ("book") gets a keyboard slip', () => {
    expect(brief(pair('n2', 'a book'), 0)).toEqual([
      ['spelling-keyboard', 'a biok', [{ field: 'hypothesis', at: 2, from: 'book', to: 'biok' }]],
    ]);
  });

  it('no word of 4+ characters with a letter: no pair', () => {
    expect(nliSpellingError(pair('n3', 'It is a cat on a mat'), { seed: 0 })).toEqual([]);
    expect(nliSpellingError(pair('n4', 'Two men'), { seed: 5 })).toEqual([]);
    expect(nliSpellingError(pair('n5', '2024 is 1999'), { seed: 5 })).toEqual([]);
    expect(nliSpellingError(pair('n6', ''), { seed: 0 })).toEqual([]);
  });

  it('which words are eligible', () => {
    expect(['a', 'the', 'cats', "don't", '1999', 'x1y2'].map(typoEligible)).toEqual([false, false, true, true, false, true]);
  });
});
