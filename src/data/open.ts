/**
 * Format detection and `openDataset`, the one entry point the CLI and recipes use.
 */
import { basename, extname, sep } from 'node:path';
import { TextstressError } from '../util/errors.ts';
import { loadConll } from './conll.ts';
import { isHubSpec, openHubDataset } from './hf/index.ts';
import { loadCola, loadMnli, loadMrpc, loadQnli, loadSick, loadSst2 } from './glue.ts';
import { checkFile, readFirstLine } from './rows.ts';
import { isNliJsonlObject, loadNliJsonl } from './snli.ts';
import { loadSquad } from './squad.ts';
import { loadCsv, loadJsonl, loadTsv } from './tabular.ts';
import { DATA_FORMATS, type DataFormat, type Dataset, type OpenOptions } from './types.ts';

/** One line per format, for help texts and error messages. */
export const FORMAT_DESCRIPTIONS: Record<DataFormat, string> = {
  sst2: 'GLUE SST-2 TSV (sentence, label 0/1)',
  mrpc: 'GLUE MRPC TSV (Quality, #1 ID, #2 ID, #1 String, #2 String)',
  cola: 'GLUE CoLA TSV without header (source, label, mark, sentence)',
  qnli: 'GLUE QNLI TSV (index, question, sentence, label)',
  sick: 'SICK NLI TSV (pair_ID, sentence_A, sentence_B, entailment_label, …, SemEval_set); split TRAIN/TRIAL/TEST',
  mnli: 'MNLI GLUE TSV (index, promptID, pairID, genre, …parses, sentence1, sentence2, label1…, gold_label); gold_label "-" rows skipped and counted',
  snli: 'SNLI or MNLI JSON Lines (sentence1, sentence2, gold_label, pairID); gold_label "-" rows skipped and counted',
  csv: 'CSV with a header row and a column mapping (text, label | textA, textB, label; optional id)',
  tsv: 'TSV with a header row and a column mapping (tabs split literally)',
  jsonl: 'JSON Lines, one object per line, with a key mapping like csv',
  squad: 'SQuAD v1.1 JSON (also adversarial SQuAD AddSent/AddOneSent)',
  conll: 'CoNLL-2003 NER (token POS chunk NER per line, IOB1 or IOB2)',
};

function formatsHint(): string {
  return (
    'Accepted formats: ' +
    DATA_FORMATS.map((f) => `${f} (${FORMAT_DESCRIPTIONS[f]})`).join('; ') +
    '. Name the format with --format <name> (e.g. --format sst2).'
  );
}

/** Checks a format name coming from the outside (e.g. a CLI flag). */
export function parseFormat(name: string): DataFormat {
  const f = name.trim().toLowerCase();
  const alias: Record<string, DataFormat> = {
    'sst-2': 'sst2',
    conll2003: 'conll',
    'conll-2003': 'conll',
    ndjson: 'jsonl',
    json: 'squad',
    multinli: 'mnli',
    'snli-jsonl': 'snli',
    'mnli-jsonl': 'snli',
    'nli-jsonl': 'snli',
  };
  const found = alias[f] ?? (DATA_FORMATS as readonly string[]).find((d) => d === f);
  if (found === undefined) {
    throw new TextstressError(`unknown dataset format "${name}".`, { hint: formatsHint() });
  }
  return found as DataFormat;
}

const CONLL_TAG = /^(O|[BI]-\S+)$/;

function formatFromHeader(first: string, lowerPath: string): DataFormat | undefined {
  const cols = first.split('\t').map((c) => c.trim());
  const starts = (...names: string[]): boolean => names.every((n, i) => cols[i] === n);
  if (cols.length === 2 && starts('sentence', 'label')) return 'sst2';
  if (starts('Quality', '#1 ID', '#2 ID') || starts('index', '#1 ID', '#2 ID')) return 'mrpc';
  if (starts('index', 'question', 'sentence')) return 'qnli';
  if (starts('pair_ID', 'sentence_A', 'sentence_B')) return 'sick';
  if (starts('index', 'promptID', 'pairID', 'genre')) return 'mnli';
  if (cols.length === 2 && starts('index', 'sentence')) return /sst-?2/.test(lowerPath) ? 'sst2' : 'cola';
  if (cols.length === 4 && /^[01]$/.test(cols[1]!) && /^[*?]*$/.test(cols[2]!)) return 'cola';
  const t = first.trim();
  if (t.startsWith('-DOCSTART-')) return 'conll';
  if (!first.includes('\t')) {
    if (t.startsWith('{')) {
      try {
        const v: unknown = JSON.parse(t);
        if (typeof v === 'object' && v !== null && !Array.isArray(v))
          return isNliJsonlObject(v as Record<string, unknown>) ? 'snli' : 'jsonl';
      } catch {
        // a one-line JSON document (SQuAD) or not JSON at all
      }
      if (t.includes('"data"') || t.includes('"paragraphs"')) return 'squad';
    }
    const fields = t.split(/\s+/);
    if (fields.length >= 2 && CONLL_TAG.test(fields[fields.length - 1]!)) return 'conll';
  }
  return undefined;
}

