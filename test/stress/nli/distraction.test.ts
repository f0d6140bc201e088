/** Distraction rules and the label scheme on hand-made pairs, with exact outputs. */
import { describe, expect, it } from 'vitest';
import { appendClause } from '../../../src/families/stress/nli/distraction.ts';
import {
  nliLengthMismatch,
  nliNegation,
  nliPremiseRemoved,
  nliRuleLabel,
  nliTautologySweep,
  nliWordOverlap,
  stressNliPair,
  type NliPair,
} from '../../../src/internal.ts';

const sick: NliPair = { id: 's1', premise: 'A man is sleeping on a bench', hypothesis: 'A man is sleeping', label: 'entailment' };
const tokenised: NliPair = { id: 'm1', premise: 'The cat sat on the mat .', hypothesis: 'a man is sleeping .', label: 'neutral' };
const plain: NliPair = { id: 'q1', premise: 'Is the museum open?', hypothesis: 'The museum opens at nine.', label: 'not_entailment' };

describe('punctuation: the clause goes before the final punctuation, keeping the text spacing', () => {
  it.each([
    ['a man is sleeping', 'a man is sleeping and true is true', 17],
    ['a man is sleeping .', 'a man is sleeping and true is true .', 17],
    ['A man is sleeping.', 'A man is sleeping and true is true.', 17],
    ['Is he sleeping?!', 'Is he sleeping and true is true?!', 14],
    ['He said "sleep."', 'He said "sleep and true is true."', 14],
    ['a man is sleeping  ', 'a man is sleeping and true is true  ', 17],
    ['', 'and true is true', 0],
  ])('%j', (text, expected, at) => {
    expect(appendClause(text, 'and true is true')).toEqual({
      text: expected,
      at,
      inserted: at === 0 ? 'and true is true' : ' and true is true',
    });
  });
});

describe('distraction tests', () => {
  it('word overlap: the tautology on the hypothesis, gold kept', () => {
    expect(nliWordOverlap(sick)).toEqual([
      {
        id: 's1:word-overlap',
        sourceId: 's1',
        test: 'word-overlap',
        variant: 'word-overlap',
        premise: 'A man is sleeping on a bench',
        hypothesis: 'A man is sleeping and true is true',
        label: 'entailment',
        labelFrom: 'original',
        hypothesisFrom: 'hypothesis',
        edits: [{ field: 'hypothesis', at: 17, from: '', to: ' and true is true' }],
      },
    ]);
  });

  it('negation on tokenised text: "and false is not true" before the spaced period', () => {
    const [p] = nliNegation(tokenised);
    expect([p!.premise, p!.hypothesis, p!.label, p!.edits]).toEqual([
      'The cat sat on the mat .',
      'a man is sleeping and false is not true .',
      'neutral',
      [{ field: 'hypothesis', at: 17, from: '', to: ' and false is not true' }],
    ]);
  });

  it('length mismatch: five tautologies on the premise', () => {
    const [p] = nliLengthMismatch(plain, { scheme: '2-way' });
    expect([p!.premise, p!.hypothesis, p!.label]).toEqual([
      'Is the museum open and true is true and true is true and true is true and true is true and true is true?',
      'The museum opens at nine.',
      'not_entailment',
    ]);
  });

  it('the N-tautology sweep: N = 1..5 on the premise, then on the hypothesis', () => {
    const out = nliTautologySweep(sick);
    expect(out.map((p) => p.variant)).toEqual([
      'tautology-premise-1',
      'tautology-premise-2',
      'tautology-premise-3',
      'tautology-premise-4',
      'tautology-premise-5',
      'tautology-hypothesis-1',
      'tautology-hypothesis-2',
      'tautology-hypothesis-3',
      'tautology-hypothesis-4',
      'tautology-hypothesis-5',
    ]);
    expect(out[2]!.premise).toBe('A man is sleeping on a bench and true is true and true is true and true is true');
    expect(out[2]!.hypothesis).toBe(sick.hypothesis);
    expect(out[6]!.hypothesis).toBe('A man is sleeping and true is true and true is true');
    expect(out[6]!.premise).toBe(sick.premise);
    expect(new Set(out.map((p) => p.label))).toEqual(new Set(['entailment']));
    expect(nliTautologySweep(sick, { maxN: 1 }).map((p) => p.id)).toEqual(['s1:tautology-premise-1', 's1:tautology-hypothesis-1']);
  });
});

describe('annotation artifacts', () => {
  it('the premise removed, gold kept', () => {
    expect(nliPremiseRemoved(sick)).toEqual([
      {
        id: 's1:premise-removed',
        sourceId: 's1',
        test: 'premise-removed',
        variant: 'premise-removed',
        premise: '',
        hypothesis: 'A man is sleeping',
        label: 'entailment',
        labelFrom: 'original',
        hypothesisFrom: 'hypothesis',
        edits: [{ field: 'premise', at: 0, from: 'A man is sleeping on a bench', to: '' }],
      },
    ]);
  });
});

describe('label schemes', () => {
  it("a rule's contradiction is not_entailment in the 2-way scheme; entailment stays", () => {
    expect([nliRuleLabel('contradiction', '3-way'), nliRuleLabel('contradiction', '2-way'), nliRuleLabel('entailment', '2-way')]).toEqual([
      'contradiction',
      'not_entailment',
      'entailment',
    ]);
  });

  it('a gold label outside the scheme is refused, naming the pair', () => {
    expect(() => nliWordOverlap({ ...sick, label: 'neutral' }, { scheme: '2-way' })).toThrow(
      'pair "s1" has the label "neutral", which is not in the 2-way NLI scheme (entailment, not_entailment).',
    );
    expect(() => nliWordOverlap({ ...plain, label: 'not_entailment' }, { scheme: '3-way' })).toThrow(/not in the 3-way NLI scheme/);
  });

  it('stressNliPair runs the tests in the order given', () => {
    expect(stressNliPair(sick, ['premise-removed', 'word-overlap', 'negation', 'length-mismatch']).map((p) => p.id)).toEqual([
      's1:premise-removed',
      's1:word-overlap',
      's1:negation',
      's1:length-mismatch',
    ]);
  });
});
