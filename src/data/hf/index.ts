/**
 * Datasets by hub id: `hf:<owner>/<name>[:<config>]:<split>` → the split's parquet files (downloaded or
 * cached) → examples, streamed one row group at a time under the usual bad-row policy and limit.
 */
import { TextstressError } from '../../util/errors.ts';
import { makeDataset, maxCharsOf, type RowItem } from '../rows.ts';
import type { Dataset, DatasetInfo, Example, OpenOptions } from '../types.ts';
import { detectLayout, exampleBuilder, layoutColumns, UNLABELLED_HINT, type Layout } from './mapping.ts';
import { classLabels, openParquet, rowBatches, type ParquetFile } from './parquet.ts';
import { resolveSplit } from './resolve.ts';
import { parseHubSpec, type HubSpec } from './spec.ts';

export { forgetResolvedSplits, hubFingerprint, resolveSplit, type ResolvedSplit } from './resolve.ts';
export { hfHome, hubEnv, isHubSpec, parseHubSpec, type HubEnv, type HubSpec } from './spec.ts';

/** The options that make no sense for a hub dataset, and what to do instead. */
function rejectOptions(spec: HubSpec, opts: OpenOptions): void {
  const misfit: [keyof OpenOptions, string][] = [
    ['format', 'hub datasets are parquet files read by column: leave --format out'],
    ['split', `the split is part of the spec (${spec.text})`],
    ['labels', 'label names come from the dataset (its ClassLabel names)'],
    ['delimiter', 'hub datasets are parquet files, not CSV'],
  ];
  for (const [key, why] of misfit) {
    if (opts[key] !== undefined) throw new TextstressError(`${key} does not apply to a hub dataset: ${why}.`, { where: spec.text });
  }
}

/** A short dataset name: the config when it says something (GLUE's "mrpc"), else the dataset's own name. */
function shortName(spec: HubSpec, config: string): string {
  return config === 'default' || config === 'plain_text' ? spec.repo.split('/')[1]! : config;
}

/** GLUE-style test splits mark every label -1; refuse the split up front, as the GLUE TSV loaders do. */
async function refuseUnlabelled(pq: ParquetFile, layout: Layout, spec: HubSpec, isClassLabel: boolean): Promise<void> {
  if ((layout.kind !== 'text' && layout.kind !== 'pair') || !isClassLabel || pq.rows === 0) return;
  for await (const [row] of rowBatches(pq, [layout.label], 1)) {
    const v = row?.[layout.label];
    if (v === -1 || v === -1n) {
      throw new TextstressError(`split ${JSON.stringify(spec.split)} is unlabelled: its label column "${layout.label}" holds -1.`, {
        where: spec.text,
        hint: UNLABELLED_HINT,
      });
    }
    return;
  }
}

/**
 * Opens a hub dataset split. Fails with a TextstressError naming the spec when the hub or the cache cannot
 * give the files, the columns fit no layout, or the split is unlabelled; rows are checked as they stream.
 */
export async function openHubDataset(text: string, opts: OpenOptions = {}): Promise<Dataset> {
  const spec = parseHubSpec(text);
  rejectOptions(spec, opts);
  const maxChars = maxCharsOf(opts);
  const resolved = await resolveSplit(spec);
  const first = await openParquet(resolved.files[0]!.path);
  const labels = classLabels(first);
  const layout = detectLayout(first.columns, opts.columns, spec.text);
  const isClassLabel = (layout.kind === 'text' || layout.kind === 'pair') && labels.scalar.has(layout.label);
  await refuseUnlabelled(first, layout, spec, isClassLabel);
  const columns = layoutColumns(layout);
  const build = exampleBuilder(layout, { file: spec.text, split: spec.split, maxChars, labels });
  const labelNames = isClassLabel && (layout.kind === 'text' || layout.kind === 'pair') ? labels.scalar.get(layout.label) : undefined;
  const info: DatasetInfo = {
    name: shortName(spec, resolved.config),
    path: spec.text,
    kind: layout.kind,
    ...(labelNames ? { labelNames: [...labelNames] } : {}),
    ...(layout.id === undefined ? { uniqueIds: true } : {}),
    ...(layout.kind === 'pair' ? { pairFields: { textA: layout.textA, textB: layout.textB } } : {}),
  };
  return makeDataset<Example>(info, opts, async function* (): AsyncIterable<RowItem<Example>> {
    let index = 0;
    for (const [k, f] of resolved.files.entries()) {
      const pq = k === 0 ? first : await openParquet(f.path);
      const missing = columns.filter((c) => !pq.columns.includes(c));
      if (missing.length > 0) {
        throw new TextstressError(
          `parquet file ${k + 1} of the split lacks the column${missing.length > 1 ? 's' : ''} ` +
            `${missing.map((c) => JSON.stringify(c)).join(', ')} that file 1 has.`,
          {
            where: spec.text,
          },
        );
      }
      // The limit caps only the first read: skipped bad rows may need more, read when the run gets there.
      for await (const batch of rowBatches(pq, columns, k === 0 ? opts.limit : undefined)) {
        for (const row of batch) {
          const at = index++;
          yield { line: at, build: () => build(row, at) };
        }
      }
    }
  });
}
