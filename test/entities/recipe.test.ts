/** The entities recipe's settings: annotator defaults, names files, refusals, and the training-file counts. */
import { BUILD_OPENERS } from '../../src/kinds/prepare.ts';
import { describe, expect, it } from 'vitest';
import { EntityF1Drop } from '../../src/core/goals/index.ts';
import { entitiesRecipe } from '../../src/families/entities/recipe.ts';
import { annotatorName, namesFiles } from '../../src/families/entities/sources.ts';
import { TrainCounts, frequencyBin, subwordBin } from '../../src/families/entities/train.ts';
import { TextstressError } from '../../src/util/errors.ts';

const ctx = (kind: 'text' | 'tokens') => ({
  model: { id: 'function:x', task: 'text-classification' as const },
  data: { name: 'x', path: 'x.tsv', kind },
  task: 'text-classification' as const,
  goal: new EntityF1Drop(),
  seed: 0,
  ...BUILD_OPENERS,
});

describe('entities recipe settings', () => {
  it('defaults: PER, B = 50, gold on NER data and the gazetteer elsewhere', () => {
    const s = entitiesRecipe.settings.parse({});
    expect(s).toEqual({ type: 'PER', budget: 50, annotator: null, namesFile: [], trainData: null, excludeTrainNames: false });
    expect(annotatorName(s.annotator, { kind: 'tokens' })).toBe('gold');
    expect(annotatorName(s.annotator, { kind: 'pair' })).toBe('gazetteer');
    expect(annotatorName('model:models/demo-ner', { kind: 'tokens' })).toBe('model:models/demo-ner');
    expect(entitiesRecipe.settings.safeParse({ annotator: 'spacy' }).success).toBe(false);
  });

  it('names files: lists or types as keys', () => {
    expect(namesFiles(['female=f.txt', 'PER=l.txt', 'ORG=o.txt', 'LOC=c.txt'])).toEqual({
      female: 'f.txt',
      last: 'l.txt',
      org: 'o.txt',
      city: 'c.txt',
    });
    expect(() => namesFiles(['surname=x.txt'])).toThrow(/unknown list "surname"/);
  });

  it('refuses gold mentions on data without tags, and exclusion without a training file', async () => {
    await expect(entitiesRecipe.build(entitiesRecipe.settings.parse({ annotator: 'gold' }), ctx('text'))).rejects.toThrow(
      /--annotator gold needs NER data/,
    );
    await expect(entitiesRecipe.build(entitiesRecipe.settings.parse({ excludeTrainNames: true }), ctx('tokens'))).rejects.toBeInstanceOf(
      TextstressError,
    );
  });

  it('counts names as whole words, case-insensitively, multi-word names as words in a row within one example', () => {
    const c = new TrainCounts(['John Smith met JOHN smith-jones .', 'john', 'Smith and Co', 'Johnny']);
    expect([
      c.count('John'),
      c.count('john smith'),
      c.count('Smith'),
      c.count('smith-jones'),
      c.count('Co'),
      c.count('John Johnny'),
    ]).toEqual([3, 1, 2, 1, 1, 0]);
    expect([0, 1, 9, 10, 99, 100].map(frequencyBin)).toEqual(['0', '1-9', '1-9', '10-99', '10-99', '≥100']);
    expect([0, 1, 2, 3, 7].map(subwordBin)).toEqual(['1', '1', '2', '≥3', '≥3']);
  });
});
