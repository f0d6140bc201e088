/**
 * GLUE TSV loaders (SST-2, MRPC, CoLA, QNLI, MNLI) and SICK. Rows are split on tabs literally: GLUE files
 * hold unbalanced quote characters that are text, not CSV quoting.
 */
import { DataError, TextstressError } from '../util/errors.ts';
import {
  RowSkip,
  checkFieldCount,
  checkFile,
  checkText,
  lineId,
  makeDataset,
  mapLabel,
  maxCharsOf,
  readFirstLine,
  readLines,
  rejectSplit,
  rowError,
  type RowItem,
} from './rows.ts';
import type { Dataset, DatasetInfo, LoadOptions, PairExample, TextExample } from './types.ts';

/** SST-2 label names in index order (0, 1). */
export const SST2_LABELS = ['negative', 'positive'];
/** MRPC label names in index order (0, 1). */
export const MRPC_LABELS = ['not_equivalent', 'equivalent'];
/** CoLA label names in index order (0, 1). */
export const COLA_LABELS = ['unacceptable', 'acceptable'];
/** QNLI label names, as the files spell them. */
export const QNLI_LABELS = ['entailment', 'not_entailment'];
/** SICK entailment label names. */
export const SICK_LABELS = ['entailment', 'neutral', 'contradiction'];
/** MNLI and SNLI label names: the names and order of SICK's. */
export const MNLI_LABELS = [...SICK_LABELS];
/** The gold_label of an SNLI/MNLI pair whose annotators reached no majority: skipped and counted. */
export const NO_GOLD_LABEL = '-';
/** Values of SICK's SemEval_set column; `split` picks one ("dev" means TRIAL). */
export const SICK_SPLITS = ['TRAIN', 'TRIAL', 'TEST'] as const;
/** One of {@link SICK_SPLITS}. */
export type SickSplit = (typeof SICK_SPLITS)[number];

const SST2_HEADER = ['sentence', 'label'];
const MRPC_HEADER = ['Quality', '#1 ID', '#2 ID', '#1 String', '#2 String'];
const COLA_COLUMNS = ['source', 'label', 'mark', 'sentence'];
const QNLI_HEADER = ['index', 'question', 'sentence', 'label'];

const FORMAT_HINT = 'If the file is in another format, name it with --format (e.g. --format csv).';
const UNLABELLED_HINT = 'This looks like an unlabelled GLUE test file; stress tests need gold labels, so use the dev (or train) file.';

const indexTable = (names: string[]): Record<string, string> => Object.fromEntries(names.map((n, i) => [String(i), n]));

const showHeader = (cols: readonly string[]): string => {
  const shown = cols.length > 6 ? [...cols.slice(0, 6), '…'] : cols;
  const joined = shown.map((c) => (c.length > 40 ? `${c.slice(0, 40)}…` : c)).join('\t');
  return JSON.stringify(joined).replace(/\\t/g, '<TAB>');
};

/** Reads the header at open time and checks it is exactly `expected`. */
async function expectHeader(
  path: string,
  name: string,
  expected: readonly string[],
  unlabelled?: (cols: string[]) => boolean,
): Promise<void> {
  const first = await readFirstLine(path);
  if (first === undefined) throw new DataError(path, 1, `the file is empty (expected the ${name} header ${showHeader(expected)}).`);
  const cols = first.split('\t').map((c) => c.trim());
  if (cols.length === expected.length && cols.every((c, i) => c === expected[i])) return;
  if (unlabelled?.(cols)) {
    throw new DataError(path, 1, `the ${name} file has no label column (header ${showHeader(cols)}).`, UNLABELLED_HINT);
  }
  throw new DataError(path, 1, `expected the ${name} header ${showHeader(expected)} but found ${showHeader(cols)}.`, FORMAT_HINT);
}

/** Streams data rows (after an optional header line), skipping blank lines. */
function tsvRows<E>(path: string, hasHeader: boolean, build: (fields: string[], line: number) => E | undefined) {
  return async function* (): AsyncIterable<RowItem<E>> {
    for await (const { text, line } of readLines(path)) {
      if (hasHeader && line === 1) continue;
      if (text.trim() === '') continue;
      yield { line, build: () => build(text.split('\t'), line) };
    }
  };
}

