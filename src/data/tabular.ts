/**
 * Generic tabular loaders with a column mapping: CSV (csv-parse, header row), TSV (header row, split on
 * tabs literally) and JSONL (one JSON object per line).
 */
import { createReadStream } from 'node:fs';
import { parse, type CsvError } from 'csv-parse';
import { DataError, TextstressError } from '../util/errors.ts';
import {
  checkFieldCount,
  checkFile,
  checkText,
  lineId,
  makeDataset,
  maxCharsOf,
  readFirstLine,
  readLines,
  rejectSplit,
  rowError,
  type RowItem,
} from './rows.ts';
import type { ColumnMap, Dataset, DatasetInfo, OpenOptions, PairExample, TextExample } from './types.ts';

/** Options of the CSV, TSV and JSONL loaders (column names, limits, bad-row handling). */
export type TabularOptions = Omit<OpenOptions, 'format'>;

/** A resolved column mapping. */
export type ResolvedColumns =
  { kind: 'text'; text: string; label: string; id?: string } | { kind: 'pair'; textA: string; textB: string; label: string; id?: string };

const GUESS = {
  text: ['text', 'sentence', 'review', 'content'],
  textA: ['textA', 'text_a', 'sentence1', 'premise', 'sentence_A', 'text1'],
  textB: ['textB', 'text_b', 'sentence2', 'hypothesis', 'sentence_B', 'text2'],
  label: ['label', 'gold_label', 'labels', 'class', 'target'],
  id: ['id', 'idx', 'guid', 'pair_ID'],
} as const;

const COLUMNS_HINT = 'Name them with --text-column and --label-column (pairs: --text-a-column, --text-b-column; optionally --id-column).';

/**
 * Resolves which columns (or JSON keys) hold text, label and id. Explicit `columns` entries win;
 * missing ones are guessed from common names (text/sentence, sentence1/premise, label, id …).
 * Throws a DataError at `line` (the header) naming the available columns when it cannot.
 */
export function resolveColumns(
  available: readonly string[],
  columns: ColumnMap | undefined,
  file: string,
  line: number,
  what = 'column',
): ResolvedColumns {
  const given = columns ?? {};
  const guess = (names: readonly string[]): string | undefined => names.find((n) => available.includes(n));
  const list = available.map((c) => JSON.stringify(c)).join(', ') || '(none)';
  for (const [role, name] of Object.entries(given)) {
    if (name !== undefined && !available.includes(name)) {
      throw new DataError(file, line, `the ${role} ${what} ${JSON.stringify(name)} was not found; the ${what}s are ${list}.`, COLUMNS_HINT);
    }
  }
  if (given.text !== undefined && (given.textA !== undefined || given.textB !== undefined)) {
    throw new TextstressError('columns: give either text (single text) or textA + textB (pairs), not both.', { where: file });
  }
  const id = given.id ?? guess(GUESS.id);
  const needLabel = (): string => {
    const label = given.label ?? guess(GUESS.label);
    if (label === undefined) {
      throw new DataError(file, line, `cannot tell which ${what} holds the label; the ${what}s are ${list}.`, COLUMNS_HINT);
    }
    return label;
  };
  const pairWanted = given.textA !== undefined || given.textB !== undefined;
  if (!pairWanted) {
    const text = given.text ?? guess(GUESS.text);
    if (text !== undefined) return { kind: 'text', text, label: needLabel(), ...(id !== undefined ? { id } : {}) };
  }
  const textA = given.textA ?? guess(GUESS.textA);
  const textB = given.textB ?? guess(GUESS.textB);
  if (textA !== undefined && textB !== undefined) {
    return { kind: 'pair', textA, textB, label: needLabel(), ...(id !== undefined ? { id } : {}) };
  }
  throw new DataError(
    file,
    line,
    `cannot tell which ${what}${pairWanted ? 's hold the two texts' : ' holds the text'}; the ${what}s are ${list}.`,
    COLUMNS_HINT,
  );
}

/** Label normaliser for an optional fixed label set (index → name mapping for integer labels). */
function labelNormaliser(file: string, labels: string[] | undefined): (line: number, raw: string, field: string) => string {
  return (line, raw, field) => {
    const v = raw.trim();
    if (v === '') throw rowError(file, line, `empty label in ${field}.`);
    if (labels === undefined || labels.includes(v)) return v;
    if (/^\d+$/.test(v)) {
      const name = labels[Number(v)];
      if (name !== undefined) return name;
    }
    throw rowError(
      file,
      line,
      `label ${JSON.stringify(v)} in ${field} is not in the label set ` +
        `(${labels.map((l) => JSON.stringify(l)).join(', ')}, or their indexes 0–${labels.length - 1}).`,
    );
  };
}

type Cell = (name: string) => unknown;

