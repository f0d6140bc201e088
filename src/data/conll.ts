/**
 * CoNLL-2003 NER (`token POS chunk NER` columns, or any whitespace-separated columns with the tag last):
 * IOB1 tags converted to IOB2, `-DOCSTART-` lines dropped, sentences separated by blank lines.
 */
import { basename } from 'node:path';
import { DataError } from '../util/errors.ts';
import { checkFile, checkText, makeDataset, maxCharsOf, readLines, rejectSplit, rowError, type RowItem } from './rows.ts';
import { iob1ToIob2 } from './entities.ts';
import type { Dataset, DatasetInfo, LoadOptions, TokenExample } from './types.ts';

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
  const info: DatasetInfo = { name: 'conll2003', path, kind: 'tokens', uniqueIds: true };

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
        error = rowError(
          path,
          line,
          `expected a token and its tag separated by whitespace (token POS chunk NER), found ${JSON.stringify(trimmed.slice(0, 80))}.`,
        );
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