const src = (path: string, line: number): string => `${path}:${line}`;

/** GLUE SST-2: header `sentence\tlabel`, labels 0/1 → negative/positive. Id `<basename>:<line>`. */
export async function loadSst2(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<TextExample>> {
  checkFile(path);
  rejectSplit('sst2', path, opts.split);
  await expectHeader(path, 'SST-2', SST2_HEADER);
  const maxChars = maxCharsOf(opts);
  const table = indexTable(SST2_LABELS);
  const info: DatasetInfo = { name: 'sst2', path, kind: 'text', labelNames: [...SST2_LABELS], uniqueIds: true };
  return makeDataset<TextExample>(
    info,
    opts,
    tsvRows(path, true, (f, line) => {
      checkFieldCount(path, line, f, SST2_HEADER);
      return {
        kind: 'text',
        id: lineId(path, line),
        source: src(path, line),
        text: checkText(path, line, 'column "sentence"', f[0]!, maxChars),
        label: mapLabel(path, line, f[1]!, table, opts.keepLabels),
      };
    }),
  );
}

/**
 * GLUE MRPC (the file starts with a UTF-8 BOM): `Quality\t#1 ID\t#2 ID\t#1 String\t#2 String`,
 * labels 0/1 → not_equivalent/equivalent. Id `<#1 ID>-<#2 ID>`.
 */
export async function loadMrpc(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<PairExample>> {
  checkFile(path);
  rejectSplit('mrpc', path, opts.split);
  await expectHeader(path, 'MRPC', MRPC_HEADER, (cols) => cols[0] === 'index' && cols.includes('#1 String'));
  const maxChars = maxCharsOf(opts);
  const table = indexTable(MRPC_LABELS);
  const info: DatasetInfo = {
    name: 'mrpc',
    path,
    kind: 'pair',
    labelNames: [...MRPC_LABELS],
    pairFields: { textA: '#1 String', textB: '#2 String' },
  };
  return makeDataset<PairExample>(
    info,
    opts,
    tsvRows(path, true, (f, line) => {
      checkFieldCount(path, line, f, MRPC_HEADER);
      const id1 = f[1]!.trim();
      const id2 = f[2]!.trim();
      if (id1 === '' || id2 === '') throw rowError(path, line, 'empty sentence id in column "#1 ID" or "#2 ID".');
      return {
        kind: 'pair',
        id: `${id1}-${id2}`,
        source: src(path, line),
        textA: checkText(path, line, 'column "#1 String"', f[3]!, maxChars),
        textB: checkText(path, line, 'column "#2 String"', f[4]!, maxChars),
        label: mapLabel(path, line, f[0]!, table, opts.keepLabels),
      };
    }),
  );
}

/**
 * GLUE CoLA, no header: `source\tlabel\tmark\tsentence`, labels 0/1 → unacceptable/acceptable.
 * Id `<basename>:<line>`.
 */
export async function loadCola(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<TextExample>> {
  checkFile(path);
  rejectSplit('cola', path, opts.split);
  const first = await readFirstLine(path);
  if (first !== undefined && /^index\tsentence\s*$/.test(first)) {
    throw new DataError(path, 1, 'the CoLA file has no label column (header "index<TAB>sentence").', UNLABELLED_HINT);
  }
  const maxChars = maxCharsOf(opts);
  const table = indexTable(COLA_LABELS);
  const info: DatasetInfo = { name: 'cola', path, kind: 'text', labelNames: [...COLA_LABELS], uniqueIds: true };
  return makeDataset<TextExample>(
    info,
    opts,
    tsvRows(path, false, (f, line) => {
      checkFieldCount(path, line, f, COLA_COLUMNS);
      return {
        kind: 'text',
        id: lineId(path, line),
        source: src(path, line),
        text: checkText(path, line, 'column 4 (sentence)', f[3]!, maxChars),
        label: mapLabel(path, line, f[1]!, table, opts.keepLabels),
      };
    }),
  );
}

/**
 * GLUE QNLI: `index\tquestion\tsentence\tlabel`, labels entailment/not_entailment; textA = question,
 * textB = sentence. Id = the index column.
 */
export async function loadQnli(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<PairExample>> {
  checkFile(path);
  rejectSplit('qnli', path, opts.split);
  await expectHeader(path, 'QNLI', QNLI_HEADER, (cols) => cols.length === 3 && cols[0] === 'index' && cols[1] === 'question');
  const maxChars = maxCharsOf(opts);
  const table = Object.fromEntries(QNLI_LABELS.map((l) => [l, l]));
  const info: DatasetInfo = {
    name: 'qnli',
    path,
    kind: 'pair',
    labelNames: [...QNLI_LABELS],
    pairFields: { textA: 'question', textB: 'sentence' },
  };
  return makeDataset<PairExample>(
    info,
    opts,
    tsvRows(path, true, (f, line) => {
      checkFieldCount(path, line, f, QNLI_HEADER);
      const id = f[0]!.trim();
      if (id === '') throw rowError(path, line, 'empty id in column "index".');
      return {
        kind: 'pair',
        id,
        source: src(path, line),
        textA: checkText(path, line, 'column "question"', f[1]!, maxChars),
        textB: checkText(path, line, 'column "sentence"', f[2]!, maxChars),
        label: mapLabel(path, line, f[3]!, table, opts.keepLabels),
      };
    }),
  );
}

/** Normalises a SICK split name: train / trial / test in any case; "dev" and "validation" mean TRIAL. */
export function parseSickSplit(split: string, path = 'SICK'): SickSplit {
  const s = split.trim().toUpperCase();
  if (s === 'DEV' || s === 'VALIDATION') return 'TRIAL';
  if ((SICK_SPLITS as readonly string[]).includes(s)) return s as SickSplit;
  throw new TextstressError(`unknown SICK split "${split}".`, {
    where: path,
    hint: `Use one of ${SICK_SPLITS.join(', ')} (case-insensitive; "dev" = TRIAL).`,
  });
}

/**
 * SICK (tab-separated, header `pair_ID\tsentence_A\tsentence_B\tentailment_label\t…\tSemEval_set`; the
 * SemEval-2014 per-split files with `entailment_judgment` work too). Labels are lower-cased:
 * entailment / neutral / contradiction. `split` keeps only TRAIN, TRIAL or TEST rows. Id = pair_ID.
 */
export async function loadSick(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<PairExample>> {
  checkFile(path);
  const split = opts.split === undefined ? undefined : parseSickSplit(opts.split, path);
  const first = await readFirstLine(path);
  if (first === undefined)
    throw new DataError(path, 1, 'the file is empty (expected a SICK header starting "pair_ID<TAB>sentence_A<TAB>sentence_B").');
  const header = first.split('\t').map((c) => c.trim());
  const col = (...names: string[]): number => header.findIndex((h) => names.includes(h));
  const iId = col('pair_ID');
  const iA = col('sentence_A');
  const iB = col('sentence_B');
  const iLabel = col('entailment_label', 'entailment_judgment');
  const iSplit = col('SemEval_set');
  if (iId < 0 || iA < 0 || iB < 0 || iLabel < 0) {
    throw new DataError(
      path,
      1,
      `expected a SICK header with columns pair_ID, sentence_A, sentence_B and entailment_label but found ${showHeader(header)}.`,
      FORMAT_HINT,
    );
  }
  if (split !== undefined && iSplit < 0) {
    throw new DataError(
      path,
      1,
      `split ${split} was asked for but the file has no SemEval_set column.`,
      'Pass the file of that split instead, without split.',
    );
  }
  const maxChars = maxCharsOf(opts);
  const table = Object.fromEntries(SICK_LABELS.map((l) => [l.toUpperCase(), l]));
  const info: DatasetInfo = {
    name: 'sick',
    path,
    kind: 'pair',
    labelNames: [...SICK_LABELS],
    pairFields: { textA: 'sentence_A', textB: 'sentence_B' },
  };
  return makeDataset<PairExample>(
    info,
    opts,
    tsvRows(path, true, (f, line) => {
      checkFieldCount(path, line, f, header);
      if (split !== undefined) {
        const s = f[iSplit]!.trim().toUpperCase();
        if (!(SICK_SPLITS as readonly string[]).includes(s)) {
          throw rowError(path, line, `SemEval_set ${JSON.stringify(f[iSplit])} is not one of ${SICK_SPLITS.join(', ')}.`);
        }
        if (s !== split) return undefined;
      }
      const id = f[iId]!.trim();
      if (id === '') throw rowError(path, line, 'empty id in column "pair_ID".');
      return {
        kind: 'pair',
        id,
        source: src(path, line),
        textA: checkText(path, line, 'column "sentence_A"', f[iA]!, maxChars),
        textB: checkText(path, line, 'column "sentence_B"', f[iB]!, maxChars),
        label: mapLabel(path, line, f[iLabel]!.toUpperCase(), table),
      };
    }),
  );
}

/** The MNLI GLUE columns the loader reads; the others (parses, genre, label1…labelN) may come in any number. */
const MNLI_COLUMNS = ['index', 'promptID', 'pairID', 'genre', 'sentence1', 'sentence2', 'gold_label'];

/** Maps an SNLI/MNLI gold label; "-" (no majority among the annotators) is a counted skip, not an error. */
export function nliGoldLabel(file: string, line: number, raw: string, field: string): string {
  const label = raw.trim();
  if (label === NO_GOLD_LABEL)
    throw new RowSkip(file, line, `${field} is "-": the annotators reached no majority, so the pair has no gold label.`);
  return mapLabel(file, line, label, NLI_LABEL_TABLE);
}

const NLI_LABEL_TABLE = Object.fromEntries(MNLI_LABELS.map((l) => [l, l]));

/**
 * MNLI in the GLUE TSV layout (train.tsv, dev_matched.tsv, dev_mismatched.tsv): header `index\tpromptID\tpairID\t
 * genre\tsentence1_binary_parse\t…\tsentence1\tsentence2\tlabel1\t…\tgold_label` (train has one annotator
 * label, dev five). textA = sentence1 (premise), textB = sentence2 (hypothesis), labels entailment / neutral /
 * contradiction; a gold_label "-" is skipped and counted. Id = pairID.
 */
export async function loadMnli(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<PairExample>> {
  checkFile(path);
  rejectSplit('mnli', path, opts.split);
  const first = await readFirstLine(path);
  if (first === undefined) throw new DataError(path, 1, `the file is empty (expected the MNLI header ${showHeader(MNLI_COLUMNS)} …).`);
  const header = first.split('\t').map((c) => c.trim());
  const missing = MNLI_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    const unlabelled = missing.length === 1 && missing[0] === 'gold_label';
    throw new DataError(
      path,
      1,
      unlabelled
        ? `the MNLI file has no gold_label column (header ${showHeader(header)}).`
        : `expected an MNLI header with the columns ${MNLI_COLUMNS.join(', ')} but ${missing.join(', ')} ` +
            `${missing.length === 1 ? 'is' : 'are'} missing (found ${showHeader(header)}).`,
      unlabelled ? UNLABELLED_HINT : FORMAT_HINT,
    );
  }
  const col = (name: string): number => header.indexOf(name);
  const [iId, iA, iB, iLabel] = [col('pairID'), col('sentence1'), col('sentence2'), col('gold_label')];
  const maxChars = maxCharsOf(opts);
  const info: DatasetInfo = {
    name: 'mnli',
    path,
    kind: 'pair',
    labelNames: [...MNLI_LABELS],
    pairFields: { textA: 'sentence1', textB: 'sentence2' },
  };
  return makeDataset<PairExample>(
    info,
    opts,
    tsvRows(path, true, (f, line) => {
      checkFieldCount(path, line, f, header);
      const id = f[iId]!.trim();
      if (id === '') throw rowError(path, line, 'empty id in column "pairID".');
      const textA = checkText(path, line, 'column "sentence1" (premise)', f[iA]!, maxChars);
      const textB = checkText(path, line, 'column "sentence2" (hypothesis)', f[iB]!, maxChars);
      return {
        kind: 'pair',
        id,
        source: src(path, line),
        textA,
        textB,
        label: nliGoldLabel(path, line, f[iLabel]!, 'column "gold_label"'),
      };
    }),
  );
}
