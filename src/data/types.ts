/**
 * Typed examples. Every example carries a stable `id` (used for seeding, checkpoints and joins) and
 * `source` = where it came from (file:line) so errors and reports can point back at it.
 */
export interface ExampleBase {
  id: string;
  /** "file:line" of the row the example came from. */
  source?: string;
}

/** Single-text classification (SST-2, CoLA, generic CSV/JSONL). */
export interface TextExample extends ExampleBase {
  kind: 'text';
  text: string;
  label: string;
}

/** Text-pair classification (MRPC, QNLI, SICK/MNLI-style NLI). */
export interface PairExample extends ExampleBase {
  kind: 'pair';
  textA: string;
  textB: string;
  label: string;
}

/** Token tagging (NER). `tags` are IOB2, one per token. */
export interface TokenExample extends ExampleBase {
  kind: 'tokens';
  tokens: string[];
  tags: string[];
}

/** A gold answer of a QA example. */
export interface QaAnswer {
  text: string;
  /** Character offset of the answer in the context. */
  start: number;
}

/** Extractive QA (SQuAD v1.1). */
export interface QaExample extends ExampleBase {
  kind: 'qa';
  question: string;
  context: string;
  answers: QaAnswer[];
  title?: string;
}

/** One example of any kind; `kind` tells which. */
export type Example = TextExample | PairExample | TokenExample | QaExample;
/** "text", "pair", "tokens" or "qa". */
export type ExampleKind = Example['kind'];

/** What a loader knows about the dataset as a whole. */
export interface DatasetInfo {
  /** Short name, e.g. "sst2", "mrpc", "conll2003", "squad". */
  name: string;
  path: string;
  kind: ExampleKind;
  /** Label names in index order, when the format fixes them (e.g. SST-2: negative, positive). */
  labelNames?: string[];
  /** Ids are made from positions in the file (line, sentence index), so no two examples can share one. */
  uniqueIds?: boolean;
  /**
   * Pair data: the names the file gives the two texts (columns or keys), e.g. QNLI's question (textA) and
   * sentence (textB), so that a user can name them (NLI stress tests: --premise sentence --hypothesis question).
   */
  pairFields?: { textA: string; textB: string };
}

/** Counted bad rows when the user asked to skip them instead of failing. */
export interface SkippedRow {
  file: string;
  line: number;
  reason: string;
}

/** Options every dataset loader takes. */
export interface LoadOptions {
  /** Skip malformed rows (counted in `skipped`) instead of failing at the first. Default false. */
  skipBadRows?: boolean;
  /** Stop after this many examples. */
  limit?: number;
  /** Called for each skipped row (bad rows, and rows with no usable example such as SNLI's gold_label "-"). */
  onSkip?: (row: SkippedRow) => void;
  /**
   * Longest text (in UTF-16 code units, i.e. `string.length`) accepted in any text field; longer rows are
   * bad rows. Default {@link DEFAULT_MAX_CHARS}.
   */
  maxChars?: number;
  /**
   * Labels that formats with a fixed label set (SST-2, MRPC, QNLI, CoLA …) keep as written instead of refusing: the
   * keys of a --label-map, which aligns them with the model's labels.
   */
  keepLabels?: readonly string[];
}

/** Default for {@link LoadOptions.maxChars}. */
export const DEFAULT_MAX_CHARS = 20_000;

/** Every dataset format textstress can read. */
export const DATA_FORMATS = ['sst2', 'mrpc', 'cola', 'qnli', 'sick', 'mnli', 'snli', 'csv', 'tsv', 'jsonl', 'squad', 'conll'] as const;
/** One of {@link DATA_FORMATS}. */
export type DataFormat = (typeof DATA_FORMATS)[number];

/**
 * Which columns (CSV/TSV header names) or keys (JSONL) hold what. Give `text` for single-text
 * classification or `textA` + `textB` for pairs; `label` is required, `id` optional.
 */
export interface ColumnMap {
  text?: string;
  textA?: string;
  textB?: string;
  label?: string;
  id?: string;
}

/** Options for {@link openDataset} (and the individual loaders that take them). */
export interface OpenOptions extends LoadOptions {
  /** Skip format detection. */
  format?: DataFormat;
  /** Column mapping for csv / tsv / jsonl. */
  columns?: ColumnMap;
  /** Split to keep where the file holds several (SICK: TRAIN, TRIAL or TEST; case-insensitive, "dev" = TRIAL). */
  split?: string;
  /**
   * csv / tsv / jsonl: the allowed label names in index order. Labels outside the set are bad rows, and
   * a label that is an integer index (0, 1, …) into the set is mapped to the name.
   */
  labels?: string[];
  /** csv only: field delimiter (default ","). */
  delimiter?: string;
}

/** Alias of {@link OpenOptions}. */
export type OpenDatasetOptions = OpenOptions;

/** A dataset opened for streaming: `info` is known up front, examples arrive one by one. */
export interface Dataset<E extends Example = Example> {
  info: DatasetInfo;
  examples(): AsyncIterable<E>;
  /** Rows skipped so far: bad rows (only with skipBadRows), and rows with no usable example (SNLI/MNLI gold_label "-"). */
  skipped: SkippedRow[];
  /**
   * Examples of the last pass whose text holds U+FFFD: bytes that were not valid UTF-8 (or a replacement
   * character in the file itself), which the model then reads as "�". `first` is where the first one is.
   */
  replacementChars: { rows: number; first?: string };
}