function formatFromPath(lowerPath: string): DataFormat | undefined {
  const parts = lowerPath.split(/[\\/]/);
  const name = parts[parts.length - 1] ?? '';
  if (/^eng\.(train|testa|testb)$/.test(name) || /\.(conll|iob|iob1|iob2|bio)$/.test(name)) return 'conll';
  const dirs = parts.slice(0, -1).join('/') + '/' + name.replace(/\.[^.]*$/, '');
  if (/(^|[/_.-])sst-?2([/_.-]|$)/.test(dirs)) return 'sst2';
  if (/(^|[/_.-])mrpc([/_.-]|$)/.test(dirs)) return 'mrpc';
  if (/(^|[/_.-])cola([/_.-]|$)/.test(dirs)) return 'cola';
  if (/(^|[/_.-])qnli([/_.-]|$)/.test(dirs)) return 'qnli';
  if (/(^|[/_.-])sick([/_.-]|$)/.test(dirs)) return 'sick';
  if (/(^|[/_.-])(mnli|multinli)([/_.-]|$)/.test(dirs)) return 'mnli';
  if (/(^|[/_.-])conll(2003)?([/_.-]|$)/.test(dirs)) return 'conll';
  return undefined;
}

/** A JSONL file whose first line is an SNLI/MNLI object (sentence1, sentence2, gold_label) is read as snli. */
async function jsonlFormat(path: string): Promise<DataFormat> {
  const first = await readFirstLine(path);
  try {
    const v: unknown = JSON.parse(first ?? '');
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && isNliJsonlObject(v as Record<string, unknown>)) return 'snli';
  } catch {
    // not JSON on the first line: the jsonl loader reports it with its line
  }
  return 'jsonl';
}

/**
 * Detects the format of a dataset file from its extension (.json → squad, .jsonl/.ndjson → jsonl, or snli
 * when the first line is an SNLI/MNLI object, .csv → csv), its first line (GLUE/SICK headers, CoLA rows, CoNLL lines) or its path (…/sst2/…,
 * eng.testb …), in that order; .tsv files with another header are generic tsv. Throws a
 * TextstressError listing the accepted formats when it cannot tell.
 */
export async function detectFormat(path: string): Promise<DataFormat> {
  // A hub dataset has no file format to write data back in: exports of it are JSONL only.
  if (isHubSpec(path)) return 'jsonl';
  checkFile(path);
  const ext = extname(path).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return jsonlFormat(path);
  if (ext === '.json') return 'squad';
  if (ext === '.csv') return 'csv';
  const lowerPath = path.split(sep).join('/').toLowerCase();
  const first = await readFirstLine(path);
  if (first === undefined || first.trim() === '') {
    // CoNLL files may start with a blank line; nothing else may.
    const byPath = formatFromPath(lowerPath);
    if (byPath === 'conll') return byPath;
    throw new TextstressError(
      first === undefined ? 'the dataset file is empty.' : 'cannot tell the dataset format: the file starts with a blank line.',
      { where: path, hint: formatsHint() },
    );
  }
  const found = formatFromHeader(first, lowerPath) ?? formatFromPath(lowerPath);
  if (found) return found;
  if (ext === '.tsv' && first.includes('\t')) return 'tsv';
  throw new TextstressError(`cannot tell the dataset format of ${basename(path)} from its name or its first line.`, {
    where: path,
    hint: formatsHint(),
  });
}

const TABULAR: readonly DataFormat[] = ['csv', 'tsv', 'jsonl'];

/**
 * Opens a dataset for streaming, picking the loader from `opts.format` or {@link detectFormat}.
 * Fails with a TextstressError naming the file when it does not exist, is a directory, or its format
 * cannot be determined; with a DataError (file + line) for a bad header or, later while iterating,
 * a bad row (unless skipBadRows). A path starting with `hf:` is a hub dataset
 * (`hf:<owner>/<name>[:<config>]:<split>`), downloaded and cached as parquet files.
 */
export async function openDataset(path: string, opts: OpenOptions = {}): Promise<Dataset> {
  if (isHubSpec(path)) return openHubDataset(path, opts);
  checkFile(path);
  let format = opts.format !== undefined ? parseFormat(opts.format) : await detectFormat(path);
  // An SNLI-looking JSONL file with a column mapping or label set is read as the generic JSONL it also is.
  if (opts.format === undefined && format === 'snli' && (opts.columns !== undefined || opts.labels !== undefined)) format = 'jsonl';
  if (!TABULAR.includes(format)) {
    const extra = (['columns', 'labels', 'delimiter'] as const).filter((k) => opts[k] !== undefined);
    if (extra.length > 0) {
      throw new TextstressError(
        `${extra.join(' and ')} only apply to the csv, tsv and jsonl formats, but the file was read as ${format}.`,
        {
          where: path,
          hint: 'To read a GLUE-like file with your own column mapping, pass --format tsv (or csv).',
        },
      );
    }
  } else if (format !== 'csv' && opts.delimiter !== undefined) {
    throw new TextstressError(`delimiter only applies to the csv format, not ${format}.`, { where: path });
  }
  const { format: _format, columns, labels, delimiter, ...load } = opts;
  switch (format) {
    case 'sst2':
      return loadSst2(path, load);
    case 'mrpc':
      return loadMrpc(path, load);
    case 'cola':
      return loadCola(path, load);
    case 'qnli':
      return loadQnli(path, load);
    case 'sick':
      return loadSick(path, load);
    case 'mnli':
      return loadMnli(path, load);
    case 'snli':
      return loadNliJsonl(path, load);
    case 'squad':
      return loadSquad(path, load);
    case 'conll':
      return loadConll(path, load);
    case 'csv':
      return loadCsv(path, { ...load, columns, labels, delimiter });
    case 'tsv':
      return loadTsv(path, { ...load, columns, labels });
    case 'jsonl':
      return loadJsonl(path, { ...load, columns, labels });
  }
}
