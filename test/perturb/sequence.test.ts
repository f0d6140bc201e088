import { describe, expect, it } from 'vitest';
import { applyNoise, NOISE_TYPES, TYPO_SOURCE_NAMES, typoCandidates } from '../../src/perturb/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

const TEXT = 'Hello, world!  I don\'t think "it\'s" 42 — Receive the e-mail.';

describe('applyNoise', () => {
  const seq = WordSeq.parse(TEXT);

  it('perturbs every eligible word and keeps spacing and punctuation exactly', () => {
    const { seq: out, changed } = applyNoise(seq, 'middle-random', new Rng(1));
    expect(out.toString()).toBe('Hlleo, wrlod!  I dno\'t tinhk "it\'s" 42 — Rieecve the e-amil.');
    expect(out.gaps).toEqual(seq.gaps);
    expect(changed).toEqual([
      { wordIndex: 0, before: 'Hello', after: 'Hlleo' },
      { wordIndex: 1, before: 'world', after: 'wrlod' },
      { wordIndex: 3, before: "don't", after: "dno't" },
      { wordIndex: 4, before: 'think', after: 'tinhk' },
      { wordIndex: 7, before: 'Receive', after: 'Rieecve' },
      { wordIndex: 9, before: 'e-mail', after: 'e-amil' },
    ]);
  });

  it.each([
    ['swap', 'Hlelo, wolrd!  I dno\'t tihnk "it\'s" 42 — Rceeive the e-amil.'],
    ['fully-random', 'Olhle, drlow!  I tnd\'o htink "is\'t" 42 — Vreeeci hte i-meal.'],
    ['keyboard', 'Hsllo, qorld!  O dln\'t thonk "kt\'s" 42 — Receivd tye e-majl.'],
    ['natural', 'Hellow, worled!  I don\'t htikn "it\'s" 42 — Receice rhe e-mail.'],
  ] as const)('%s with seed 1', (type, expected) => {
    const { seq: out, changed } = applyNoise(seq, type, new Rng(1));
    expect(out.toString()).toBe(expected);
    expect(WordSeq.parse(out.toString()).words).toEqual(out.words); // still the same word split
    for (const c of changed) {
      expect(seq.words[c.wordIndex]).toBe(c.before);
      expect(out.words[c.wordIndex]).toBe(c.after);
      expect(c.after).not.toBe(c.before);
    }
  });

  it('skips protected words, short words and words without letters', () => {
    const { seq: out, changed } = applyNoise(seq, 'keyboard', new Rng(1), {
      protect: (i) => i === 0 || i === 7,
      minLength: 4,
    });
    const touched = changed.map((c) => c.wordIndex);
    expect(touched).not.toContain(0);
    expect(touched).not.toContain(7);
    expect(touched).not.toContain(6); // "42"
    for (const i of touched) expect(seq.words[i]!.length).toBeGreaterThanOrEqual(4);
    expect(out.words[0]).toBe('Hello');
    expect(out.words[6]).toBe('42');
    expect(applyNoise(WordSeq.parse('1999 — 2024!'), 'fully-random', new Rng(1)).changed).toEqual([]);
  });

  it('is deterministic and leaves an empty text alone', () => {
    for (const type of NOISE_TYPES) {
      expect(applyNoise(seq, type, new Rng(5)).seq.toString()).toBe(applyNoise(seq, type, new Rng(5)).seq.toString());
    }
    const empty = WordSeq.parse('  ');
    expect(applyNoise(empty, 'swap', new Rng(1))).toEqual({ seq: empty, changed: [] });
  });
});

