/**
 * The competence rules on hand-made premises, with exact outputs: antonymy (WordNet antonyms of the sense that
 * fits, tagged in context) and numerical reasoning (the rule sets the gold label, neutral pairs turned round as
 * Naik et al. make them; 2-way mapping).
 */
import { describe, expect, it } from 'vitest';
import { findQuantities, nliAntonymy, nliNumerical, type NliPair } from '../../../src/internal.ts';
import { senseAntonym } from '../../../src/families/stress/nli/antonymy.ts';

const pair = (id: string, premise: string, label = 'neutral'): NliPair => ({ id, premise, hypothesis: 'Someone is there', label });

describe('antonymy: the premise with one adjective or noun replaced by its WordNet antonym', () => {
  it('every candidate with all: true; the article before an adjective is fitted', () => {
    expect(nliAntonymy(pair('a1', 'A skilled man is sleeping on a bench'), { all: true })).toEqual([
      {
        id: 'a1:antonymy-1',
        sourceId: 'a1',
        test: 'antonymy',
        variant: 'antonymy-1',
        premise: 'A skilled man is sleeping on a bench',
        hypothesis: 'An unskilled man is sleeping on a bench',
        label: 'contradiction',
        labelFrom: 'rule',
        hypothesisFrom: 'premise',
        edits: [
          { field: 'hypothesis', at: 0, from: 'A', to: 'An' },
          { field: 'hypothesis', at: 2, from: 'skilled', to: 'unskilled' },
        ],
      },
      {
        id: 'a1:antonymy-2',
        sourceId: 'a1',
        test: 'antonymy',
        variant: 'antonymy-2',
        premise: 'A skilled man is sleeping on a bench',
        hypothesis: 'A skilled woman is sleeping on a bench',
        label: 'contradiction',
        labelFrom: 'rule',
        hypothesisFrom: 'premise',
        edits: [{ field: 'hypothesis', at: 10, from: 'man', to: 'woman' }],
      },
    ]);
  });

  it('one pair per premise otherwise, the word chosen with the seed', () => {
    const p = pair('a1', 'A skilled man is sleeping on a bench');
    expect([0, 1, 2].map((seed) => nliAntonymy(p, { seed }).map((s) => [s.id, s.hypothesis]))).toEqual([
      [['a1:antonymy', 'An unskilled man is sleeping on a bench']],
      [['a1:antonymy', 'An unskilled man is sleeping on a bench']],
      [['a1:antonymy', 'A skilled woman is sleeping on a bench']],
    ]);
  });

  it('plural nouns keep their number; names are left alone; "a"/"an" kept when it already fits', () => {
    expect(nliAntonymy(pair('a2', 'The men are standing near the water')).map((s) => s.hypothesis)).toEqual([
      'The women are standing near the water',
    ]);
    expect(nliAntonymy(pair('a5', 'Paris is big and John is a good cook'), { all: true }).map((s) => s.hypothesis)).toEqual([
      'Paris is little and John is a good cook',
      'Paris is big and John is a bad cook',
    ]);
  });

  it('comparatives are not replaced (only base-form adjectives); a predicative adjective is', () => {
    expect(nliAntonymy(pair('a6', 'A big dog and an older cat'), { all: true }).map((s) => [s.hypothesis, s.edits])).toEqual([
      ['A little dog and an older cat', [{ field: 'hypothesis', at: 2, from: 'big', to: 'little' }]],
    ]);
    expect(nliAntonymy(pair('a7', 'The pool is empty'), { all: true }).map((s) => s.hypothesis)).toEqual(['The pool is full']);
  });

  it("2-way: the rule's contradiction is not_entailment", () => {
    expect(
      nliAntonymy(pair('a4', 'A tall woman is reading', 'entailment'), { scheme: '2-way', all: true }).map((s) => [s.hypothesis, s.label]),
    ).toEqual([
      ['A short woman is reading', 'not_entailment'],
      ['A tall man is reading', 'not_entailment'],
    ]);
  });

  it('no adjective or noun with an antonym: no pair', () => {
    expect(nliAntonymy(pair('a3', 'A dog is running through the grass'), { all: true })).toEqual([]);
    expect(nliAntonymy(pair('a8', ''), { all: true })).toEqual([]);
  });
});

