import { describe, expect, it } from 'vitest';
import { LabelAligner, parseLabelMap } from '../../src/attack/labels.ts';
import { goalFor } from '../../src/recipes/context.ts';
import { TextstressError } from '../../src/util/errors.ts';

describe('LabelAligner', () => {
  it('matches names case-insensitively, LABEL_i by dataset order, numeric gold labels by index, and user maps', () => {
    expect(new LabelAligner(['NEGATIVE', 'POSITIVE']).indexOf('positive')).toBe(1);
    expect(new LabelAligner(['LABEL_0', 'LABEL_1'], ['negative', 'positive']).indexOf('negative')).toBe(0);
    expect(new LabelAligner(['neg', 'pos']).indexOf('1')).toBe(1);
    expect(new LabelAligner(['neg', 'pos'], [], parseLabelMap('good=pos, bad=neg')).indexOf('bad')).toBe(0);
  });

  it('explains an unknown label and a malformed --label-map', () => {
    expect(() => new LabelAligner(['neg', 'pos']).indexOf('neutral')).toThrow(/"neutral" matches none of the model's labels \[neg, pos\]/);
    expect(() => parseLabelMap('a=b,c')).toThrow(TextstressError);
  });
});

describe('goalFor', () => {
  const sst2Model = { id: 'demo-sst2', task: 'text-classification' as const, labels: ['negative', 'positive'] };

  it('refuses, before any work, a dataset whose labels the model does not have', () => {
    const mrpc = { name: 'mrpc', path: 'mrpc/dev.tsv', kind: 'pair' as const, labelNames: ['not_equivalent', 'equivalent'] };
    expect(() => goalFor(sst2Model, mrpc)).toThrow(/labels of mrpc\/dev\.tsv \[not_equivalent, equivalent\] do not match/);
    expect(goalFor(sst2Model, mrpc, { equivalent: 'positive', not_equivalent: 'negative' }).goal.name).toBe('untargeted-classification');
  });

  it('refuses a task mismatch and picks the entity-F1 goal for NER', () => {
    const conll = { name: 'conll', path: 'eng.testb', kind: 'tokens' as const };
    expect(() => goalFor(sst2Model, conll)).toThrow(/text-classification model, but eng\.testb holds tokens examples/);
    expect(goalFor({ id: 'ner', task: 'token-classification' }, conll).goal.name).toBe('entity-f1-drop');
  });
});
