/** The terminal's examples of successful attacks: QA results show the answer before → after with EM/F1 and the gold answers. */
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { exampleLines } from '../../src/kinds/attack/print.ts';
import { fakeResult, replaceEdit } from './fixtures.ts';

describe('exampleLines', () => {
  it('QA: the answer before → after with EM/F1, the distinct gold answers, the edited question', () => {
    const context = 'Super Bowl 50 was played on February 7, 2016, at Levi’s Stadium.';
    const { perturbed, edit } = replaceEdit('What day was the game played on?', 'What', 'Wghat', 'typo:insertion');
    const qa: ExampleResult = {
      ...fakeResult(0, { text: 'x', status: 'succeeded' }),
      id: '56be8e613aeaaa14008c90d2',
      gold: [
        { text: 'February 7, 2016', start: 28 },
        { text: 'February 7', start: 28 },
        { text: 'February 7, 2016', start: 28 },
      ],
      field: 'question',
      original: { question: 'What day was the game played on?', context },
      perturbed: { question: perturbed, context },
      original_prediction: {
        label: 'played on February 7, 2016',
        score: 0.4,
        answer: { text: 'played on February 7, 2016', start: 18, end: 44 },
        em: 0,
        f1: 0.75,
      },
      perturbed_prediction: { label: '', score: 0, em: 0, f1: 0 },
      edits: [{ ...edit, field: 'question' }],
    };
    expect(exampleLines([qa]).split('\n')).toEqual([
      'Examples of successful attacks:',
      '  56be8e613aeaaa14008c90d2: answer “played on February 7, 2016” (EM 0, F1 0.75) → (no answer) (EM 0, F1 0.00)',
      '    gold:   “February 7, 2016” | “February 7”',
      '    before: What day was the game played on?',
      '    after:  Wghat day was the game played on?',
      '    edits:  What→Wghat [typo:insertion]',
    ]);
  });

  it('classifiers: label (score) before → after, as before', () => {
    const { perturbed, edit } = replaceEdit('a charming film', 'charming', 'chraming', 'typo:swap');
    expect(exampleLines([fakeResult(0, { text: 'a charming film', perturbed, edits: [edit] })]).split('\n')).toEqual([
      'Examples of successful attacks:',
      '  row-0: positive (0.97) → negative (0.71)',
      '    before: a charming film',
      '    after:  a chraming film',
      '    edits:  charming→chraming [typo:swap]',
    ]);
  });
});
