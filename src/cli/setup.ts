import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDataset, type OpenDatasetOptions } from '../data/index.ts';
import type { Dataset } from '../data/types.ts';
import { loadModel } from '../models/load.ts';
import type { ModelAdapter, ModelTask } from '../models/types.ts';

/** The package root (for built-in models and data), wherever textstress is installed. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A bare name like "demo-sst2" means a built-in model; anything else is a path, hub id or URL. */
export function resolveModelSpec(spec: string): string {
  if (/^https?:\/\//.test(spec) || existsSync(spec)) return spec;
  const builtIn = join(PACKAGE_ROOT, 'models', spec);
  return existsSync(builtIn) ? builtIn : spec;
}

export interface ModelCliOptions {
  model: string;
  task?: ModelTask;
  authEnv?: string;
  batchSize?: number;
  timeout?: number;
  retries?: number;
  requestConcurrency?: number;
}

export async function openModel(opts: ModelCliOptions): Promise<ModelAdapter> {
  return loadModel(resolveModelSpec(opts.model), {
    task: opts.task,
    authEnv: opts.authEnv,
    batchSize: opts.batchSize,
    maxBatchSize: opts.batchSize,
    timeoutMs: opts.timeout,
    retries: opts.retries,
    concurrency: opts.requestConcurrency,
  });
}

export interface DataCliOptions {
  data: string;
  format?: string;
  split?: string;
  limit?: number;
  skipBadRows?: boolean;
  maxChars?: number;
  textColumn?: string;
  textAColumn?: string;
  textBColumn?: string;
  labelColumn?: string;
  idColumn?: string;
}

export async function openData(opts: DataCliOptions): Promise<Dataset> {
  const columns = {
    ...(opts.textColumn ? { text: opts.textColumn } : {}),
    ...(opts.textAColumn ? { textA: opts.textAColumn } : {}),
    ...(opts.textBColumn ? { textB: opts.textBColumn } : {}),
    ...(opts.labelColumn ? { label: opts.labelColumn } : {}),
    ...(opts.idColumn ? { id: opts.idColumn } : {}),
  };
  const dsOpts: OpenDatasetOptions = {
    format: opts.format as OpenDatasetOptions['format'],
    split: opts.split,
    limit: opts.limit,
    skipBadRows: opts.skipBadRows,
    ...(opts.maxChars ? { maxChars: opts.maxChars } : {}),
    ...(Object.keys(columns).length ? { columns } : {}),
  };
  return openDataset(opts.data, dsOpts);
}

/** Counts a dataset's examples (for the progress bar); cheap next to attacking them. */
export async function countExamples(ds: Dataset): Promise<number> {
  let n = 0;
  for await (const _ of ds.examples()) n++;
  return n;
}