describe('antonymy takes the antonym of the sense that fits (issue 26 item 5)', () => {
  it('the first sense’s own antonym, and only when no other frequent sense has another', () => {
    // old: lived long → young, not new → new; little: big / much; same: other / different. child: first sense
    // "young person" has none ("parent" is the offspring sense's); girl: first sense "young woman" has none.
    expect(['old', 'little', 'same', 'tall'].map((w) => senseAntonym(w, 'adj'))).toEqual([undefined, undefined, undefined, 'short']);
    expect(['child', 'girl', 'man', 'safety'].map((w) => senseAntonym(w, 'noun'))).toEqual([undefined, undefined, 'woman', undefined]);
  });

  it('"old park" never becomes "young park"', () => {
    expect(nliAntonymy(pair('s1', 'An old park is next to an old man'), { all: true }).map((s) => s.hypothesis)).toEqual([
      'An old park is next to an old woman',
    ]);
  });

  it.each([
    [
      'a noun outside noun.person ("children" of the wrong sense, "water safety", "colors")',
      'The children play near colors and water safety',
    ],
    ['a negation ("no man" and "no woman" do not contradict)', 'There is no man smiling'],
    ['a negated predicate', 'The pool is not empty'],
    ['an antonym already in the premise, in a fixed phrase ("black and white" → "white and white")', 'A black and white dog is sleeping'],
    ['an adjective mostly used as a noun ("sound equipment")', 'The dancer is near the sound equipment'],
    ['an adjective that is neither attributive nor predicative ("leaping high in the air")', 'A dog is leaping high in the air'],
    ['an ambiguous adjective ("the same direction")', 'Masked people are looking in the same direction'],
  ])('no pair: %s', (_why, premise) => {
    expect(nliAntonymy(pair('s0', premise), { all: true })).toEqual([]);
  });

  it('"in front of the man": the man, not the front', () => {
    expect(nliAntonymy(pair('s2', 'A dog is running in front of the man'), { all: true }).map((s) => s.hypothesis)).toEqual([
      'A dog is running in front of the woman',
    ]);
  });
});

