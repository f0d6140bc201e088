import { describe, expect, it } from 'vitest';
import {
  fullyRandomNoise,
  keyboardNoise,
  letterNeighbours,
  middleRandomNoise,
  misspellingsOf,
  naturalNoise,
  NOISE_FUNCTIONS,
  NOISE_TYPES,
  swapNoise,
} from '../../src/perturb/index.ts';
import { Rng } from '../../src/util/rng.ts';

const seeds = (fn: (w: string, r: Rng) => string, w: string) => [1, 2, 3].map((s) => fn(w, new Rng(s)));
const sorted = (w: string) => [...w.toLowerCase()].sort().join('');

describe('swap noise', () => {
  it('swaps one pair of adjacent interior letters (exact, seeded)', () => {
    expect(seeds(swapNoise, 'noise')).toEqual(['niose', 'nosie', 'nosie']);
    expect(seeds(swapNoise, 'inspire')).toEqual(['isnpire', 'insipre', 'insprie']);
    expect(seeds(swapNoise, 'definitely')).toEqual(['deifnitely', 'defintiely', 'definitley']);
  });

  it('skips equal pairs, short words, and keeps case', () => {
    expect(seeds(swapNoise, 'Hello')).toEqual(['Hlelo', 'Hlelo', 'Hlelo']); // the ll pair would change nothing
    expect(swapNoise('book', new Rng(1))).toBe('book');
    expect(swapNoise('the', new Rng(1))).toBe('the');
    expect(swapNoise('NOISE', new Rng(1))).toBe('NIOSE');
    expect(swapNoise("don't", new Rng(1))).toBe("dno't");
  });
});

describe('middle-random noise', () => {
  it('shuffles everything but the first and last letter (exact, seeded)', () => {
    expect(middleRandomNoise('noise', new Rng(1))).toBe('nsioe');
    expect(seeds(middleRandomNoise, 'inspire')).toEqual(['irinpse', 'ipsnrie', 'ipnrsie']);
    expect(seeds(middleRandomNoise, 'Hello')).toEqual(['Hlleo', 'Hlleo', 'Hlelo']);
  });

  it('keeps the ends and the letters, changes the word when it can', () => {
    for (const w of ['noise', 'inspire', 'because', 'definitely', 'abcd', 'Receive']) {
      for (let s = 0; s < 20; s++) {
        const out = middleRandomNoise(w, new Rng(s));
        expect(out).not.toBe(w);
        expect(out[0]).toBe(w[0]);
        expect(out.at(-1)).toBe(w.at(-1));
        expect(sorted(out)).toBe(sorted(w));
      }
    }
    expect(middleRandomNoise('cat', new Rng(1))).toBe('cat');
    expect(middleRandomNoise('book', new Rng(1))).toBe('book');
    expect(middleRandomNoise("don't", new Rng(4))).toMatch(/^d[on]{2}'t$/);
  });
});

describe('fully-random noise', () => {
  it('shuffles all letters (exact, seeded)', () => {
    expect(seeds(fullyRandomNoise, 'noise')).toEqual(['esnio', 'iones', 'ineos']);
    expect(seeds(fullyRandomNoise, 'Hello')).toEqual(['Olhle', 'Lehol', 'Lhoel']);
  });

  it('keeps the letters, apostrophes and hyphens in place, changes the word when it can', () => {
    for (const w of ['noise', 'is', 'because', 'Receive']) {
      for (let s = 0; s < 20; s++) {
        const out = fullyRandomNoise(w, new Rng(s));
        expect(out).not.toBe(w);
        expect(sorted(out)).toBe(sorted(w));
      }
    }
    expect(fullyRandomNoise("it's", new Rng(1))).toMatch(/^[its]{2}'[its]$/);
    expect(fullyRandomNoise('a', new Rng(1))).toBe('a');
    expect(fullyRandomNoise('aaa', new Rng(1))).toBe('aaa');
  });
});

describe('keyboard noise', () => {
  it('replaces one letter by a neighbouring key (exact, seeded)', () => {
    expect(seeds(keyboardNoise, 'noise')).toEqual(['nkise', 'noixe', 'noisd']);
    expect(seeds(keyboardNoise, 'Hello')).toEqual(['Hsllo', 'Helpo', 'Helll']);
  });

  it('changes exactly one letter, to a neighbour, in the same case', () => {
    for (const w of ['noise', 'Hello', 'AIRPORT', 'a', 'x2']) {
      for (let s = 0; s < 20; s++) {
        const out = keyboardNoise(w, new Rng(s));
        expect(out).toHaveLength(w.length);
        const diffs = [...w].map((c, i) => [c, out[i]!] as const).filter(([a, b]) => a !== b);
        expect(diffs).toHaveLength(1);
        const [before, after] = diffs[0]!;
        expect(letterNeighbours(before.toLowerCase())).toContain(after.toLowerCase());
        expect(after === after.toUpperCase()).toBe(before === before.toUpperCase());
      }
    }
    expect(keyboardNoise('123', new Rng(1))).toBe('123');
  });
});

describe('natural noise', () => {
  it('uses a listed human misspelling (exact, seeded)', () => {
    expect(seeds(naturalNoise, 'because')).toEqual(['becacdd', 'becausw', 'ebcuase']);
    expect(seeds(naturalNoise, 'definitely')).toEqual(['definateky', 'definitaley', 'deifnetly']);
    expect(naturalNoise('Receive', new Rng(2))).toBe('Recieve');
    expect(naturalNoise('RECEIVE', new Rng(2))).toBe('RECIEVE');
  });

  it('draws from the list and leaves unlisted words alone', () => {
    for (let s = 0; s < 20; s++) expect(misspellingsOf('because')).toContain(naturalNoise('because', new Rng(s)));
    expect(naturalNoise('cat', new Rng(1))).toBe('cat');
    expect(naturalNoise("don't", new Rng(1))).toBe("don't");
  });
});

describe('noise registry', () => {
  it('lists the five types', () => {
    expect([...NOISE_TYPES]).toEqual(['swap', 'middle-random', 'fully-random', 'keyboard', 'natural']);
    expect(Object.keys(NOISE_FUNCTIONS)).toEqual([...NOISE_TYPES]);
  });

  for (const type of NOISE_TYPES) {
    it(`${type}: same seed, same output; different seeds differ; empty stays empty`, () => {
      const fn = NOISE_FUNCTIONS[type];
      const w = 'definitely';
      expect(fn(w, new Rng(11))).toBe(fn(w, new Rng(11)));
      const outs = new Set([1, 2, 3, 4, 5].map((s) => fn(w, new Rng(s))));
      expect(outs.size).toBeGreaterThan(1);
      expect(fn('', new Rng(1))).toBe('');
    });
  }
});
