/**
 * Loaders on slices of the real data files, committed in their exact formats (test/fixtures/data/README.md):
 * MRPC's BOM, CoLA without a header, SICK's CRLF lines, SQuAD JSON, CoNLL IOB1. The same checks run on the whole
 * files in test/full-data/real-data.data.test.ts (`npm run test:data`).
 */
import { describe, expect, it } from 'vitest';
import { collect, loadConll, openDataset, type QaExample, type TokenExample } from '../../src/data/index.ts';
import { fixtureData as data } from '../cli/helpers.ts';
import { all, iob2Problems, realDataChecks } from '../support/real-data-checks.ts';

realDataChecks(data, {
  sst2Dev: 400,
  mrpcDev: 40,
  colaDev: 60,
  qnliDev: 60,
  sick: { train: 79, test: 114, trial: 7, all: 200 },
  squadDev: 89,
  addSent: [60, 48],
  addOneSent: [24, 12],
});

describe('the slices themselves', () => {
  it('SQuAD: two articles; AddSent starts with the question the real file does', async () => {
    const ex = (await all(openDataset(data('squad-v1.1/dev-v1.1.json')))) as QaExample[];
    expect(new Set(ex.map((e) => e.title))).toEqual(new Set(['Super_Bowl_50', 'Sky_(United_Kingdom)']));
    const addSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifyAll.json')))) as QaExample[];
    expect(addSent[1]!.id).toBe('56bea9923aeaaa14008c91bb');
  });
});

describe('CoNLL-2003 format (sentences written for this project, IOB1)', () => {
  it('reads 60 sentences, -DOCSTART- dropped, IOB1 tags converted to IOB2', async () => {
    const ds = await openDataset(data('conll2003/handmade.conll'));
    expect(ds.info).toMatchObject({ name: 'conll2003', kind: 'tokens' });
    const ex = (await collect(ds)) as TokenExample[];
    expect(ex).toHaveLength(60);
    expect(ex[0]).toEqual({
      kind: 'tokens',
      id: 'handmade.conll-0',
      source: `${data('conll2003/handmade.conll')}:3`,
      tokens: ['TENNIS', '-', 'GARCIA', 'BEATS', 'MORENO', 'IN', 'MADRID', '.'],
      tags: ['O', 'O', 'B-PER', 'O', 'B-PER', 'O', 'B-LOC', 'O'],
    });
    // IOB1 "I-MISC B-MISC I-MISC" (two adjacent entities of one type) becomes "B-MISC B-MISC I-MISC".
    expect(ex[37]).toMatchObject({
      tokens: ['SOCCER', '-', 'ENGLISH', 'FA', 'CUP', 'RESULTS', '.'],
      tags: ['O', 'O', 'B-MISC', 'B-MISC', 'I-MISC', 'O', 'O'],
    });
    // Multi-token entities continue with I- after a B-.
    expect(ex[2]!.tags.slice(0, 4)).toEqual(['B-PER', 'I-PER', 'O', 'B-LOC']);
    expect(iob2Problems(ex)).toEqual({ problems: [], types: { PER: 23, LOC: 40, MISC: 12, ORG: 26 } });
  });

  it('ids count sentences from 0 across documents', async () => {
    const ex = await all(loadConll(data('conll2003/handmade.conll'), { limit: 7 }));
    expect(ex.map((e) => e.id)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `handmade.conll-${i}`));
  });
});