describe('numerical reasoning: restated quantities, gold set by the rule', () => {
  it('"Two dogs": at least (entailment), more/fewer than and a changed count (contradiction), the entailed pair turned round (neutral)', () => {
    const out = nliNumerical(pair('q1', 'Two dogs are running in the grass.'), { seed: 0 });
    expect(out.map((s) => [s.id, s.premise, s.hypothesis, s.label, s.labelFrom, s.hypothesisFrom])).toEqual([
      [
        'q1:numerical-at-least',
        'Two dogs are running in the grass.',
        'At least two dogs are running in the grass.',
        'entailment',
        'rule',
        'premise',
      ],
      [
        'q1:numerical-more-than',
        'Two dogs are running in the grass.',
        'More than two dogs are running in the grass.',
        'contradiction',
        'rule',
        'premise',
      ],
      [
        'q1:numerical-fewer-than',
        'Two dogs are running in the grass.',
        'Fewer than two dogs are running in the grass.',
        'contradiction',
        'rule',
        'premise',
      ],
      [
        'q1:numerical-changed',
        'Two dogs are running in the grass.',
        'Four dogs are running in the grass.',
        'contradiction',
        'rule',
        'premise',
      ],
      // Naik et al.'s neutral pairs: "Tim has less than 750 pounds …" ⇒? "Tim has 350 pounds …".
      [
        'q1:numerical-at-least-reversed',
        'At least two dogs are running in the grass.',
        'Two dogs are running in the grass.',
        'neutral',
        'rule',
        'premise',
      ],
    ]);
    expect(out[0]!.edits).toEqual([{ field: 'hypothesis', at: 0, from: 'Two', to: 'At least two' }]);
    expect(out[4]!.edits).toEqual([{ field: 'premise', at: 0, from: 'Two', to: 'At least two' }]);
  });

  it('digits stay digits; N ≥ 3 adds "more than N−1" (entailment, and turned round: neutral); a noun after an adjective counts', () => {
    expect(
      nliNumerical(pair('q2', 'A group of 12 young boys is playing'), { seed: 0 }).map((s) => [
        s.variant,
        s.premise,
        s.hypothesis,
        s.label,
      ]),
    ).toEqual([
      ['numerical-at-least', 'A group of 12 young boys is playing', 'A group of at least 12 young boys is playing', 'entailment'],
      ['numerical-more-than-less', 'A group of 12 young boys is playing', 'A group of more than 11 young boys is playing', 'entailment'],
      ['numerical-more-than', 'A group of 12 young boys is playing', 'A group of more than 12 young boys is playing', 'contradiction'],
      ['numerical-fewer-than', 'A group of 12 young boys is playing', 'A group of fewer than 12 young boys is playing', 'contradiction'],
      ['numerical-changed', 'A group of 12 young boys is playing', 'A group of 11 young boys is playing', 'contradiction'],
      ['numerical-at-least-reversed', 'A group of at least 12 young boys is playing', 'A group of 12 young boys is playing', 'neutral'],
      [
        'numerical-more-than-less-reversed',
        'A group of more than 11 young boys is playing',
        'A group of 12 young boys is playing',
        'neutral',
      ],
    ]);
  });

  it('the seed picks one of several quantities; number words stay words up to twenty', () => {
    const p = pair('q3', 'Twenty kids play and two men watch');
    expect(findQuantities(p.premise)).toEqual([
      { index: 0, word: 'Twenty', value: 20, form: 'word' },
      { index: 4, word: 'two', value: 2, form: 'word' },
    ]);
    expect(nliNumerical(p, { seed: 0 }).map((s) => s.hypothesis)).toEqual([
      'Twenty kids play and at least two men watch',
      'Twenty kids play and more than two men watch',
      'Twenty kids play and fewer than two men watch',
      'Twenty kids play and four men watch',
      'Twenty kids play and two men watch',
    ]);
    expect(nliNumerical(p, { seed: 1 }).map((s) => s.premise)).toEqual([
      ...Array<string>(5).fill('Twenty kids play and two men watch'),
      'At least twenty kids play and two men watch',
      'More than nineteen kids play and two men watch',
    ]);
    expect(nliNumerical(p, { seed: 1 }).map((s) => s.hypothesis)).toEqual([
      'At least twenty kids play and two men watch',
      'More than nineteen kids play and two men watch',
      'More than twenty kids play and two men watch',
      'Fewer than twenty kids play and two men watch',
      'Eighteen kids play and two men watch',
      'Twenty kids play and two men watch',
      'Twenty kids play and two men watch',
    ]);
  });

  it('2-way: contradiction and neutral → not_entailment, entailment stays', () => {
    expect(
      nliNumerical(pair('q8', 'Three women are dancing', 'entailment'), { seed: 0, scheme: '2-way' }).map((s) => [
        s.premise,
        s.hypothesis,
        s.label,
      ]),
    ).toEqual([
      ['Three women are dancing', 'At least three women are dancing', 'entailment'],
      ['Three women are dancing', 'More than two women are dancing', 'entailment'],
      ['Three women are dancing', 'More than three women are dancing', 'not_entailment'],
      ['Three women are dancing', 'Fewer than three women are dancing', 'not_entailment'],
      ['Three women are dancing', 'Five women are dancing', 'not_entailment'],
      ['At least three women are dancing', 'Three women are dancing', 'not_entailment'],
      ['More than two women are dancing', 'Three women are dancing', 'not_entailment'],
    ]);
  });

  it.each([
    ['no quantity', 'A man is playing a guitar'],
    ["one (restating it would change the noun's number)", 'One man is playing a guitar'],
    ['after a determiner', 'The two men are tall'],
    ['decimals, money, thousands separators', 'It costs 3.5 dollars and $3 coins, 1,000 people'],
    ['a year', 'In 2010 people voted'],
    ['no noun after it', 'He has two and she has 5'],
    ['a compound number', 'twenty two dogs'],
  ])('no pair: %s', (_why, premise) => {
    expect(nliNumerical(pair('q0', premise), { seed: 0 })).toEqual([]);
  });
});
