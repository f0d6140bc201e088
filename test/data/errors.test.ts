/**
 * Bad input: broken fixtures in test/fixtures/data/ and generated files in a temp dir.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError, TextstressError } from '../../src/util/errors.ts';
import {
  collect,
  detectFormat,
  jsonErrorLocation,
  loadCsv,
  loadJsonl,
  loadSst2,
  loadSquad,
  openDataset,
  type Dataset,
  type Example,
  type SkippedRow,
} from '../../src/data/index.ts';

const FIX = fileURLToPath(new URL('../fixtures/data/', import.meta.url));
const fix = (name: string): string => join(FIX, name);
const tmp = mkdtempSync(join(tmpdir(), 'textstress-data-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `fn` and returns the error it throws (failing the test when it throws none). */
async function caught(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error, got none');
}

async function dataError(fn: () => Promise<unknown>): Promise<DataError> {
  const err = await caught(fn);
  expect(err).toBeInstanceOf(DataError);
  return err as DataError;
}

const readAll = async <E extends Example>(ds: Promise<Dataset<E>>): Promise<E[]> => collect(await ds);

describe('TSV bad rows', () => {
  it('a row missing a column names the file and line', async () => {
    const file = fix('sst2-missing-column.tsv');
    const err = await dataError(() => readAll(openDataset(file)));
    expect(err.file).toBe(file);
    expect(err.line).toBe(4);
    expect(err.message).toBe('expected 2 tab-separated columns (sentence, label) but found 1 (missing column).');
    expect(err.describe()).toContain(`${file}:4: expected 2 tab-separated columns`);
    expect(err.describe()).toContain('sst2-missing-column.tsv:4');
    expect(err.describe()).toContain('--skip-bad-rows');
  });

  it('rows before the bad one are delivered first (streaming)', async () => {
    const ds = await openDataset(fix('sst2-missing-column.tsv'));
    const seen: string[] = [];
    const err = await caught(async () => {
      for await (const ex of ds.examples()) seen.push(ex.id);
    });
    expect(err).toBeInstanceOf(DataError);
    expect(seen).toEqual(['sst2-missing-column.tsv:2', 'sst2-missing-column.tsv:3']);
  });

  it('empty text, bad label: errors with line numbers', async () => {
    const file = fix('sst2-bad-rows.tsv');
    const ds = await loadSst2(file);
    const err = await dataError(() => collect(ds));
    expect(err.line).toBe(3); // first bad row: missing column
    // each bad row on its own
    const one = async (body: string): Promise<DataError> => {
      const f = join(tmp, `one-${Math.random().toString(36).slice(2)}.tsv`);
      writeFileSync(f, `sentence\tlabel\nok\t1\n${body}\n`);
      return dataError(() => readAll(loadSst2(f)));
    };
    const empty = await one('  \t0');
    expect(empty.line).toBe(3);
    expect(empty.message).toBe('empty text in column "sentence".');
    const label = await one('fine\t2');
    expect(label.message).toBe('label "2" is not in the label set (expected one of "0", "1").');
    expect(label.describe()).toMatch(/one-\w+\.tsv:3: label "2"/);
  });

  it('skipBadRows skips, counts and reports each bad row', async () => {
    const file = fix('sst2-bad-rows.tsv');
    const reported: SkippedRow[] = [];
    const ds = await openDataset(file, { skipBadRows: true, onSkip: (r) => reported.push(r) });
    const ex = await collect(ds);
    expect(ex.map((e) => e.id)).toEqual(['sst2-bad-rows.tsv:2', 'sst2-bad-rows.tsv:6', 'sst2-bad-rows.tsv:8']);
    expect(ex[1]).toMatchObject({ text: 'fine "quoted', label: 'negative' });
    expect(ds.skipped.map((s) => s.line)).toEqual([3, 4, 5, 7]);
    expect(ds.skipped.every((s) => s.file === file)).toBe(true);
    expect(ds.skipped[1]!.reason).toBe('empty text in column "sentence".');
    expect(reported).toEqual(ds.skipped);
    // a second pass starts the count afresh
    await collect(ds);
    expect(ds.skipped).toHaveLength(4);
  });

  it('a 100,000-character text gives an error with the length, the limit and how to change it', async () => {
    const file = join(tmp, 'long.tsv');
    writeFileSync(file, `sentence\tlabel\nshort one\t1\n${'a'.repeat(100_000)}\t0\n`);
    const err = await dataError(() => readAll(openDataset(file, { format: 'sst2' })));
    expect(err.line).toBe(3);
    expect(err.message).toBe('text in column "sentence" is 100000 characters long, over the limit of 20000 characters.');
    expect(err.describe()).toContain(`${file}:3:`);
    expect(err.describe()).toContain('maxChars: 100000 (--max-chars 100000)');
    // raising the limit lets it through; skipBadRows skips it
    expect(await readAll(openDataset(file, { maxChars: 100_000 }))).toHaveLength(2);
    const ds = await openDataset(file, { skipBadRows: true });
    expect(await collect(ds)).toHaveLength(1);
    expect(ds.skipped).toEqual([{ file, line: 3, reason: err.message }]);
  });

  it('a wrong header is a DataError at line 1 that suggests --format', async () => {
    const file = join(tmp, 'wrong-header.tsv');
    writeFileSync(file, 'text\tlabel\nhi\t1\n');
    const err = await dataError(() => loadSst2(file));
    expect(err.line).toBe(1);
    expect(err.describe()).toContain('expected the SST-2 header "sentence<TAB>label" but found "text<TAB>label"');
    expect(err.describe()).toContain('--format');
  });
});

