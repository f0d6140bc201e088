/**
 * The NLI stress suite's reading of labels and pairs, with exact outputs: label names of both schemes, the run's
 * scheme from the model and the data, --label-map, the refusals (with the labels listed), which text is the
 * premise, the model asked in the data's own pair order, rule edits as report edits, and 2-way scores of a 3-way
 * model (summed probabilities).
 */
import { describe, expect, it } from 'vitest';
import { stressExample } from '../../../src/core/stress-suite.ts';
import type { DatasetInfo, PairExample } from '../../../src/data/types.ts';
import { createFunctionModel } from '../../../src/models/function-adapter.ts';
import type { ModelInfo, ModelInput } from '../../../src/models/types.ts';
import { QueryEngine } from '../../../src/query/engine.ts';
import { planNliLabels } from '../../../src/families/stress/nli/label-mapping.ts';
import { premiseSide } from '../../../src/families/stress/nli/recipe.ts';
import { nliStressSuite, toEdits } from '../../../src/families/stress/nli/suite.ts';
import { inNliScheme, nliLabelOf, nliSchemeOf, nliAntonymy } from '../../../src/internal.ts';
import { TextstressError } from '../../../src/util/errors.ts';

const SICK: DatasetInfo = {
  name: 'sick',
  path: 'SICK.txt',
  kind: 'pair',
  labelNames: ['entailment', 'neutral', 'contradiction'],
  pairFields: { textA: 'sentence_A', textB: 'sentence_B' },
};
const QNLI: DatasetInfo = {
  name: 'qnli',
  path: 'dev.tsv',
  kind: 'pair',
  labelNames: ['entailment', 'not_entailment'],
  pairFields: { textA: 'question', textB: 'sentence' },
};
const model = (labels: string[]): ModelInfo => ({ id: 'm', task: 'text-classification', labels });
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (err instanceof TextstressError) return `${err.message} | ${err.hint ?? ''}`;
    throw err;
  }
  throw new Error('not refused');
};