/** Builds one example from a row accessed through `cell`, validating every field. */
function buildExample(
  file: string,
  line: number,
  cols: ResolvedColumns,
  cell: Cell,
  maxChars: number,
  normLabel: (line: number, raw: string, field: string) => string,
  what: string,
): TextExample | PairExample {
  const str = (name: string, role: 'text' | 'label' | 'id'): string => {
    const v = cell(name);
    const field = `${what} ${JSON.stringify(name)}`;
    if (v === undefined || v === null) throw rowError(file, line, `missing ${field}.`);
    if (typeof v === 'string') return v;
    if (role !== 'text' && (typeof v === 'number' || typeof v === 'boolean')) return String(v);
    throw rowError(
      file,
      line,
      `${field} must be a ${role === 'text' ? 'string' : 'string or number'}, got ${Array.isArray(v) ? 'an array' : typeof v}.`,
    );
  };
  const text = (name: string): string => checkText(file, line, `${what} ${JSON.stringify(name)}`, str(name, 'text'), maxChars);
  const label = normLabel(line, str(cols.label, 'label'), `${what} ${JSON.stringify(cols.label)}`);
  let id = lineId(file, line);
  if (cols.id !== undefined) {
    id = str(cols.id, 'id').trim();
    if (id === '') throw rowError(file, line, `empty id in ${what} ${JSON.stringify(cols.id)}.`);
  }
  const source = `${file}:${line}`;
  if (cols.kind === 'text') return { kind: 'text', id, source, text: text(cols.text), label };
  return { kind: 'pair', id, source, textA: text(cols.textA), textB: text(cols.textB), label };
}

function tabularInfo(name: string, path: string, cols: ResolvedColumns, labels: string[] | undefined): DatasetInfo {
  return {
    name,
    path,
    kind: cols.kind,
    ...(labels ? { labelNames: [...labels] } : {}),
    ...(cols.id === undefined ? { uniqueIds: true } : {}),
    ...(cols.kind === 'pair' ? { pairFields: { textA: cols.textA, textB: cols.textB } } : {}),
  };
}

// ---------------------------------------------------------------- CSV

interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * Streams CSV records with their starting line. CSV syntax errors come back in file order as DataErrors
 * (the parser skips the broken record and goes on), so the caller decides whether to fail or skip.
 */
async function* csvRecords(path: string, delimiter: string): AsyncGenerator<CsvRecord | DataError> {
  // The parser runs ahead of the consumer: errors are held until a record that starts after them.
  const pending: DataError[] = [];
  let lastErrorLine = 0;
  const toDataError = (err: CsvError | Error): DataError => {
    const lines = (err as CsvError).lines;
    return rowError(path, typeof lines === 'number' ? Math.max(1, lines) : 1, `CSV syntax error: ${err.message}`);
  };
  const stream = createReadStream(path);
  const parser = stream.pipe(
    parse({
      bom: true,
      delimiter,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err) => {
        if (!err) return undefined;
        const e = toDataError(err);
        // csv-parse may report one broken record twice (e.g. bad closing quote, then quote not closed).
        if (e.line !== lastErrorLine) pending.push(e);
        lastErrorLine = e.line;
        return undefined;
      },
    }),
  );
  stream.on('error', (err) => parser.destroy(err));
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number }; raw: string }>) {
      const inner = r.raw.replace(/\r?\n$/, '');
      const line = r.info.lines - (inner.split('\n').length - 1);
      while (pending.length > 0 && pending[0]!.line < line) yield pending.shift()!;
      yield { fields: r.record, line };
    }
  } catch (err) {
    if (err instanceof TextstressError) throw err;
    if ((err as NodeJS.ErrnoException).code?.startsWith('CSV_')) throw toDataError(err as CsvError);
    throw new TextstressError(`cannot read the dataset file (${(err as Error).message}).`, { where: path, cause: err });
  } finally {
    stream.destroy();
    parser.destroy();
  }
  while (pending.length > 0) yield pending.shift()!;
}

const DELIMITERS = [',', ';', '\t', '|'];

