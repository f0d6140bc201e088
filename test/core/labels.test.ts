import { describe, expect, it } from 'vitest';
import { LabelAligner, parseLabelMap, suggestLabelMap } from '../../src/core/labels.ts';
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

describe('suggestLabelMap (issue 34 item 10): by name, never by position', () => {
  it('pairs prefixes and synonyms, whatever the order of either side', () => {
    expect(suggestLabelMap(['pos', 'neg'], ['negative', 'positive'])).toBe('pos=positive,neg=negative');
    expect(suggestLabelMap(['good', 'bad'], ['NEGATIVE', 'POSITIVE'])).toBe('good=POSITIVE,bad=NEGATIVE');
    expect(suggestLabelMap(['not-entailment', 'entails'], ['entailment', 'not_entailment'])).toBe(
      'not-entailment=not_entailment,entails=entailment',
    );
    expect(suggestLabelMap(['contra', 'neutral'], ['entailment', 'neutral', 'contradiction'])).toBe('contra=contradiction,neutral=neutral');
  });

  it('suggests nothing for a label with no like-named partner, or with several', () => {
    expect(suggestLabelMap(['0', '1'], ['negative', 'positive'])).toBeUndefined();
    expect(suggestLabelMap(['yes', 'no'], ['negative', 'positive'])).toBeUndefined();
    // "ne" is too short to be read as a prefix; "neg" matches only negative.
    expect(suggestLabelMap(['ne', 'neg'], ['negative', 'neutral'])).toBe('neg=negative');
    // Two dataset labels like one model label: neither is paired.
    expect(suggestLabelMap(['pos', 'positiv'], ['negative', 'positive'])).toBeUndefined();
  });
});
