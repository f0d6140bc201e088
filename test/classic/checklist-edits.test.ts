/** CheckList's edits: contractions, numbers (digits and words) and the spans of names and places. */
import { describe, expect, it } from 'vitest';
import { contract, expand } from '../../src/perturb/classic/contractions.ts';
import { alterNumber, isNumberWord, numberInWords, parseNumberWords } from '../../src/perturb/classic/numbers.ts';
import { findNumbers, namesAndPlaces } from '../../src/families/classic/checklist-edits.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

describe('contractions and expansions', () => {
  it('expands one word, keeping the first letter’s case; Penn Treebank’s "n\'t" too', () => {
    expect(expand("don't")).toBe('do not');
    expect(expand('Don’t')).toBe('Do not');
    expect(expand("I'm")).toBe('I am');
    expect(expand("can't")).toBe('cannot');
    expect(expand("n't")).toBe('not');
    expect(expand('film')).toBeUndefined();
  });

  it('contracts two words (or "can not" never: cannot is one word), and never produces "n\'t"', () => {
    expect(contract(['I', 'do', 'not', 'know'], 1)).toEqual({ span: 2, after: "don't" });
    expect(contract(['It', 'is', 'fine'], 0)).toEqual({ span: 2, after: "It's" });
    expect(contract(['I', 'am'], 0)).toEqual({ span: 2, after: "I'm" });
    expect(contract(['is', 'not'], 0)).toEqual({ span: 2, after: "isn't" });
    expect(contract(['do', 'it'], 0)).toBeUndefined();
    expect(contract(['do'], 0)).toBeUndefined();
  });
});

describe('numbers', () => {
  it('reads number words, hyphenated or not, with "and"', () => {
    expect(parseNumberWords(['twenty', 'five'])).toBe(25);
    expect(parseNumberWords(['twenty-five'])).toBe(25);
    expect(parseNumberWords(['one', 'hundred', 'and', 'five'])).toBe(105);
    expect(parseNumberWords(['three', 'thousand', 'two', 'hundred'])).toBe(3200);
    expect(parseNumberWords(['hundred'])).toBeUndefined();
    expect(parseNumberWords(['film'])).toBeUndefined();
    expect(isNumberWord('Seven')).toBe(true);
    expect(isNumberWord('someone')).toBe(false);
    expect(numberInWords(25)).toBe('twenty-five');
  });

  it('alters as TextAttack: n draws from [max(x − c, 1), x + c), c = ⌊x · maxChange⌋ + 1; never 0, 2 or 4', () => {
    const rng = new Rng(5);
    const xs = alterNumber(12, rng);
    expect(xs).toHaveLength(3);
    for (const x of xs) expect(x >= 1 && x < 25).toBe(true);
    expect(alterNumber(12, new Rng(5))).toEqual(xs);
    const near = alterNumber(100, new Rng(1), 20, 0.2);
    for (const x of near) expect(x >= 79 && x < 121).toBe(true);
    expect(alterNumber(2, rng)).toEqual([]);
    expect(alterNumber(4, rng)).toEqual([]);
    expect(alterNumber(0, rng)).toEqual([]);
  });

  it('finds digit words and number-word runs in a text', () => {
    const seq = WordSeq.parse('Twenty five people, 12 dogs and one hundred and five cats and someone.');
    expect(findNumbers(seq).map((f) => [f.kind, f.start, f.span, f.value])).toEqual([
      ['number-words', 0, 2, 25],
      ['digits', 3, 1, 12],
      ['number-words', 6, 4, 105],
    ]);
  });
});

describe('names and places as word spans', () => {
  it('maps a mention’s characters onto the words it covers; first and last names apart', () => {
    const seq = WordSeq.parse('Mary Jones flew to New Mexico.');
    const found = namesAndPlaces(seq, [
      {
        type: 'PER',
        field: 'text',
        start: 0,
        end: 10,
        text: 'Mary Jones',
        confidence: 0.9,
        parts: [
          { role: 'first', start: 0, end: 4, text: 'Mary' },
          { role: 'last', start: 5, end: 10, text: 'Jones' },
        ],
      },
      { type: 'LOC', field: 'text', start: 19, end: 29, text: 'New Mexico', confidence: 0.9, subtype: 'country' },
    ]);
    expect(found).toEqual([
      { kind: 'first', start: 0, span: 1, text: 'Mary' },
      { kind: 'last', start: 1, span: 1, text: 'Jones' },
      { kind: 'country', start: 4, span: 2, text: 'New Mexico' },
    ]);
  });
});