describe('typoCandidates', () => {
  const seq = WordSeq.parse(TEXT);

  it('collects candidates of several sources for one word, typed typo:<source>', () => {
    expect(typoCandidates(seq, 9, ['swap', 'deletion', 'pronounce'], new Rng(1))).toEqual([
      { wordIndex: 9, after: 'em-ail', type: 'typo:swap' },
      { wordIndex: 9, after: 'e-amil', type: 'typo:swap' },
      { wordIndex: 9, after: 'e-mial', type: 'typo:swap' },
      { wordIndex: 9, after: 'e-mali', type: 'typo:swap' },
      { wordIndex: 9, after: 'email', type: 'typo:deletion' },
      { wordIndex: 9, after: 'e-ail', type: 'typo:deletion' },
      { wordIndex: 9, after: 'e-mil', type: 'typo:deletion' },
      { wordIndex: 9, after: 'e-mal', type: 'typo:deletion' },
      { wordIndex: 9, after: 'e-mai', type: 'typo:deletion' },
      { wordIndex: 9, after: 'e-mayl', type: 'typo:pronounce' },
      { wordIndex: 9, after: 'e-maill', type: 'typo:pronounce' },
    ]);
  });

  it('lists a string once, under the first source that proposes it', () => {
    const c = typoCandidates(WordSeq.parse('an occasion'), 1, ['deletion', 'pronounce', 'replace-word'], new Rng(1));
    expect(c.filter((x) => x.after === 'ocasion')).toEqual([{ wordIndex: 1, after: 'ocasion', type: 'typo:deletion' }]);
    expect(new Set(c.map((x) => x.after)).size).toBe(c.length);
  });

  it('applies options to every source and keeps the text intact around the word', () => {
    const c = typoCandidates(seq, 7, [...TYPO_SOURCE_NAMES], new Rng(1), { maxCandidates: 2 });
    for (const name of TYPO_SOURCE_NAMES) {
      expect(c.filter((x) => x.type === `typo:${name}`).length).toBeLessThanOrEqual(2);
    }
    expect(new Set(c.map((x) => x.type)).size).toBe(6);
    for (const x of c) {
      expect(x.after).not.toBe('Receive');
      expect(x.after[0]).toMatch(/[A-Z0-9]/);
      const out = seq.replace(7, x.after).toString();
      expect(out.startsWith('Hello, world!  I don\'t think "it\'s" 42 — ')).toBe(true);
      expect(out.endsWith(' the e-mail.')).toBe(true);
    }
    expect(typoCandidates(seq, 7, TYPO_SOURCE_NAMES, new Rng(4))).toEqual(typoCandidates(seq, 7, TYPO_SOURCE_NAMES, new Rng(4)));
  });

  it("maxCandidates: Infinity (the typos recipe's exhaustive) lists every candidate of every source, whatever the seed", () => {
    const defin = WordSeq.parse('a definitely good film');
    const perSource = (opts?: { maxCandidates: number }) =>
      TYPO_SOURCE_NAMES.map((n) => typoCandidates(defin, 1, [n], new Rng(1), opts).length);
    // the default caps: insertion, deletion, replace-word 8, mistype 16, swap and pronounce complete
    expect(perSource()).toEqual([8, 8, 9, 16, 9, 8]);
    expect(perSource({ maxCandidates: Infinity })).toEqual([87, 10, 9, 55, 9, 97]);
    const all = typoCandidates(defin, 1, TYPO_SOURCE_NAMES, new Rng(1), { maxCandidates: Infinity });
    // 267 proposals, 21 of them proposed by an earlier source too
    expect([typoCandidates(defin, 1, TYPO_SOURCE_NAMES, new Rng(1)).length, all.length]).toEqual([58, 246]);
    expect(typoCandidates(defin, 1, TYPO_SOURCE_NAMES, new Rng(2), { maxCandidates: Infinity })).toEqual(all);
  });

  it('gives nothing for one-letter words by default and rejects bad indices', () => {
    expect(typoCandidates(seq, 2, TYPO_SOURCE_NAMES, new Rng(1))).toEqual([]);
    expect(typoCandidates(seq, 2, ['mistype'], new Rng(1), { minLength: 1 })[0]).toEqual({
      wordIndex: 2,
      after: 'U',
      type: 'typo:mistype',
    });
    expect(() => typoCandidates(seq, 10, ['swap'], new Rng(1))).toThrow(RangeError);
    expect(() => typoCandidates(seq, -1, ['swap'], new Rng(1))).toThrow(RangeError);
  });
});
