/**
 * The MNLI GLUE TSV and SNLI/MNLI JSONL loaders on hand-written fixtures in those layouts
 * (test/fixtures/data/README.md): examples, ids, gold_label "-" as a counted skip, a missing hypothesis as a
 * file:line error, and format detection.
 */
import { describe, expect, it } from 'vitest';
import { collect, detectFormat, loadMnli, loadNliJsonl, openDataset, parseFormat, type PairExample } from '../../src/data/index.ts';
import { DataError } from '../../src/util/errors.ts';
import { fixtureData as data } from '../cli/helpers.ts';

const NO_MAJORITY = 'the annotators reached no majority, so the pair has no gold label.';

describe('MNLI GLUE TSV', () => {
  it('dev_matched (16 columns): premise, hypothesis, gold label and pairID; the "-" row is skipped and counted', async () => {
    const path = data('mnli/dev_matched.tsv');
    const ds = await openDataset(path);
    expect(ds.info).toEqual({
      name: 'mnli',
      path,
      kind: 'pair',
      labelNames: ['entailment', 'neutral', 'contradiction'],
      pairFields: { textA: 'sentence1', textB: 'sentence2' },
    });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex.map((e) => [e.id, e.label])).toEqual([
      ['11001e', 'entailment'],
      ['11002c', 'contradiction'],
      ['11003n', 'neutral'],
      ['11005e', 'entailment'],
    ]);
    expect(ex[0]).toEqual({
      kind: 'pair',
      id: '11001e',
      source: `${path}:2`,
      textA: 'The old ferryman rowed the two travellers across the river at dawn.',
      textB: 'Two travellers crossed the river.',
      label: 'entailment',
    });
    expect(ds.skipped).toEqual([{ file: path, line: 5, reason: `column "gold_label" is "-": ${NO_MAJORITY}` }]);
  });

  it('train (12 columns, one annotator label)', async () => {
    const ex = await collect(await loadMnli(data('mnli/train.tsv')));
    expect(ex.map((e) => [e.id, e.textB, e.label])).toEqual([
      ['22001c', 'She stayed at the party until the end.', 'contradiction'],
      ['22002e', 'The museum is open in the afternoon.', 'entailment'],
      ['22003n', 'The bakery sells bread and cakes.', 'neutral'],
    ]);
  });

  it('a missing hypothesis stops the run naming file:line and the column, or is skipped with --skip-bad-rows', async () => {
    const path = data('mnli/missing-hypothesis.tsv');
    const err = await collect(await loadMnli(path)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).describe()).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: empty text in column "sentence2" \\(hypothesis\\)\\.`),
    );
    const ds = await loadMnli(path, { skipBadRows: true });
    expect((await collect(ds)).map((e) => e.id)).toEqual(['22001c']);
    expect(ds.skipped).toEqual([{ file: path, line: 3, reason: 'empty text in column "sentence2" (hypothesis).' }]);
  });

  it('a header without the MNLI columns is refused at line 1', async () => {
    const err = await loadMnli(data('qnli/dev.tsv')).catch((e: unknown) => e);
    expect((err as DataError).describe()).toContain(
      `${data('qnli/dev.tsv')}:1: expected an MNLI header with the columns index, promptID, pairID, genre, ` +
        `sentence1, ` +
        `sentence2, gold_label but promptID, pairID, genre, sentence1, sentence2, gold_label are missing`,
    );
  });
});

describe('SNLI / MNLI JSONL', () => {
  it('SNLI dev: named snli, id = pairID, the "-" line skipped and counted', async () => {
    const path = data('snli/snli_1.0_dev.jsonl');
    const ds = await openDataset(path);
    expect(ds.info).toEqual({
      name: 'snli',
      path,
      kind: 'pair',
      labelNames: ['entailment', 'neutral', 'contradiction'],
      pairFields: { textA: 'sentence1', textB: 'sentence2' },
    });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex.map((e) => [e.id, e.label])).toEqual([
      ['3416050480.jpg#4r1e', 'entailment'],
      ['3416050480.jpg#4r1c', 'contradiction'],
      ['2267923837.jpg#2r1n', 'neutral'],
      ['4705552913.jpg#1r1e', 'entailment'],
    ]);
    expect(ex[3]).toEqual({
      kind: 'pair',
      id: '4705552913.jpg#1r1e',
      source: `${path}:5`,
      textA: 'A boy in a red jacket climbs a wooden fence',
      textB: 'A child is climbing.',
      label: 'entailment',
    });
    expect(ds.skipped).toEqual([{ file: path, line: 4, reason: `key "gold_label" is "-": ${NO_MAJORITY}` }]);
  });

  it('MultiNLI JSONL: named mnli (its objects have a genre)', async () => {
    const ds = await loadNliJsonl(data('mnli/multinli_1.0_dev_matched.jsonl'));
    expect(ds.info.name).toBe('mnli');
    expect((await collect(ds)).map((e) => e.id)).toEqual(['11001e', '11002c', '11003n']);
    expect(ds.skipped.map((s) => s.line)).toEqual([4]);
  });

  it('a line without sentence2 stops the run naming file:line', async () => {
    const path = data('snli/missing-hypothesis.jsonl');
    const err = await collect(await openDataset(path)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).where).toBe(`${path}:2`);
    expect((err as DataError).message).toBe('missing key "sentence2" (hypothesis).');
  });
});

describe('format names and detection', () => {
  it('detects mnli from the GLUE header and snli from the first JSON object', async () => {
    expect(await detectFormat(data('mnli/dev_matched.tsv'))).toBe('mnli');
    expect(await detectFormat(data('mnli/train.tsv'))).toBe('mnli');
    expect(await detectFormat(data('snli/snli_1.0_dev.jsonl'))).toBe('snli');
    expect(await detectFormat(data('mnli/multinli_1.0_dev_matched.jsonl'))).toBe('snli');
    expect(await detectFormat(data('reviews.jsonl'))).toBe('jsonl');
  });

  it('parses the names and their aliases', () => {
    expect(['mnli', 'MultiNLI', 'snli', 'nli-jsonl', 'mnli-jsonl'].map(parseFormat)).toEqual(['mnli', 'mnli', 'snli', 'snli', 'snli']);
  });

  it('an SNLI file with a column mapping is read as generic JSONL (gold_label "-" is then a label)', async () => {
    const ds = await openDataset(data('snli/snli_1.0_dev.jsonl'), {
      columns: { textA: 'sentence1', textB: 'sentence2', label: 'gold_label' },
    });
    expect(ds.info.name).toBe('jsonl');
    expect((await collect(ds)).map((e) => (e as PairExample).label)).toEqual(['entailment', 'contradiction', 'neutral', '-', 'entailment']);
  });
});

describe('pair files name their two texts', () => {
  it('each pair format reports the columns (or keys) of textA and textB, so users can name them', async () => {
    const fields = async (rel: string) => (await openDataset(data(rel))).info.pairFields;
    expect(await fields('qnli/dev.tsv')).toEqual({ textA: 'question', textB: 'sentence' });
    expect(await fields('sick/SICK.txt')).toEqual({ textA: 'sentence_A', textB: 'sentence_B' });
    expect(await fields('mrpc/dev.tsv')).toEqual({ textA: '#1 String', textB: '#2 String' });
    expect(await fields('pairs.csv')).toEqual({ textA: 'premise', textB: 'hypothesis' });
    expect(await fields('sst2/dev.tsv')).toBeUndefined();
  });
});
