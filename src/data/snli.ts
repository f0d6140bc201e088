/**
 * SNLI and MNLI in their JSON Lines distribution (snli_1.0_dev.jsonl, multinli_1.0_dev_matched.jsonl): one
 * object per line with sentence1 (premise), sentence2 (hypothesis), gold_label and pairID, beside parses and
 * annotator labels the loader does not read.
 */
import { DataError } from '../util/errors.ts';
import { MNLI_LABELS, nliGoldLabel } from './glue.ts';
import { checkFile, checkText, makeDataset, maxCharsOf, readLines, rejectSplit, rowError, type RowItem } from './rows.ts';
import { parseJsonLine } from './tabular.ts';
import type { Dataset, DatasetInfo, LoadOptions, PairExample } from './types.ts';

/** The keys every SNLI/MNLI JSONL line has that the loader reads. */
export const NLI_JSONL_KEYS = ['sentence1', 'sentence2', 'gold_label', 'pairID'] as const;

/** Does a parsed JSON object look like an SNLI/MNLI line (the text and label keys, as strings)? */
export function isNliJsonlObject(obj: Record<string, unknown>): boolean {
  return ['sentence1', 'sentence2', 'gold_label'].every((k) => typeof obj[k] === 'string');
}

/**
 * SNLI / MNLI JSONL: textA = sentence1 (premise), textB = sentence2 (hypothesis), labels entailment / neutral /
 * contradiction. A gold_label "-" (no majority among the five annotators) is skipped and counted in
 * `skipped`; a missing or empty sentence, a missing label or pairID is a bad row (file:line). Id = pairID. The
 * dataset is named "mnli" when its first object has a genre (MNLI's), else "snli".
 */
export async function loadNliJsonl(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<PairExample>> {
  checkFile(path);
  rejectSplit('snli', path, opts.split);
  const maxChars = maxCharsOf(opts);
  let genre = false;
  let any = false;
  for await (const { text, line } of readLines(path)) {
    if (text.trim() === '') continue;
    try {
      genre = 'genre' in parseJsonLine(path, line, text);
      any = true;
      break;
    } catch (err) {
      if (!opts.skipBadRows) throw err;
    }
  }
  if (!any)
    throw new DataError(
      path,
      1,
      'the JSONL file holds no JSON object (expected SNLI/MNLI lines with sentence1, sentence2, gold_label and pairID).',
    );
  const info: DatasetInfo = {
    name: genre ? 'mnli' : 'snli',
    path,
    kind: 'pair',
    labelNames: [...MNLI_LABELS],
    pairFields: { textA: 'sentence1', textB: 'sentence2' },
  };
  return makeDataset<PairExample>(info, opts, async function* (): AsyncIterable<RowItem<PairExample>> {
    for await (const { text, line } of readLines(path)) {
      if (text.trim() === '') continue;
      yield {
        line,
        build: () => {
          const obj = parseJsonLine(path, line, text);
          const str = (key: string, what: string): string => {
            const v = obj[key];
            if (v === undefined || v === null) throw rowError(path, line, `missing key "${key}" (${what}).`);
            if (typeof v !== 'string')
              throw rowError(path, line, `key "${key}" (${what}) must be a string, got ${Array.isArray(v) ? 'an array' : typeof v}.`);
            return v;
          };
          const textA = checkText(path, line, 'key "sentence1" (premise)', str('sentence1', 'premise'), maxChars);
          const textB = checkText(path, line, 'key "sentence2" (hypothesis)', str('sentence2', 'hypothesis'), maxChars);
          const id = str('pairID', 'pair id').trim();
          if (id === '') throw rowError(path, line, 'empty id in key "pairID".');
          const label = nliGoldLabel(path, line, str('gold_label', 'gold label'), 'key "gold_label"');
          return { kind: 'pair', id, source: `${path}:${line}`, textA, textB, label };
        },
      };
    }
  });
}