describe('JSON and JSONL', () => {
  it('JSON syntax error in a SQuAD file → DataError with the line and the parser message', async () => {
    const file = fix('squad-syntax-error.json');
    const err = await dataError(() => openDataset(file));
    expect(err.file).toBe(file);
    expect(err.line).toBe(10);
    expect(err.message).toMatch(/^invalid JSON at column \d+: .*(Expected|Unexpected).*/);
    expect(err.describe()).toContain('squad-syntax-error.json:10: invalid JSON');
  });

  it('jsonErrorLocation reads "position N" (Node 20) and "line L column C" messages', () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    expect(jsonErrorLocation("Expected ',' or '}' after property value in JSON at position 13", text)).toEqual({ line: 3, column: 3 });
    expect(jsonErrorLocation("Expected ',' or '}' after property value in JSON at position 13 (line 3 column 3)", text)).toEqual({
      line: 3,
      column: 3,
    });
    expect(jsonErrorLocation('Unexpected end of JSON input', '{\n"a":')).toEqual({ line: 2, column: 5 });
  });

  it('jsonErrorLocation finds V8 "Unexpected token" errors (no position) from the quoted snippet', () => {
    const texts = [
      'x',
      '{\n  "a": x\n}',
      '{\n  "aaaaaaaaaaaaaaaaaaaaaa": 1,\n  "bbbbbbbbbbbbbbbbbb": x,\n  "ccccccccccccccccccccccc": 2\n}',
      '{\n  "aaaaaaaaaaaaaaaaaaaaaa": 1,\n  "bbbbbbbbbbbbbbbbbb": x}',
      'x\n{"aaaaaaaaaaaaaaaaaaaaaa": 1}',
      '[1, 2,\n 3,, 4]',
    ];
    for (const text of texts) {
      let message = '';
      try {
        JSON.parse(text);
      } catch (err) {
        message = (err as Error).message;
      }
      const want = text.indexOf(/,,/.test(text) ? ',,' : 'x') + (/,,/.test(text) ? 1 : 0);
      const before = text.slice(0, want);
      const line = before.split('\n').length;
      const loc = jsonErrorLocation(message, text);
      expect(loc.line, `${message} in ${JSON.stringify(text)}`).toBe(line);
    }
  });

  it('SQuAD bad questions: answer offset mismatch and empty question, with lines', async () => {
    const file = fix('squad-small.json');
    const err = await dataError(() => readAll(loadSquad(file)));
    expect(err.line).toBe(11);
    expect(err.message).toBe('answer 1 of question q2 is "2 million" but the context at answer_start 2 reads "ris is th".');
    const ds = await loadSquad(file, { skipBadRows: true });
    const ex = await collect(ds);
    expect(ex.map((e) => e.id)).toEqual(['q1', 'q4']);
    expect(ex[0]).toMatchObject({ source: `${file}:10`, title: 'Paris', answers: [{ text: 'France', start: 24 }] });
    expect(ds.skipped.map((s) => [s.line, s.reason])).toEqual([
      [11, err.message],
      [12, 'empty text in "question" of question q3.'],
    ]);
  });

  it('a bad JSONL line → DataError with its line number and the parser message', async () => {
    const file = fix('bad-line.jsonl');
    const err = await dataError(() => readAll(openDataset(file)));
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^invalid JSON: .+/);
    expect(err.describe()).toContain('bad-line.jsonl:3: invalid JSON');
  });

  it('JSONL with skipBadRows: counts skipped lines; numeric labels become strings', async () => {
    const ds = await loadJsonl(fix('bad-line.jsonl'), { skipBadRows: true });
    expect(ds.info).toMatchObject({ name: 'jsonl', kind: 'text' });
    const ex = await collect(ds);
    expect(ex.map((e) => [e.id, e.kind === 'text' ? e.label : ''])).toEqual([
      ['a', 'pos'],
      ['b', 'neg'],
      ['e', '1'],
    ]);
    expect(ds.skipped.map((s) => s.line)).toEqual([3, 5]);
    expect(ds.skipped[1]!.reason).toBe('empty text in key "text".');
  });

  it('JSONL column mapping and label set', async () => {
    const file = fix('reviews.jsonl');
    const opts = { columns: { text: 'review', label: 'stars' }, labels: ['negative', 'positive'] };
    const err = await dataError(() => readAll(openDataset(file, opts)));
    expect(err.line).toBe(3);
    expect(err.message).toContain('label "so-so" in key "stars" is not in the label set');
    const ds = await openDataset(file, { ...opts, limit: 2 });
    expect(ds.info.labelNames).toEqual(['negative', 'positive']);
    expect(await collect(ds)).toMatchObject([
      { id: 'reviews.jsonl:1', text: 'loved it', label: 'positive' },
      { id: 'reviews.jsonl:2', text: 'hated it', label: 'negative' },
    ]);
    // without a mapping "review" is guessed as the text but the label key cannot be
    const noMap = await dataError(() => openDataset(file));
    expect(noMap.line).toBe(1);
    expect(noMap.describe()).toContain('reviews.jsonl:1: cannot tell which key holds the label; the keys are "review", "stars"');
    expect(noMap.describe()).toContain('--text-column');
  });
});

