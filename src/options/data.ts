/** The data options of the shared option table (src/options/shared.ts): which file, how to read it, which rows. */
import { z } from 'zod';
import { DATA_FORMATS } from '../data/types.ts';
import { int, option, type SharedOption } from './meta.ts';

/** The data options. */
export const DATA_OPTIONS = {
  data: option(
    z
      .string()
      .min(1)
      .describe('dataset file: GLUE TSV (SST-2, MRPC, CoLA, QNLI), SICK, CSV, JSONL, SQuAD JSON, CoNLL-2003, or hf:owner/name:split'),
    {
      flag: { short: 'd', arg: '<file>' },
      suite: { in: 'dataset', key: 'path', path: true },
      saved: true,
    },
  ),
  format: option(z.enum(DATA_FORMATS).describe('file format, when it cannot be told from the file'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  split: option(z.string().min(1).describe('split to read where a file holds several (SICK: TRAIN, TRIAL, TEST)'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  textColumn: option(z.string().min(1).describe('CSV/JSONL: column holding the text'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  textAColumn: option(z.string().min(1).describe('CSV/JSONL: column holding the first text of a pair'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  textBColumn: option(z.string().min(1).describe('CSV/JSONL: column holding the second text of a pair'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  labelColumn: option(z.string().min(1).describe('CSV/JSONL: column holding the gold label'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  idColumn: option(z.string().min(1).describe('CSV/JSONL: column holding a unique id'), {
    flag: { arg: '<name>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  skipBadRows: option(z.boolean().describe('skip malformed rows (counted and listed in skipped-rows.json) instead of stopping'), {
    flag: {},
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  maxChars: option(int(1).describe('longest text accepted (longer rows are bad rows; default 20000)'), {
    flag: { arg: '<n>' },
    suite: { in: 'dataset' },
    saved: true,
    identity: 'data',
  }),
  limit: option(int(1).describe('use only the first n examples'), {
    flag: { short: 'n', arg: '<n>' },
    suite: { in: ['dataset', 'test'] },
    saved: true,
  }),
} satisfies Record<string, SharedOption>;