/** A header's field delimiter: the most frequent of , ; tab | outside quotes (a comma when none is more frequent). */
export function sniffDelimiter(header: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && DELIMITERS.includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * Generic CSV with a header row (csv-parse: RFC 4180 quoting, BOM handled). `columns` maps header names
 * to text/label/id (guessed when left out). Id `<basename>:<line>` unless an id column is mapped.
 */
export async function loadCsv(path: string, opts: TabularOptions = {}): Promise<Dataset<TextExample | PairExample>> {
  checkFile(path);
  rejectSplit('csv', path, opts.split);
  // Spreadsheets in many locales write ";" between fields: read the header to see which one the file uses.
  const delimiter = opts.delimiter ?? sniffDelimiter((await readFirstLine(path)) ?? '');
  const maxChars = maxCharsOf(opts);
  let header: CsvRecord | undefined;
  for await (const r of csvRecords(path, delimiter)) {
    if (r instanceof DataError) throw r;
    header = r;
    break;
  }
  if (header === undefined) throw new DataError(path, 1, 'the CSV file is empty (expected a header row).');
  const names = header.fields.map((h) => h.trim());
  const headerLine = header.line;
  const cols = resolveColumns(names, opts.columns, path, headerLine);
  const index = new Map(names.map((n, i) => [n, i]));
  const normLabel = labelNormaliser(path, opts.labels);
  return makeDataset(tabularInfo('csv', path, cols, opts.labels), opts, async function* (): AsyncIterable<
    RowItem<TextExample | PairExample>
  > {
    let first = true;
    for await (const r of csvRecords(path, delimiter)) {
      if (r instanceof DataError) {
        yield {
          line: r.line,
          build: () => {
            throw r;
          },
        };
        continue;
      }
      if (first) {
        first = false;
        continue; // header
      }
      yield {
        line: r.line,
        build: () => {
          checkFieldCount(path, r.line, r.fields, names, delimiter === ',' ? 'comma-separated' : `${JSON.stringify(delimiter)}-separated`);
          return buildExample(path, r.line, cols, (n) => r.fields[index.get(n)!], maxChars, normLabel, 'column');
        },
      };
    }
  });
}

// ---------------------------------------------------------------- TSV

/**
 * Generic TSV with a header row, split on tabs literally (quotes are text). Same column mapping as CSV.
 */
export async function loadTsv(path: string, opts: TabularOptions = {}): Promise<Dataset<TextExample | PairExample>> {
  checkFile(path);
  rejectSplit('tsv', path, opts.split);
  const maxChars = maxCharsOf(opts);
  let headerText: string | undefined;
  let headerLine = 1;
  for await (const { text, line } of readLines(path)) {
    if (text.trim() === '') continue;
    headerText = text;
    headerLine = line;
    break;
  }
  if (headerText === undefined) throw new DataError(path, 1, 'the TSV file is empty (expected a header row).');
  const names = headerText.split('\t').map((h) => h.trim());
  const cols = resolveColumns(names, opts.columns, path, headerLine);
  const index = new Map(names.map((n, i) => [n, i]));
  const normLabel = labelNormaliser(path, opts.labels);
  return makeDataset(tabularInfo('tsv', path, cols, opts.labels), opts, async function* (): AsyncIterable<
    RowItem<TextExample | PairExample>
  > {
    for await (const { text, line } of readLines(path)) {
      if (line <= headerLine || text.trim() === '') continue;
      yield {
        line,
        build: () => {
          const fields = text.split('\t');
          checkFieldCount(path, line, fields, names);
          return buildExample(path, line, cols, (n) => fields[index.get(n)!], maxChars, normLabel, 'column');
        },
      };
    }
  });
}

// ---------------------------------------------------------------- JSONL

/** One JSONL line as an object, or a DataError naming the line. */
export function parseJsonLine(path: string, line: number, text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw rowError(path, line, `invalid JSON: ${(err as Error).message}.`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw rowError(
      path,
      line,
      `expected a JSON object on each line, got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}.`,
    );
  }
  return v as Record<string, unknown>;
}

/**
 * JSON Lines: one object per line (blank lines ignored). `columns` maps keys to text/label/id (guessed
 * from the first object when left out). Id `<basename>:<line>` unless an id key is mapped.
 */
export async function loadJsonl(path: string, opts: TabularOptions = {}): Promise<Dataset<TextExample | PairExample>> {
  checkFile(path);
  rejectSplit('jsonl', path, opts.split);
  const maxChars = maxCharsOf(opts);
  // The first valid object fixes the mapping (bad lines before it are skipped later with skipBadRows).
  let firstObj: { obj: Record<string, unknown>; line: number } | undefined;
  for await (const { text, line } of readLines(path)) {
    if (text.trim() === '') continue;
    try {
      firstObj = { obj: parseJsonLine(path, line, text), line };
      break;
    } catch (err) {
      if (!opts.skipBadRows) throw err;
    }
  }
  if (firstObj === undefined) throw new DataError(path, 1, 'the JSONL file holds no JSON object.');
  const cols = resolveColumns(Object.keys(firstObj.obj), opts.columns, path, firstObj.line, 'key');
  const normLabel = labelNormaliser(path, opts.labels);
  return makeDataset(tabularInfo('jsonl', path, cols, opts.labels), opts, async function* (): AsyncIterable<
    RowItem<TextExample | PairExample>
  > {
    for await (const { text, line } of readLines(path)) {
      if (text.trim() === '') continue;
      yield {
        line,
        build: () => {
          const obj = parseJsonLine(path, line, text);
          return buildExample(path, line, cols, (n) => (Object.hasOwn(obj, n) ? obj[n] : undefined), maxChars, normLabel, 'key');
        },
      };
    }
  });
}
