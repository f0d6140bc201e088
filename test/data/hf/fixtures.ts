/**
 * Parquet files in the layouts the hub serves (as the `datasets` library writes them: the parquet schema
 * pyarrow makes, and the `huggingface` key-value metadata with the features), made from hand-written rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaElement } from 'hyparquet';
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import { ROOT } from '../../cli/helpers.ts';

const str = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
const int = (name: string, type: 'INT32' | 'INT64'): SchemaElement => ({ name, type, repetition_type: 'OPTIONAL' });
/** pyarrow's list layout: <name> (LIST) → repeated group list → element. */
const list = (name: string, element: SchemaElement): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { ...element, name: 'element' },
];

function write(
  columns: { schema: SchemaElement[]; data: ColumnSource['data'] }[],
  names: string[],
  features: Record<string, unknown>,
  rowGroupSize?: number,
): Uint8Array {
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }, ...columns.flatMap((c) => c.schema)];
  const buf = parquetWriteBuffer({
    columnData: columns.map((c, i) => ({ name: names[i]!, data: c.data })),
    schema,
    kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }],
    ...(rowGroupSize ? { rowGroupSize } : {}),
  });
  return new Uint8Array(buf);
}

const classLabel = (names: string[]): Record<string, unknown> => ({ names, _type: 'ClassLabel' });
const value = (dtype: string): Record<string, unknown> => ({ dtype, _type: 'Value' });

// ------------------------------------------------------------------ SST-2 (stanfordnlp/sst2)

export interface Sst2Row {
  idx: number;
  sentence: string;
  label: number;
}

/** The first rows of SST-2 validation as the hub has them. */
export const SST2_ROWS: Sst2Row[] = [
  { idx: 0, sentence: "it 's a charming and often affecting journey . ", label: 1 },
  { idx: 1, sentence: 'unflinchingly bleak and desperate ', label: 0 },
  {
    idx: 2,
    sentence: 'allows us to hope that nolan is poised to embark a major career as a commercial yet inventive filmmaker . ',
    label: 1,
  },
];

export function sst2Parquet(rows: Sst2Row[], rowGroupSize?: number): Uint8Array {
  return write(
    [
      { schema: [int('idx', 'INT32')], data: rows.map((r) => r.idx) },
      { schema: [str('sentence')], data: rows.map((r) => r.sentence) },
      { schema: [int('label', 'INT64')], data: rows.map((r) => BigInt(r.label)) },
    ],
    ['idx', 'sentence', 'label'],
    { idx: value('int32'), sentence: value('string'), label: classLabel(['negative', 'positive']) },
    rowGroupSize,
  );
}

/** The project's 50 demo reviews (demo/reviews.tsv) in the SST-2 layout, for the end-to-end run. */
export function demoReviewRows(): Sst2Row[] {
  const lines = readFileSync(join(ROOT, 'demo', 'reviews.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((l, idx) => {
    const [sentence, label] = l.split('\t');
    return { idx, sentence: sentence!, label: Number(label) };
  });
}

// ------------------------------------------------------------------ GLUE MRPC (nyu-mll/glue, config mrpc)

export const MRPC_ROWS = [
  {
    sentence1: "He said the foodservice pie business doesn 't fit the company 's long-term growth strategy .",
    sentence2: '" The foodservice pie business does not fit our long-term growth strategy .',
    label: 1,
    idx: 0,
  },
  {
    sentence1: 'Magnarelli said Racicot hated the Iraqi regime and looked forward to using his long years of training in the war .',
    sentence2: 'His wife said he was " 100 percent behind George Bush " and looked forward to using his years of training in the war .',
    label: 0,
    idx: 1,
  },
];

export function mrpcParquet(rows: { sentence1: string; sentence2: string; label: number; idx: number }[]): Uint8Array {
  return write(
    [
      { schema: [str('sentence1')], data: rows.map((r) => r.sentence1) },
      { schema: [str('sentence2')], data: rows.map((r) => r.sentence2) },
      { schema: [int('label', 'INT64')], data: rows.map((r) => BigInt(r.label)) },
      { schema: [int('idx', 'INT32')], data: rows.map((r) => r.idx) },
    ],
    ['sentence1', 'sentence2', 'label', 'idx'],
    { sentence1: value('string'), sentence2: value('string'), label: classLabel(['not_equivalent', 'equivalent']), idx: value('int32') },
  );
}

