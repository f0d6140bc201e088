/**
 * What a run keeps of its request: run.json's `request` (how `merge` and the queue's workers open the run again; no
 * secrets: auth_env is a name), the data options that decide which examples an experiment or generator sees, and
 * the data's examples read afresh.
 */
import type { Example } from '../data/types.ts';
import { dataSettings, openData, type DataSpec } from '../runner/open.ts';
import type { RunRequest } from './types.ts';

/** What run.json keeps of a request. */
const SAVED_KEYS = [
  'model',
  'task',
  'authEnv',
  'batchSize',
  'timeout',
  'retries',
  'requestConcurrency',
  'defence',
  'baseUrl',
  'labels',
  'template',
  'mapping',
  'labelRegex',
  'structured',
  'llmTemperature',
  'maxTokens',
  'priceInput',
  'priceOutput',
  'maxCost',
  'cacheDir',
  'cache',
  'data',
  'format',
  'split',
  'limit',
  'skipBadRows',
  'maxChars',
  'textColumn',
  'textAColumn',
  'textBColumn',
  'labelColumn',
  'idColumn',
  'labelMap',
  'compact',
  'maxQueries',
  'concurrency',
] as const;

/** run.json's `request`: the recipe, its settings, the seed and the saved options that were given. */
export function savedRequest(req: RunRequest, settings: Record<string, unknown>): Record<string, unknown> {
  const picked = Object.fromEntries(
    SAVED_KEYS.flatMap((k) => (req[k as keyof RunRequest] === undefined ? [] : [[k, req[k as keyof RunRequest]]])),
  );
  return { recipe: req.recipe, settings, seed: req.seed, ...picked };
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