describe('NLI label names and schemes', () => {
  it('reads both schemes’ names in any case, with hyphens or spaces, and common spellings', () => {
    expect(
      ['ENTAILMENT', 'Neutral', 'contradicts', 'not-entailment', 'NOT ENTAILMENT', 'non_entailment', 'positive'].map(nliLabelOf),
    ).toEqual(['entailment', 'neutral', 'contradiction', 'not_entailment', 'not_entailment', 'not_entailment', undefined]);
    expect(['entailment', 'neutral', 'contradiction'].map((l) => inNliScheme(l as 'neutral', '2-way'))).toEqual([
      'entailment',
      'not_entailment',
      'not_entailment',
    ]);
    expect(nliSchemeOf(['entailment', 'not_entailment'])).toBe('2-way');
    expect(nliSchemeOf(['entailment', 'contradiction'])).toBe('3-way');
    expect(nliSchemeOf(['entailment'])).toBeUndefined();
  });

  it('a 3-way model on 3-way data is 3-way; a 2-way model or 2-way data makes it 2-way', () => {
    const sick = planNliLabels(
      model(['ENTAILMENT', 'NEUTRAL', 'CONTRADICTION']),
      SICK,
      ['neutral', 'entailment', 'contradiction'],
      {},
      'auto',
    );
    expect(sick.scheme).toBe('3-way');
    expect(sick.model).toEqual(['entailment', 'neutral', 'contradiction']);
    const twoOnThree = planNliLabels(model(['entailment', 'not_entailment']), SICK, ['neutral', 'entailment', 'contradiction'], {}, 'auto');
    expect(twoOnThree.scheme).toBe('2-way');
    expect([...twoOnThree.data]).toEqual([
      ['neutral', 'not_entailment'],
      ['entailment', 'entailment'],
      ['contradiction', 'not_entailment'],
    ]);
    const threeOnTwo = planNliLabels(model(['entailment', 'neutral', 'contradiction']), QNLI, ['entailment', 'not_entailment'], {}, 'auto');
    expect(threeOnTwo).toMatchObject({ scheme: '2-way', model: ['entailment', 'not_entailment', 'not_entailment'] });
    expect(planNliLabels(model(['entailment', 'neutral', 'contradiction']), SICK, ['neutral'], {}, '2-way').scheme).toBe('2-way');
  });

  it('generic LABEL_i labels read as the data’s i-th label; --label-map maps either side, by NLI name or model label', () => {
    expect(planNliLabels(model(['LABEL_0', 'LABEL_1', 'LABEL_2']), SICK, ['entailment'], {}, 'auto').model).toEqual([
      'entailment',
      'neutral',
      'contradiction',
    ]);
    const mapped = planNliLabels(
      model(['NEGATIVE', 'POSITIVE']),
      QNLI,
      ['0', '1'],
      { NEGATIVE: 'not_entailment', POSITIVE: 'entailment', '0': 'POSITIVE', '1': 'not-entailment' },
      'auto',
    );
    expect(mapped).toEqual({
      scheme: '2-way',
      model: ['not_entailment', 'entailment'],
      data: new Map([
        ['0', 'entailment'],
        ['1', 'not_entailment'],
      ]),
    });
  });

  it('refuses, with the labels listed: a model with other labels, data with other labels, 3-way over 2-way, a label map that names nothing', () => {
    expect(refusal(() => planNliLabels(model(['NEGATIVE', 'POSITIVE']), QNLI, ['entailment'], {}, 'auto'))).toBe(
      'the labels of the model m [NEGATIVE, POSITIVE] cannot be mapped to the NLI labels (entailment, neutral, ' +
        'contradiction, not_entailment): no NLI label for "NEGATIVE", "POSITIVE". | Map each to the NLI class it means ' +
        'with --label-map: "NEGATIVE=<entailment|not_entailment>,POSITIVE=<entailment|not_entailment>".',
    );
    expect(refusal(() => planNliLabels(model(['entailment', 'neutral']), SICK, ['entailment'], {}, 'auto'))).toBe(
      'the model m has the labels [entailment, neutral], read as [entailment, neutral], which are neither the 3-way ' +
        'NLI labels (entailment, neutral, contradiction) nor the 2-way ones (entailment, not_entailment). | Give a ' +
        'model trained for NLI, or map its labels with --label-map.',
    );
    expect(
      refusal(() =>
        planNliLabels(
          model(['entailment', 'neutral', 'contradiction']),
          { ...QNLI, labelNames: [] },
          ['yes', 'entailment', 'no'],
          {},
          'auto',
        ),
      ),
    ).toBe(
      'the gold labels of dev.tsv [yes, entailment, no] cannot be mapped to the NLI labels (entailment, neutral, ' +
        'contradiction, not_entailment): no NLI label for "yes", "no". | Map each to the NLI class it means with ' +
        '--label-map: "yes=<entailment|neutral|contradiction>,no=<entailment|neutral|contradiction>".',
    );
    expect(refusal(() => planNliLabels(model(['entailment', 'not_entailment']), SICK, ['entailment'], {}, '3-way'))).toBe(
      '--scheme 3-way needs three-way labels on both sides, but the model m has the 2-way labels entailment / ' +
        'not_entailment. | Use --scheme 2-way (or auto): neutral and contradiction then count as not_entailment.',
    );
    expect(
      refusal(() =>
        planNliLabels(
          model(['entailment', 'neutral', 'contradiction']),
          SICK,
          ['entailment'],
          { entailmnet: 'entailment', neutral: 'maybe' },
          'auto',
        ),
      ),
    ).toMatch(
      /^--label-map entailmnet=entailment,neutral=maybe does not fit: "entailmnet" is neither a gold label of SICK.txt \[entailment\] nor a label of the model \[entailment, neutral, contradiction\]; "maybe" is neither an NLI label nor a label of the model\./,
    );
  });
});