describe('CSV', () => {
  it('pairs with quoting and a multi-line field; ids from a mapped column or <basename>:<line>', async () => {
    const file = fix('pairs.csv');
    const ds = await openDataset(file);
    expect(ds.info).toMatchObject({ name: 'csv', kind: 'pair' });
    const ex = await collect(ds);
    expect(ex).toMatchObject([
      { id: 'pairs.csv:2', textA: 'A man, smiling, waves.', textB: 'A man waves.', label: 'entailment' },
      { id: 'pairs.csv:3', textA: 'He said "hi"\nand left.', label: 'contradiction', source: `${file}:3` },
      { id: 'pairs.csv:5', textA: 'A dog runs.', label: 'neutral' },
    ]);
    const withId = await collect(await loadCsv(file, { columns: { id: 'pair' } }));
    expect(withId.map((e) => e.id)).toEqual(['p1', 'p2', 'p3']);
  });

  it('a CSV row with a missing column and a CSV syntax error name the line', async () => {
    const file = join(tmp, 'bad.csv');
    writeFileSync(file, 'text,label\nfine,pos\nno label\nok,neg\n"broken"quote,neg\n');
    const err = await dataError(() => readAll(loadCsv(file)));
    expect(err.line).toBe(3);
    expect(err.message).toBe('expected 2 comma-separated columns (text, label) but found 1 (missing column).');
    const ds = await loadCsv(file, { skipBadRows: true });
    expect((await collect(ds)).map((e) => e.id)).toEqual(['bad.csv:2', 'bad.csv:4']);
    expect(ds.skipped.map((s) => s.line)).toEqual([3, 5]);
    expect(ds.skipped[1]!.reason).toMatch(/^CSV syntax error: /);
    const syntax = join(tmp, 'syntax.csv');
    writeFileSync(syntax, 'text,label\nfine,pos\n"broken"quote,neg\n');
    const err2 = await dataError(() => readAll(loadCsv(syntax)));
    expect(err2.line).toBe(3);
    expect(err2.describe()).toContain('syntax.csv:3: CSV syntax error');
  });
});