// ------------------------------------------------------------------ SQuAD (rajpurkar/squad)

export interface SquadRow {
  id: string;
  title: string;
  context: string;
  question: string;
  answers: { text: string[]; answer_start: number[] };
}

const DENVER =
  'Super Bowl 50 was an American football game. The American Football Conference (AFC) champion Denver Broncos ' +
  'defeated the National Football Conference (NFC) champion Carolina Panthers 24–10.';

export const SQUAD_ROWS: SquadRow[] = [
  {
    id: '56be4db0acb8001400a502ec',
    title: 'Super_Bowl_50',
    context: DENVER,
    question: 'Which NFL team represented the AFC at Super Bowl 50?',
    answers: { text: ['Denver Broncos', 'Denver Broncos'], answer_start: [93, 93] },
  },
  {
    id: '56be4db0acb8001400a502ed',
    title: 'Super_Bowl_50',
    context: DENVER,
    question: 'Which NFL team represented the NFC at Super Bowl 50?',
    answers: { text: ['Carolina Panthers'], answer_start: [165] },
  },
];

export function squadParquet(rows: SquadRow[]): Uint8Array {
  return write(
    [
      { schema: [str('id')], data: rows.map((r) => r.id) },
      { schema: [str('title')], data: rows.map((r) => r.title) },
      { schema: [str('context')], data: rows.map((r) => r.context) },
      { schema: [str('question')], data: rows.map((r) => r.question) },
      {
        schema: [
          { name: 'answers', repetition_type: 'OPTIONAL', num_children: 2 },
          ...list('text', str('element')),
          ...list('answer_start', int('element', 'INT32')),
        ],
        data: rows.map((r) => r.answers),
      },
    ],
    ['id', 'title', 'context', 'question', 'answers'],
    {
      id: value('string'),
      title: value('string'),
      context: value('string'),
      question: value('string'),
      answers: { feature: { text: value('string'), answer_start: value('int32') }, _type: 'Sequence' },
    },
  );
}

// ------------------------------------------------------------------ CoNLL-2003 (eriktks/conll2003)

export const CONLL_NER = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC', 'B-MISC', 'I-MISC'];

export interface ConllRow {
  id: string;
  tokens: string[];
  ner_tags: number[];
}

export const CONLL_ROWS: ConllRow[] = [
  // IOB2 as the hub has it: B-ORG O B-MISC O O O B-MISC O O
  { id: '0', tokens: ['EU', 'rejects', 'German', 'call', 'to', 'boycott', 'British', 'lamb', '.'], ner_tags: [3, 0, 7, 0, 0, 0, 7, 0, 0] },
  // IOB1 (an entity that starts with I-): must come out IOB2
  { id: '1', tokens: ['Peter', 'Blackburn', 'of', 'European', 'Commission'], ner_tags: [2, 2, 0, 4, 4] },
];

export function conllParquet(rows: ConllRow[]): Uint8Array {
  return write(
    [
      { schema: [str('id')], data: rows.map((r) => r.id) },
      { schema: list('tokens', str('element')), data: rows.map((r) => r.tokens) },
      { schema: list('pos_tags', int('element', 'INT64')), data: rows.map((r) => r.tokens.map(() => 0n)) },
      { schema: list('ner_tags', int('element', 'INT64')), data: rows.map((r) => r.ner_tags.map(BigInt)) },
    ],
    ['id', 'tokens', 'pos_tags', 'ner_tags'],
    {
      id: value('string'),
      tokens: { feature: value('string'), _type: 'Sequence' },
      pos_tags: { feature: classLabel(['NN']), _type: 'Sequence' },
      // datasets ≥ 4 writes "List" where older versions wrote "Sequence": both are read.
      ner_tags: { feature: classLabel(CONLL_NER), _type: 'List' },
    },
  );
}

// ------------------------------------------------------------------ no id column, text in "review"

export function reviewsParquet(rows: { review: string; label: number }[]): Uint8Array {
  return write(
    [
      { schema: [str('review')], data: rows.map((r) => r.review) },
      { schema: [int('label', 'INT64')], data: rows.map((r) => BigInt(r.label)) },
    ],
    ['review', 'label'],
    { review: value('string'), label: classLabel(['bad', 'good']) },
  );
}
