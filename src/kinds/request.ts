/**
 * What a run keeps of its request: run.json's `request` (how `merge` and the queue's workers open the run again; no
 * secrets: auth_env is a name), the data options that decide which examples an experiment or generator sees, and
 * the data's examples read afresh.
 */
import type { Example } from '../data/types.ts';
import { savedOptions } from '../options/derive.ts';
import { dataSettings, openData, type DataSpec } from '../runner/open.ts';
import type { RunRequest } from './types.ts';

/** run.json's `request`: the recipe, its settings, the seed and the saved options that were given. */
export function savedRequest(req: RunRequest, settings: Record<string, unknown>): Record<string, unknown> {
  return { recipe: req.recipe, settings, seed: req.seed, ...savedOptions(req) };
}

/** The data options that decide which examples an experiment or generator sees, the row limit included. */
export function dataOptionsOf(data: DataSpec & { labelMap?: string }): { data_options?: Record<string, unknown> } {
  const picked = { ...dataSettings(data), ...(data.limit !== undefined ? { limit: data.limit } : {}) };
  return Object.keys(picked).length ? { data_options: picked } : {};
}

/** The data's examples again, read afresh on every call. */
export function reopen(data: DataSpec): () => AsyncIterable<Example> {
  return () =>
    (async function* () {
      yield* (await openData(data)).examples();
    })();
}
