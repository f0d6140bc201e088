/**
 * Reading the hub's parquet files with hyparquet: the column names, the `datasets` library's feature
 * metadata (ClassLabel names), and the rows, one row group at a time.
 */
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
  type AsyncBuffer,
  type FileMetaData,
} from 'hyparquet';
import { z } from 'zod';
import { TextstressError } from '../../util/errors.ts';

export interface ParquetFile {
  path: string;
  file: AsyncBuffer;
  metadata: FileMetaData;
  columns: string[];
  rows: number;
}

/** hyparquet's messages name the codec or the structure at fault; the user needs to know which file. */
function parquetError(path: string, what: string, err: unknown): TextstressError {
  const msg = err instanceof Error ? err.message : String(err);
  const codec = /compression|codec/i.test(msg);
  return new TextstressError(`cannot ${what} (${msg}).`, {
    where: path,
    hint: codec
      ? 'textstress reads uncompressed and snappy-compressed parquet files (what the hub makes); this one uses another codec.'
      : 'The cached file may be damaged: delete it and run again to download it anew.',
    cause: err,
  });
}

export async function openParquet(path: string): Promise<ParquetFile> {
  try {
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    return { path, file, metadata, columns, rows: Number(metadata.num_rows) };
  } catch (err) {
    throw parquetError(path, 'read this parquet file', err);
  }
}

/** A `datasets` feature, loosely: only ClassLabel and the list wrappers around it matter here. */
type Feature = { _type?: string; names?: string[]; feature?: Feature } & Record<string, unknown>;
const FeatureSchema: z.ZodType<Feature> = z.lazy(() =>
  z.looseObject({
    _type: z.string().optional(),
    names: z.array(z.string()).optional(),
    feature: FeatureSchema.optional(),
  }),
);
const HfMetadata = z.looseObject({ info: z.looseObject({ features: z.record(z.string(), z.unknown()) }) });

/** Label names per column, from the `huggingface` key-value metadata that the `datasets` library writes. */
export interface ClassLabels {
  /** Column → names, for ClassLabel columns (values are indexes into names). */
  scalar: Map<string, string[]>;
  /** Column → names, for Sequence/List of ClassLabel columns (e.g. ner_tags). */
  sequence: Map<string, string[]>;
}

const LIST_TYPES = new Set(['Sequence', 'List', 'LargeList']);

export function classLabels(pq: ParquetFile): ClassLabels {
  const out: ClassLabels = { scalar: new Map(), sequence: new Map() };
  const raw = pq.metadata.key_value_metadata?.find((kv) => kv.key === 'huggingface')?.value;
  // Files written without the datasets library have no such metadata: labels are then read as they are.
  if (raw === undefined) return out;
  let meta;
  try {
    meta = HfMetadata.safeParse(JSON.parse(raw));
  } catch {
    throw new TextstressError('the "huggingface" metadata of this parquet file is not JSON.', { where: pq.path });
  }
  if (!meta.success) return out;
  for (const [column, value] of Object.entries(meta.data.info.features)) {
    const f = FeatureSchema.safeParse(value);
    if (!f.success) continue;
    if (f.data._type === 'ClassLabel' && f.data.names) out.scalar.set(column, f.data.names);
    const inner = f.data.feature;
    if (LIST_TYPES.has(f.data._type ?? '') && inner?._type === 'ClassLabel' && inner.names) out.sequence.set(column, inner.names);
  }
  return out;
}

/**
 * The rows of a file, `columns` only, one row group per yielded batch (nothing more is held). `firstRows`
 * caps the first read (the run's --limit), so a small run does not decode all of a large first row group;
 * the rest of that group is read only when the run goes on past it.
 */
export async function* rowBatches(pq: ParquetFile, columns: string[], firstRows = Infinity): AsyncGenerator<Record<string, unknown>[]> {
  let start = 0;
  let cap = firstRows;
  for (const group of pq.metadata.row_groups) {
    const end = start + Number(group.num_rows);
    for (let from = start; from < end;) {
      const to = Math.min(end, from + Math.max(1, cap));
      cap = Infinity;
      let rows: Record<string, unknown>[];
      try {
        rows = await parquetReadObjects({ file: pq.file, metadata: pq.metadata, columns, rowStart: from, rowEnd: to });
      } catch (err) {
        throw parquetError(pq.path, `read rows ${from}–${to - 1} of this parquet file`, err);
      }
      yield rows;
      from = to;
    }
    start = end;
  }
}