describe('which text is the premise', () => {
  it('by the data’s own column names or textA/textB; the other text is the hypothesis; a wrong name lists both', () => {
    expect(premiseSide(SICK, null, null)).toEqual({ premiseIs: 'textA', names: { premise: 'sentence_A', hypothesis: 'sentence_B' } });
    expect(premiseSide(QNLI, 'sentence', 'question')).toEqual({
      premiseIs: 'textB',
      names: { premise: 'sentence', hypothesis: 'question' },
    });
    expect(premiseSide(QNLI, null, 'question').premiseIs).toBe('textB');
    expect(premiseSide(QNLI, 'textB', null).premiseIs).toBe('textB');
    expect(refusal(() => premiseSide(QNLI, 'sentense', null))).toBe(
      '--premise sentense: dev.tsv has no pair text of that name (did you mean "sentence"?); its two texts are ' +
        '"question" (textA) and "sentence" (textB). | Pass --premise question or --premise sentence (or textA / textB).',
    );
    expect(refusal(() => premiseSide(QNLI, 'question', 'textA'))).toBe(
      '--premise and --hypothesis both name the question text of dev.tsv. | Give them the two different texts of the pair.',
    );
  });
});

describe('the suite on one pair', () => {
  it('asks the model in the data’s pair order and reads a 3-way model in the 2-way scheme by summed probabilities', async () => {
    const asked: ModelInput[] = [];
    // P(entailment) 0.4, P(neutral) 0.35, P(contradiction) 0.25: 3-way says entailment, 2-way not_entailment (0.6).
    const fn = createFunctionModel(
      (inputs) => (
        asked.push(...inputs),
        inputs.map(() => ({ kind: 'classes' as const, labels: ['entailment', 'neutral', 'contradiction'], probs: [0.4, 0.35, 0.25] }))
      ),
      model(['entailment', 'neutral', 'contradiction']),
    );
    const labels = planNliLabels(fn.info, QNLI, ['entailment', 'not_entailment'], {}, 'auto');
    const suite = nliStressSuite({ tests: ['negation', 'premise-removed'], labels, premiseIs: 'textB', seed: 0, maxTautologies: 5 });
    const example: PairExample = { kind: 'pair', id: 'q1', textA: 'Who won?', textB: 'Denver won the game.', label: 'not_entailment' };
    const r = await stressExample(suite, example, new QueryEngine(fn).session(), 0);
    expect(r.original).toEqual({
      text: { premise: 'Denver won the game.', hypothesis: 'Who won?' },
      gold: 'not_entailment',
      prediction: 'not_entailment',
      correct: true,
      confidence: 0.6,
    });
    expect(asked).toEqual([
      { kind: 'pair', textA: 'Who won?', textB: '' },
      { kind: 'pair', textA: 'Who won?', textB: 'Denver won the game.' },
      { kind: 'pair', textA: 'Who won and false is not true?', textB: 'Denver won the game.' },
    ]);
    expect(r.cases.map((c) => [c.test, c.text, c.edits])).toEqual([
      [
        'negation',
        { premise: 'Denver won the game.', hypothesis: 'Who won and false is not true?' },
        [{ type: 'nli:negation', field: 'hypothesis', wordIndex: 2, start: 7, before: '', after: ' and false is not true' }],
      ],
      [
        'premise-removed',
        { premise: '', hypothesis: 'Who won?' },
        [{ type: 'nli:premise-removed', field: 'premise', wordIndex: 0, start: 0, before: 'Denver won the game.', after: '' }],
      ],
    ]);
  });

  // ("An old" → "A young" was the example before antonyms took the word's sense: "old" is skipped now, its senses disagree.)
  it('an antonymy pair’s edits start where they stand once the earlier edits are made ("An empty" → "A full")', () => {
    const [p] = nliAntonymy({ id: 'a', premise: 'An empty glass is on the table', hypothesis: 'x', label: 'neutral' }, { all: true });
    expect(p!.hypothesis).toBe('A full glass is on the table');
    expect(toEdits(p!)).toEqual([
      { type: 'nli:antonymy', field: 'hypothesis', wordIndex: 0, start: 0, before: 'An', after: 'A' },
      { type: 'nli:antonymy', field: 'hypothesis', wordIndex: 1, start: 2, before: 'empty', after: 'full' },
    ]);
  });
});
