/**
 * Each hub layout maps to the right examples: SST-2 (single text + ClassLabel), GLUE MRPC (pair, idx as id,
 * test split unlabelled), SQuAD (extractive QA) and CoNLL-2003 (tokens + a List of ClassLabel, IOB1 → IOB2),
 * plus column options, bad rows and the limit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collect, openDataset, type QaExample, type TokenExample } from '../../../src/data/index.ts';
import { DataError, TextstressError } from '../../../src/util/errors.ts';
import {
  CONLL_ROWS,
  MRPC_ROWS,
  SQUAD_ROWS,
  SST2_ROWS,
  conllParquet,
  mrpcParquet,
  squadParquet,
  sst2Parquet,
  reviewsParquet,
} from './fixtures.ts';
import { removeTempHomes, setHubEnv, tempHome } from './env.ts';
import { startFakeHub, type FakeHub } from './hub-server.ts';

let hub: FakeHub;
let restore: () => void;

beforeAll(async () => {
  const many = Array.from({ length: 25 }, (_, i) => ({ idx: i, sentence: `sentence number ${i}`, label: i % 2 }));
  hub = await startFakeHub({
    'stanfordnlp/sst2': {
      configs: {
        default: {
          validation: [sst2Parquet(SST2_ROWS)],
          // two files, several row groups each: rows must come in order across both
          train: [sst2Parquet(many.slice(0, 12), 5), sst2Parquet(many.slice(12), 5)],
        },
      },
    },
    'nyu-mll/glue': {
      configs: {
        mrpc: { validation: [mrpcParquet(MRPC_ROWS)], test: [mrpcParquet(MRPC_ROWS.map((r) => ({ ...r, label: -1 })))] },
      },
    },
    'someone/reviews': {
      configs: {
        default: {
          train: [
            reviewsParquet([
              { review: 'great', label: 1 },
              { review: 'awful', label: 0 },
            ]),
          ],
        },
      },
    },
    'rajpurkar/squad': { configs: { plain_text: { validation: [squadParquet(SQUAD_ROWS)] } } },
    'eriktks/conll2003': { configs: { conll2003: { test: [conllParquet(CONLL_ROWS)] } } },
    // White space around texts, answers and tokens: stripped, offsets moved with it.
    'someone/spaces': {
      configs: {
        qa: {
          validation: [
            squadParquet([
              {
                ...SQUAD_ROWS[0]!,
                context: `  ${SQUAD_ROWS[0]!.context} `,
                question: ` ${SQUAD_ROWS[0]!.question}  `,
                answers: { text: ['Denver Broncos', ' Denver Broncos '], answer_start: [95, 94] },
              },
            ]),
          ],
        },
        ner: { test: [conllParquet([{ ...CONLL_ROWS[0]!, tokens: [' EU', ...CONLL_ROWS[0]!.tokens.slice(1, -1), '.\u00A0'] }])] },
      },
    },
    'someone/bad-rows': {
      configs: {
        default: {
          validation: [
            sst2Parquet([SST2_ROWS[0]!, { idx: 1, sentence: '   ', label: 0 }, { idx: 2, sentence: 'fine', label: 7 }, SST2_ROWS[1]!]),
          ],
        },
      },
    },
  });
});
afterAll(async () => {
  await hub.close();
  removeTempHomes();
});
beforeEach(() => {
  restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: tempHome() });
});
afterEach(() => restore());

describe('hub layouts', () => {
  it('SST-2: single text, ClassLabel names as labels, idx as id', async () => {
    const ds = await openDataset('hf:stanfordnlp/sst2:validation');
    expect(ds.info).toEqual({ name: 'sst2', path: 'hf:stanfordnlp/sst2:validation', kind: 'text', labelNames: ['negative', 'positive'] });
    expect(await collect(ds)).toEqual([
      {
        kind: 'text',
        id: '0',
        source: 'hf:stanfordnlp/sst2:validation:0',
        text: "it 's a charming and often affecting journey .", // the hub's copy keeps GLUE's trailing space: stripped
        label: 'positive',
      },
      { kind: 'text', id: '1', source: 'hf:stanfordnlp/sst2:validation:1', text: 'unflinchingly bleak and desperate', label: 'negative' },
      {
        kind: 'text',
        id: '2',
        source: 'hf:stanfordnlp/sst2:validation:2',
        text: 'allows us to hope that nolan is poised to embark a major career as a commercial yet inventive filmmaker .',
        label: 'positive',
      },
    ]);
  });

  it('GLUE MRPC: a pair, config in the spec, idx as id; the unlabelled test split is refused', async () => {
    const ds = await openDataset('hf:nyu-mll/glue:mrpc:validation');
    expect(ds.info).toMatchObject({ name: 'mrpc', kind: 'pair', labelNames: ['not_equivalent', 'equivalent'] });
    expect(await collect(ds)).toEqual([
      {
        kind: 'pair',
        id: '0',
        source: 'hf:nyu-mll/glue:mrpc:validation:0',
        textA: MRPC_ROWS[0]!.sentence1,
        textB: MRPC_ROWS[0]!.sentence2,
        label: 'equivalent',
      },
      {
        kind: 'pair',
        id: '1',
        source: 'hf:nyu-mll/glue:mrpc:validation:1',
        textA: MRPC_ROWS[1]!.sentence1,
        textB: MRPC_ROWS[1]!.sentence2,
        label: 'not_equivalent',
      },
    ]);
    const err = await openDataset('hf:nyu-mll/glue:mrpc:test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TextstressError);
    expect((err as TextstressError).describe()).toBe(
      'hf:nyu-mll/glue:mrpc:test: split "test" is unlabelled: its label column "label" holds -1. Stress tests need ' +
        'gold labels: use a labelled split (validation or train); GLUE test splits have none.',
    );
  });

  it('SQuAD: question, context, answers (text + answer_start lists), id and title', async () => {
    const ds = await openDataset('hf:rajpurkar/squad:validation');
    expect(ds.info).toEqual({ name: 'squad', path: 'hf:rajpurkar/squad:validation', kind: 'qa' });
    expect(await collect(ds)).toEqual([
      {
        kind: 'qa',
        id: '56be4db0acb8001400a502ec',
        source: 'hf:rajpurkar/squad:validation:0',
        question: 'Which NFL team represented the AFC at Super Bowl 50?',
        context: SQUAD_ROWS[0]!.context,
        answers: [
          { text: 'Denver Broncos', start: 93 },
          { text: 'Denver Broncos', start: 93 },
        ],
        title: 'Super_Bowl_50',
      },
      {
        kind: 'qa',
        id: '56be4db0acb8001400a502ed',
        source: 'hf:rajpurkar/squad:validation:1',
        question: 'Which NFL team represented the NFC at Super Bowl 50?',
        context: SQUAD_ROWS[1]!.context,
        answers: [{ text: 'Carolina Panthers', start: 165 }],
        title: 'Super_Bowl_50',
      },
    ]);
  });

  it('surrounding white space: a QA context and its answers are stripped with the offsets moved; tokens are stripped', async () => {
    const [qa] = (await collect(await openDataset('hf:someone/spaces:qa:validation'))) as QaExample[];
    expect(qa).toMatchObject({
      question: SQUAD_ROWS[0]!.question,
      context: SQUAD_ROWS[0]!.context,
      answers: [
        { text: 'Denver Broncos', start: 93 },
        { text: 'Denver Broncos', start: 93 },
      ],
    });
    const [ner] = (await collect(await openDataset('hf:someone/spaces:ner:test'))) as TokenExample[];
    expect(ner!.tokens).toEqual(CONLL_ROWS[0]!.tokens);
  });

  it('CoNLL-2003: tokens and ner_tags names, IOB1 converted to IOB2', async () => {
    const ds = await openDataset('hf:eriktks/conll2003:test');
    expect(ds.info).toEqual({ name: 'conll2003', path: 'hf:eriktks/conll2003:test', kind: 'tokens' });
    expect(await collect(ds)).toEqual([
      {
        kind: 'tokens',
        id: '0',
        source: 'hf:eriktks/conll2003:test:0',
        tokens: ['EU', 'rejects', 'German', 'call', 'to', 'boycott', 'British', 'lamb', '.'],
        tags: ['B-ORG', 'O', 'B-MISC', 'O', 'O', 'O', 'B-MISC', 'O', 'O'],
      },
      {
        kind: 'tokens',
        id: '1',
        source: 'hf:eriktks/conll2003:test:1',
        tokens: ['Peter', 'Blackburn', 'of', 'European', 'Commission'],
        tags: ['B-PER', 'I-PER', 'O', 'B-ORG', 'I-ORG'],
      },
    ]);
  });

  it('streams rows in order across files and row groups; --limit stops early; no id column → <split>:<row>', async () => {
    const all = await collect(await openDataset('hf:stanfordnlp/sst2:train', { columns: { text: 'sentence', label: 'label' } }));
    expect(all.map((e) => (e.kind === 'text' ? e.text : ''))).toEqual(Array.from({ length: 25 }, (_, i) => `sentence number ${i}`));
    const limited = await collect(await openDataset('hf:stanfordnlp/sst2:train', { limit: 7 }));
    expect(limited.map((e) => e.id)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    const reviews = await openDataset('hf:someone/reviews:train');
    expect(reviews.info).toEqual({
      name: 'reviews',
      path: 'hf:someone/reviews:train',
      kind: 'text',
      labelNames: ['bad', 'good'],
      uniqueIds: true,
    });
    expect(await collect(reviews)).toEqual([
      { kind: 'text', id: 'train:0', source: 'hf:someone/reviews:train:0', text: 'great', label: 'good' },
      { kind: 'text', id: 'train:1', source: 'hf:someone/reviews:train:1', text: 'awful', label: 'bad' },
    ]);
  });

  it('column options pick the columns; an unknown column is named with the ones that exist', async () => {
    const ds = await openDataset('hf:nyu-mll/glue:mrpc:validation', { columns: { text: 'sentence2', label: 'label' } });
    const [first] = await collect(ds);
    expect(first).toMatchObject({ kind: 'text', text: MRPC_ROWS[0]!.sentence2, label: 'equivalent' });
    const err = await openDataset('hf:nyu-mll/glue:mrpc:validation', { columns: { text: 'review', label: 'label' } }).catch(
      (e: unknown) => e,
    );
    expect((err as TextstressError).describe()).toMatch(
      /^hf:nyu-mll\/glue:mrpc:validation: the text column "review" is not in this dataset; its columns are "sentence1", "sentence2", "label", "idx"\. Name the columns with --text-column/,
    );
  });

  it('bad rows stop the run at <spec>:<row>, or are skipped and counted', async () => {
    const ds = await openDataset('hf:someone/bad-rows:validation');
    const err = await collect(ds).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).describe()).toMatch(
      /^hf:someone\/bad-rows:validation:1: empty text in column "sentence"\. .*--skip-bad-rows/,
    );
    const skipping = await openDataset('hf:someone/bad-rows:validation', { skipBadRows: true });
    expect((await collect(skipping)).map((e) => e.id)).toEqual(['0', '1']);
    expect(skipping.skipped).toEqual([
      { file: 'hf:someone/bad-rows:validation', line: 1, reason: 'empty text in column "sentence".' },
      { file: 'hf:someone/bad-rows:validation', line: 2, reason: 'label 7 in column "label" is not one of the dataset\'s 2 labels (0–1).' },
    ]);
  });

  it('options that make no sense for the hub are refused', async () => {
    const err = await openDataset('hf:stanfordnlp/sst2:validation', { format: 'sst2' }).catch((e: unknown) => e);
    expect((err as TextstressError).describe()).toBe(
      'hf:stanfordnlp/sst2:validation: format does not apply to a hub dataset: hub datasets are parquet files read by column: leave --format out.',
    );
    const noSplit = await openDataset('hf:stanfordnlp/sst2').catch((e: unknown) => e);
    expect((noSplit as TextstressError).describe()).toMatch(
      /^"hf:stanfordnlp\/sst2" names no split\. Write hf:<owner>\/<name>\[:<config>\]:<split>/,
    );
  });
});
