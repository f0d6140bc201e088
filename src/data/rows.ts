/**
 * Shared plumbing for the loaders: file checks, streaming line reading, row validation and the
 * fail-or-skip policy for bad rows.
 */
import { createReadStream, statSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { suggestLabelMap } from '../text/label-names.ts';
import { DataError, TextstressError } from '../util/errors.ts';
import { DEFAULT_MAX_CHARS, type Dataset, type DatasetInfo, type Example, type LoadOptions, type SkippedRow } from './types.ts';

// The CLI's words: most readers meet this on the command line (suites and the API take skip_bad_rows / skipBadRows).
const SKIP_HINT = 'Fix or remove the row, or pass --skip-bad-rows to skip bad rows (they are counted).';

/** Throws a {@link TextstressError} naming the file unless `path` is a readable regular file. */
export function checkFile(path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new TextstressError('dataset file not found.', {
        where: path,
        hint: 'Check the path; relative paths are resolved from the current directory.',
      });
    }
    throw new TextstressError(`cannot read the dataset file (${(err as Error).message}).`, { where: path, cause: err });
  }
  if (st.isDirectory()) {
    let listing = '';
    try {
      const files = readdirSync(path)
        .filter((f) => !f.startsWith('.'))
        .sort();
      if (files.length > 0) {
        const shown = files.slice(0, 8).join(', ') + (files.length > 8 ? `, … (${files.length} files)` : '');
        listing = ` It contains: ${shown}.`;
      }
    } catch {
      // listing is only a courtesy
    }
    throw new TextstressError('is a directory, not a dataset file.', {
      where: path,
      hint: `Pass the path of one file inside it (e.g. its dev or test file).${listing}`,
    });
  }
  if (!st.isFile()) {
    throw new TextstressError('is not a regular file.', { where: path });
  }
}

/** One line of a text file, from {@link readLines}. */
export interface Line {
  text: string;
  /** 1-based line number. */
  line: number;
}

/**
 * Streams the lines of a UTF-8 text file: a leading BOM is dropped, "\r\n" and a stray trailing "\r"
 * are removed. Nothing but the current line is held in memory.
 */
export async function* readLines(path: string): AsyncGenerator<Line> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (let text of rl) {
      n++;
      if (n === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      yield { text, line: n };
    }
  } catch (err) {
    if (err instanceof TextstressError) throw err;
    throw new TextstressError(`cannot read the dataset file (${(err as Error).message}).`, { where: path, cause: err });
  } finally {
    rl.close();
    stream.destroy();
  }
}

/** The first line of a file (BOM and "\r" removed), or undefined for an empty file. */
export async function readFirstLine(path: string): Promise<string | undefined> {
  for await (const { text } of readLines(path)) return text;
  return undefined;
}

/** Builds a DataError with the standard "how to skip" hint appended. */
export function rowError(file: string, line: number, message: string, hint?: string): DataError {
  return new DataError(file, line, message, hint ? `${hint} ${SKIP_HINT}` : SKIP_HINT);
}

export function maxCharsOf(opts: LoadOptions): number {
  const m = opts.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isFinite(m) || m <= 0) {
    throw new TextstressError(`maxChars must be a positive number, got ${String(opts.maxChars)}.`);
  }
  return m;
}

function checkLimit(opts: LoadOptions): number {
  const l = opts.limit;
  if (l === undefined) return Infinity;
  if (!Number.isInteger(l) || l < 0) {
    throw new TextstressError(`limit must be a non-negative integer, got ${String(l)}.`);
  }
  return l;
}

/**
 * Validates one text field and returns it without surrounding white space; throws a DataError for
 * empty/whitespace-only text or text longer than maxChars. `field` names the column (or key) in messages.
 *
 * Every loader reads its texts through here, so no text keeps white space at its ends: a tokenizer may make a token
 * of it (every SST-2 sentence ends in a space, which byte-level BPE and SentencePiece turn into a final `Ġ`/`▁`), and
 * the data sets' own tools drop it (BERT's and GLUE's tokenizers split on white space, Hugging Face's run_qa.py
 * strips questions, CoNLL tokens are white-space separated). White space inside a text is kept as it is.
 */
export function checkText(file: string, line: number, field: string, raw: string, maxChars: number): string {
  const text = stripText(raw);
  if (text === '') throw rowError(file, line, `empty text in ${field}.`);
  if (text.length > maxChars) {
    throw rowError(
      file,
      line,
      `text in ${field} is ${text.length} characters long, over the limit of ${maxChars} characters.`,
      `If texts this long are intended, raise the limit with maxChars: ${text.length} (--max-chars ${text.length}).`,
    );
  }
  return text;
}

/** A text without white space at its ends (String.prototype.trim: Unicode White_Space, and a stray BOM). */
export function stripText(text: string): string {
  return text.trim();
}

/**
 * Maps a raw label through a fixed table (e.g. "0" → "negative"), throwing a DataError naming the
 * accepted values when it is not in the table.
 */
