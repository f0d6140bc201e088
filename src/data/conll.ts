/**
 * CoNLL-2003 NER (`token POS chunk NER` columns, or any whitespace-separated columns with the tag last):
 * IOB1 tags converted to IOB2, `-DOCSTART-` lines dropped, sentences separated by blank lines.
 */
import { basename } from 'node:path';
import { DataError } from '../util/errors.ts';
import { checkFile, checkText, makeDataset, maxCharsOf, readLines, rejectSplit, rowError, type RowItem } from './rows.ts';
import type { Dataset, DatasetInfo, LoadOptions, TokenExample } from './types.ts';

/** An entity mention: tokens `start` (inclusive) to `end` (exclusive). */
export interface EntitySpan {
  type: string;
  start: number;
  end: number;
}

/** Splits "B-PER" into ["B", "PER"]; "O" and malformed tags give undefined. */
function splitTag(tag: string): [string, string] | undefined {
  const m = /^([BI])-(.+)$/.exec(tag);
  return m ? [m[1]!, m[2]!] : undefined;
}

/**
 * IOB1 → IOB2: an `I-X` that starts an entity (the previous tag is not of type X) becomes `B-X`.
 * `B-X` (IOB1's marker between two adjacent X entities) and `O` are kept; already-IOB2 input comes back
 * unchanged. Tags that are neither `O` nor `B-`/`I-` prefixed are copied as they are.
 */
export function iob1ToIob2(tags: readonly string[]): string[] {
  const out: string[] = [];
  let prevType: string | undefined;
  for (const tag of tags) {
    const t = splitTag(tag);
    if (t === undefined) {
      out.push(tag);
      prevType = undefined;
      continue;
    }
    const [prefix, type] = t;
    out.push(prefix === 'I' && prevType !== type ? `B-${type}` : tag);
    prevType = type;
  }
  return out;
}

/**
 * Entity spans of an IOB2 tag sequence, in order, `end` exclusive. Lenient like seqeval's default mode:
 * an `I-X` that does not continue an X entity starts a new one; any tag other than `B-`/`I-` ends the
 * current entity.
 */
export function entitySpans(tags: readonly string[]): EntitySpan[] {
  const spans: EntitySpan[] = [];
  let cur: EntitySpan | undefined;
  for (let i = 0; i < tags.length; i++) {
    const t = splitTag(tags[i]!);
    if (t === undefined) {
      if (cur) spans.push(cur);
      cur = undefined;
      continue;
    }
    const [prefix, type] = t;
    if (prefix === 'B' || cur === undefined || cur.type !== type) {
      if (cur) spans.push(cur);
      cur = { type, start: i, end: i + 1 };
    } else {
      cur.end = i + 1;
    }
  }
  if (cur) spans.push(cur);
  return spans;
}

const TAG = /^(O|[BI]-\S+)$/;

/**
 * CoNLL-2003: one token per line with the NER tag in the last column (IOB1 or IOB2), blank lines between
 * sentences, `-DOCSTART-` lines skipped. Tags come out IOB2. id = `<basename>-<sentence index>` (0-based,
 * counting every sentence of the file, skipped ones included, so ids are stable).
 */
export async function loadConll(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<TokenExample>> {
  checkFile(path);
  rejectSplit('conll', path, opts.split);
  const maxChars = maxCharsOf(opts);
  const base = basename(path);
  const info: DatasetInfo = { name: 'conll2003', path, kind: 'tokens' };

  return makeDataset<TokenExample>(info, opts, async function* (): AsyncIterable<RowItem<TokenExample>> {
    let index = 0;
    let tokens: string[] = [];
    let tags: string[] = [];
    let start = 0;
    let error: DataError | undefined;

    const flush = (): RowItem<TokenExample> | undefined => {
      if (tokens.length === 0 && error === undefined) return undefined;
      const sentence = { tokens, tags, start, error, id: `${base}-${index++}` };
      tokens = [];
      tags = [];
      error = undefined;
      return {
        line: sentence.start,
        build: () => {
          if (sentence.error) throw sentence.error;
          checkText(path, sentence.start, `the sentence starting here`, sentence.tokens.join(' '), maxChars);
          return {
            kind: 'tokens',
            id: sentence.id,
            source: `${path}:${sentence.start}`,
            tokens: sentence.tokens,
            tags: iob1ToIob2(sentence.tags),
          };
        },
      };
    };

    for await (const { text, line } of readLines(path)) {
      const trimmed = text.trim();
      if (trimmed === '' || trimmed.startsWith('-DOCSTART-')) {
        const item = flush();
        if (item) yield item;
        continue;
      }
      if (tokens.length === 0 && error === undefined) start = line;
      if (error) continue; // the rest of a bad sentence
      const fields = trimmed.split(/\s+/);
      const tag = fields[fields.length - 1]!;
      if (fields.length < 2) {
        error = rowError(path, line, `expected a token and its tag separated by whitespace (token POS chunk NER), found ${JSON.stringify(trimmed.slice(0, 80))}.`);
      } else if (!TAG.test(tag)) {
        error = rowError(path, line, `tag ${JSON.stringify(tag)} of token ${JSON.stringify(fields[0])} is not O, B-<type> or I-<type>.`);
      } else {
        tokens.push(fields[0]!);
        tags.push(tag);
      }
    }
    const item = flush();
    if (item) yield item;
  });
}
