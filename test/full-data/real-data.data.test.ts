/**
 * Loaders on the whole real datasets in the shared data folder: row counts and first rows of the full files.
 * test/data/real-data.test.ts runs the same checks (test/support/real-data-checks.ts) on the committed slices.
 */
import { describe, expect, it } from 'vitest';
import { collect, loadConll, openDataset, type TokenExample } from '../../src/data/index.ts';
import { all, iob2Problems, realDataChecks } from '../support/real-data-checks.ts';
import { shared as data } from './helpers.data.ts';

realDataChecks(data, {
  sst2Dev: 872,
  mrpcDev: 408,
  colaDev: 1043,
  qnliDev: 5463,
  // The SemEval-2014 split of SICK is 4,439 / 495 / 4,906 (9,840 pairs, counted in the file's SemEval_set
  // column); shared/README.md's "TEST 4,905 / 9,839" is off by one.
  sick: { train: 4439, test: 4906, trial: 495, all: 9840 },
  squadDev: 10570,
  addSent: [3560, 2560],
  addOneSent: [1787, 787],
});

describe('CoNLL-2003', () => {
  it('eng.testb: 3453 sentences, IOB2 tags with B- at every entity start', async () => {
    // The file has 3,683 blank-line-separated blocks: 3,453 sentences + 230 "-DOCSTART-" blocks (a 231st
    // DOCSTART ends the file without a blank line). DOCSTART markers are not sentences, so 3,453 — the
    // standard CoNLL-2003 test size.
    const ds = await openDataset(data('conll2003/eng.testb'));
    expect(ds.info).toMatchObject({ name: 'conll2003', kind: 'tokens' });
    const ex = (await collect(ds)) as TokenExample[];
    expect(ex).toHaveLength(3453);
    expect(ex[0]).toMatchObject({
      id: 'eng.testb-0',
      source: `${data('conll2003/eng.testb')}:1`,
      tokens: ['SOCCER', '-', 'JAPAN', 'GET', 'LUCKY', 'WIN', ',', 'CHINA', 'IN', 'SURPRISE', 'DEFEAT', '.'],
      tags: ['O', 'O', 'B-LOC', 'O', 'O', 'O', 'O', 'B-PER', 'O', 'O', 'O', 'O'],
    });
    // The CoNLL-2003 test set's entities: 5,648 (LOC 1668, MISC 702, ORG 1661, PER 1617).
    expect(iob2Problems(ex)).toEqual({ problems: [], types: { LOC: 1668, MISC: 702, ORG: 1661, PER: 1617 } });
  });

  it('eng.testa: 3250 sentences', async () => {
    expect(await all(loadConll(data('conll2003/eng.testa')))).toHaveLength(3250);
  });
});