describe('openDataset: files and formats', () => {
  it('a missing file', async () => {
    const file = join(tmp, 'nope.tsv');
    const err = await caught(() => openDataset(file));
    expect(err).toBeInstanceOf(TextstressError);
    expect((err as TextstressError).describe()).toBe(
      `${file}: dataset file not found. Check the path; relative paths are resolved from the current directory.`,
    );
  });

  it('a directory', async () => {
    const dir = join(tmp, 'a-dir');
    mkdirSync(dir);
    writeFileSync(join(dir, 'dev.tsv'), 'sentence\tlabel\n');
    const err = (await caught(() => openDataset(dir))) as TextstressError;
    expect(err).toBeInstanceOf(TextstressError);
    expect(err.describe()).toBe(
      `${dir}: is a directory, not a dataset file. Pass the path of one file inside it (e.g. its dev or test file). It contains: dev.tsv.`,
    );
  });

  it('an undetectable format lists the accepted formats and --format', async () => {
    const file = fix('notes.txt');
    const err = (await caught(() => openDataset(file))) as TextstressError;
    expect(err).toBeInstanceOf(TextstressError);
    const msg = err.describe();
    expect(msg).toContain(`${file}: cannot tell the dataset format of notes.txt`);
    for (const f of ['sst2', 'mrpc', 'cola', 'qnli', 'sick', 'csv', 'tsv', 'jsonl', 'squad', 'conll']) expect(msg).toContain(`${f} (`);
    expect(msg).toContain('--format <name>');
    await expect(openDataset(file, { format: 'bogus' as never })).rejects.toThrow(/unknown dataset format "bogus"/);
  });

  it('detects formats from headers, names and extensions', async () => {
    expect(await detectFormat(fix('sst2-bad-rows.tsv'))).toBe('sst2');
    expect(await detectFormat(fix('pairs.csv'))).toBe('csv');
    expect(await detectFormat(fix('bad-line.jsonl'))).toBe('jsonl');
    expect(await detectFormat(fix('squad-small.json'))).toBe('squad');
    expect(await detectFormat(fix('conll-bad.iob'))).toBe('conll');
    const generic = join(tmp, 'mine.tsv');
    writeFileSync(generic, 'id\ttext\tlabel\nx1\thello "world\tgreeting\n');
    expect(await detectFormat(generic)).toBe('tsv');
    expect(await readAll(openDataset(generic))).toEqual([
      { kind: 'text', id: 'x1', source: `${generic}:2`, text: 'hello "world', label: 'greeting' },
    ]);
    const noExt = join(tmp, 'noext');
    writeFileSync(noExt, 'gj04\t1\t\tThe sailors rode the breeze.\n');
    expect(await detectFormat(noExt)).toBe('cola');
  });

  it('options that do not apply to the format are refused, not ignored', async () => {
    await expect(openDataset(fix('sst2-bad-rows.tsv'), { columns: { text: 'sentence' } })).rejects.toThrow(
      /columns only apply to the csv, tsv and jsonl formats, but the file was read as sst2/,
    );
    await expect(openDataset(fix('sst2-bad-rows.tsv'), { split: 'TRAIN' })).rejects.toThrow(/the sst2 format has no splits/);
  });
});
