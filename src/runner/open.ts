/**
 * Opening what a run needs from the specs a user gives (CLI flags, suite entries, library calls): the model (a
 * folder, built-in name, hub id or URL) and the dataset (a file with format and column options).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDataset, type OpenDatasetOptions } from '../data/index.ts';
import type { Dataset } from '../data/types.ts';
import { checkAnnotatorDestination, openResemble, readResembleConfig } from '../defence/index.ts';
import { parseLabelMap } from '../core/labels.ts';
import { lazyModel } from '../models/lazy.ts';
import { isHttpSpec, isOpenAiSpec, loadModel } from '../models/load.ts';
import { standInModel, type StandInModel } from '../models/stand-in.ts';
import type { ModelAdapter } from '../models/types.ts';
import { identityOptions, loadOptionsOf } from '../options/derive.ts';
import type { DataSpec, ModelSpec } from '../options/shared.ts';
import { CacheCorruptError, openDiskCache, type DiskCache } from '../query/disk-cache.ts';
import { QueryEngine } from '../query/engine.ts';
import { PACKAGE_ROOT } from '../util/package-root.ts';
import { terminalSafe } from '../util/terminal.ts';

export { PACKAGE_ROOT };

/** A bare name like "demo-sst2" means a built-in model; anything else is a path, hub id or URL. */
export function resolveModelSpec(spec: string): string {
  if (/^https?:\/\//.test(spec) || existsSync(spec)) return spec;
  const builtIn = join(PACKAGE_ROOT, 'models', spec);
  return existsSync(builtIn) ? builtIn : spec;
}

export type { DataSpec, ModelSpec } from '../options/shared.ts';

/**
 * The query engine for a model, with the persistent query cache when it applies: on by default for openai:
 * models, for others (HTTP endpoints) when a cache folder is named; never with `cache: false`. A corrupt cache file
 * stops an openai: run (its answers are paid: without the cache they would be paid again on resume); other runs go
 * on without it (see withDiskCache).
 */
export function openEngine(model: ModelAdapter, spec: Pick<ModelSpec, 'model' | 'cacheDir' | 'cache'>): QueryEngine {
  const wanted = spec.cache !== false && model.cacheIdentity !== undefined && (spec.cacheDir !== undefined || isOpenAiSpec(spec.model));
  return new QueryEngine(model, wanted ? withDiskCache(spec.cacheDir, isOpenAiSpec(spec.model)) : {});
}

const warnedCorrupt = new Set<string>();

/** The persistent cache, or none when its file is corrupt: the run goes on asking the model, and says so in one line. */
function withDiskCache(dir: string | undefined, paid: boolean): { diskCache?: DiskCache } {
  try {
    return { diskCache: openDiskCache(dir) };
  } catch (err) {
    if (!(err instanceof CacheCorruptError) || paid) throw err;
    // Once per process and damage: a suite opens an engine per test.
    if (!warnedCorrupt.has(err.message))
      process.stderr.write(`textstress: warning: ${terminalSafe(err.describe())} Going on without the cache.\n`);
    warnedCorrupt.add(err.message);
    return {};
  }
}

/**
 * Opens the model a spec names (a built-in name such as "demo-sst2", a folder, hub id or URL) with {@link loadModel};
 * with `defence`, wrapped in the RESEMBLE adapter that config describes.
 */
export async function openModel(opts: ModelSpec & { dryRun?: boolean }): Promise<ModelAdapter> {
  return opts.dryRun ? openStandIn(opts) : openDefendedModel(opts);
}

/** A dry run's stand-in for the model a spec names (the real one opened beside it, never asked by the run). */
export async function openStandIn(opts: ModelSpec): Promise<StandInModel> {
  return standInModel(await openDefendedModel({ ...opts, dryRun: true }));
}

/**
 * The model of a run that reads its inner layers through a session of its own (the encoder probes): a local folder is
 * described from its config.json and opened only if the run asks it for predictions (lazyModel), so the process
 * holds one copy of the weights, not two; anything else opens as {@link openModel} opens it.
 */
export async function openModelToInspect(opts: ModelSpec & { dryRun?: boolean }): Promise<ModelAdapter> {
  const spec = resolveModelSpec(opts.model);
  if (opts.defence || opts.dryRun || isHttpSpec(spec) || isOpenAiSpec(spec)) return openModel(opts);
  const { localModelInfo } = await import('../models/transformers/load.ts');
  const info = localModelInfo(spec, { ...(opts.task ? { task: opts.task } : {}), ...(opts.dtype ? { dtype: opts.dtype } : {}) });
  return info ? lazyModel(info, () => openModel(opts)) : openModel(opts);
}

async function openDefendedModel(opts: ModelSpec & { dryRun?: boolean }): Promise<ModelAdapter> {
  // A dry run sends nothing to the model it estimates, so an openai: model needs no API key for it.
  if (!opts.defence) return openPlainModel(opts, opts.dryRun === true);
  // The config is read and its annotator's destination checked before any model opens.
  const config = readResembleConfig(opts.defence);
  const policy = { config: opts.defence, ...(opts.allowRemote ? { allowRemote: opts.allowRemote } : {}) };
  checkAnnotatorDestination(config.annotator, { ...policy, notice: () => {} });
  const inner = await openPlainModel(opts, opts.dryRun === true);
  try {
    return await openResemble(inner, config, (spec) => openPlainModel({ model: spec }), {}, policy);
  } catch (err) {
    await inner.close?.();
    throw err;
  }
}

async function openPlainModel(opts: ModelSpec, dryRun = false): Promise<ModelAdapter> {
  return loadModel(resolveModelSpec(opts.model), { ...loadOptionsOf(opts), ...(dryRun ? { dryRun } : {}) });
}

/** The labels a --label-map names: the data loader keeps them as written (see LoadOptions.keepLabels). */
function labelMapKeys(opts: DataSpec & { labelMap?: unknown }): { keepLabels?: string[] } {
  if (typeof opts.labelMap !== 'string') return {};
  const keys = Object.keys(parseLabelMap(opts.labelMap));
  return keys.length ? { keepLabels: keys } : {};
}

/** Opens the dataset a spec names with {@link openDataset}, passing the format, split, limit and column options on. */
export async function openData(opts: DataSpec): Promise<Dataset> {
  const columns = {
    ...(opts.textColumn ? { text: opts.textColumn } : {}),
    ...(opts.textAColumn ? { textA: opts.textAColumn } : {}),
    ...(opts.textBColumn ? { textB: opts.textBColumn } : {}),
    ...(opts.labelColumn ? { label: opts.labelColumn } : {}),
    ...(opts.idColumn ? { id: opts.idColumn } : {}),
  };
  const dsOpts: OpenDatasetOptions = {
    format: opts.format,
    split: opts.split,
    limit: opts.limit,
    skipBadRows: opts.skipBadRows,
    ...labelMapKeys(opts),
    ...(opts.maxChars ? { maxChars: opts.maxChars } : {}),
    ...(Object.keys(columns).length ? { columns } : {}),
  };
  return openDataset(opts.data, dsOpts);
}

/**
 * One cheap pass over the data before the attack: the example count (for the progress bar) and the gold labels
 * seen (so a label the model lacks fails up front, not halfway through the run).
 */
export async function surveyExamples(ds: Dataset): Promise<{ n: number; labels: Set<string> }> {
  let n = 0;
  const labels = new Set<string>();
  for await (const e of ds.examples()) {
    n++;
    if (e.kind === 'text' || e.kind === 'pair') labels.add(e.label);
  }
  return { n, labels };
}

/** The data options that decide which examples and labels a run sees; a resume must use the same. */
export function dataSettings(opts: DataSpec & { labelMap?: string }): Record<string, unknown> {
  return identityOptions(opts, 'data');
}

export { fileFingerprint } from '../data/fingerprint.ts';