export function mapLabel(file: string, line: number, raw: string, table: Record<string, string>, keep?: readonly string[]): string {
  const key = raw.trim();
  // A label the --label-map names (e.g. pos/neg in an SST-2-shaped file) is kept as written: the map aligns it.
  if (keep?.includes(key)) return key;
  const name = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
  if (name === undefined) {
    const accepted = Object.keys(table)
      .map((k) => JSON.stringify(k))
      .join(', ');
    const names = [...new Set(Object.values(table))];
    throw rowError(
      file,
      line,
      `label ${JSON.stringify(raw)} is not in the label set (expected one of ${accepted}).`,
      `If the file names its labels otherwise, map each to the label of the same class with --label-map ` +
        `(e.g. --label-map ${(key && suggestLabelMap([key], names)) || `${key || 'x'}=<${names.join('|') || 'label'}>`}).`,
    );
  }
  return name;
}

/** Checks the number of fields of a split row. */
export function checkFieldCount(file: string, line: number, fields: string[], names: readonly string[], sep = 'tab-separated'): void {
  if (fields.length !== names.length) {
    throw rowError(
      file,
      line,
      `expected ${names.length} ${sep} columns (${names.join(', ')}) but found ${fields.length}` +
        (fields.length < names.length ? ' (missing column).' : ' (extra column).'),
    );
  }
}

/** `<basename>:<line>`, the default stable id of a row. */
export function lineId(file: string, line: number): string {
  return `${basename(file)}:${line}`;
}

/**
 * Thrown by a row builder for a row that is well formed but holds no usable example (an SNLI/MNLI pair
 * whose annotators did not agree, gold_label "-"): always skipped and counted in `skipped`, whatever
 * skipBadRows says, since the file is not at fault.
 */
export class RowSkip extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'RowSkip';
  }
}

/**
 * One raw row: its 1-based line and a function that builds the example from it. `build` throws a
 * DataError for a bad row and returns undefined for a row that is filtered out silently (e.g. another
 * SICK split).
 */
export interface RowItem<E> {
  line: number;
  build: () => E | undefined;
}

/**
 * Wraps a row source into a {@link Dataset}: each call of `examples()` makes one fresh pass, applying the
 * bad-row policy (throw, or skip + record + onSkip), the duplicate-id check and `limit`.
 */
export function makeDataset<E extends Example>(
  info: DatasetInfo,
  opts: LoadOptions,
  rows: () => AsyncIterable<RowItem<E>> | Iterable<RowItem<E>>,
): Dataset<E> {
  const limit = checkLimit(opts);
  const skipped: SkippedRow[] = [];
  const replacementChars: { rows: number; first?: string } = { rows: 0 };
  const file = info.path;
  return {
    info,
    skipped,
    replacementChars,
    examples(): AsyncIterable<E> {
      return {
        async *[Symbol.asyncIterator]() {
          skipped.length = 0;
          replacementChars.rows = 0;
          delete replacementChars.first;
          if (limit === 0) return;
          const seen = new Map<string, number>();
          let count = 0;
          for await (const item of rows()) {
            let ex: E | undefined;
            try {
              ex = item.build();
              // Ids made from positions cannot repeat: no need to keep every one of them.
              if (ex !== undefined && !info.uniqueIds) {
                const first = seen.get(ex.id);
                if (first !== undefined) {
                  throw rowError(file, item.line, `duplicate id ${JSON.stringify(ex.id)} (first used at line ${first}).`);
                }
                seen.set(ex.id, item.line);
              }
            } catch (err) {
              if (err instanceof RowSkip || (err instanceof DataError && opts.skipBadRows)) {
                const row: SkippedRow = { file: err.file, line: err.line, reason: err instanceof RowSkip ? err.reason : err.message };
                skipped.push(row);
                opts.onSkip?.(row);
                continue;
              }
              throw err;
            }
            if (ex === undefined) continue;
            if (hasReplacementChar(ex)) {
              replacementChars.rows++;
              replacementChars.first ??= ex.source ?? `${file}:${item.line}`;
            }
            yield ex;
            if (++count >= limit) return;
          }
        },
      };
    },
  };
}

/** Does any text of the example hold U+FFFD (what undecodable UTF-8 bytes become)? */
function hasReplacementChar(ex: Example): boolean {
  switch (ex.kind) {
    case 'text':
      return ex.text.includes('\uFFFD');
    case 'pair':
      return ex.textA.includes('\uFFFD') || ex.textB.includes('\uFFFD');
    case 'tokens':
      return ex.tokens.some((t) => t.includes('\uFFFD'));
    case 'qa':
      return ex.question.includes('\uFFFD') || ex.context.includes('\uFFFD');
  }
}

/** Reads every example of a dataset into an array (for small datasets and tests). */
export async function collect<E extends Example>(dataset: Dataset<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const ex of dataset.examples()) out.push(ex);
  return out;
}

/** Throws when a `split` was given to a format that has no splits. */
export function rejectSplit(format: string, path: string, split: string | undefined): void {
  if (split !== undefined) {
    throw new TextstressError(`the ${format} format has no splits, but split "${split}" was asked for.`, {
      where: path,
      hint: 'Only SICK files hold several splits; for other datasets pass the file of the split you want.',
    });
  }
}
