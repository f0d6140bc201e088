/**
 * A suite's entries as run options: which model and dataset a test uses, a model entry's options, a dataset entry's
 * file (its fallback, or why it is missing).
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { isHubSpec } from '../data/hf/spec.ts';
import { fromSuiteEntry } from '../options/derive.ts';
import type { DataSpec, ModelSpec } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { suitePath } from './load.ts';
import type { DatasetEntry, ModelEntry } from './schema.ts';

/** The model or dataset a test names, or the suite's only one; a name the suite does not define is refused. */
export function pick(what: 'model' | 'dataset', name: string | undefined, names: string[], test: string, file: string): string {
  if (name !== undefined) {
    if (!names.includes(name)) {
      throw new TextstressError(`test "${test}" names ${what} "${name}", which the suite does not define.`, {
        where: file,
        hint: `Defined ${what}s: ${names.join(', ') || 'none'}.`,
      });
    }
    return name;
  }
  if (names.length !== 1) {
    throw new TextstressError(`test "${test}" must say which ${what} to use (the suite defines ${names.length}).`, { where: file });
  }
  return names[0]!;
}

export function modelOptions(entry: ModelEntry, dir: string): ModelSpec & { labelMap?: string } {
  const e = typeof entry === 'string' ? { path: entry } : entry;
  const local = suitePath(dir, e.path);
  const model = /^https?:\/\//.test(e.path) ? e.path : existsSync(local) ? relative(process.cwd(), local) || '.' : e.path;
  return { model, ...fromSuiteEntry('model', e, (p) => suitePath(dir, p)) };
}

export type DataResult =
  { ok: true; options: DataSpec; fallback?: { wanted: string; used: string } } | { ok: false; optional: boolean; reason: string };

export function dataOptions(entry: DatasetEntry, dir: string): DataResult {
  const e = typeof entry === 'string' ? { path: entry } : entry;
  // A hub dataset (hf:owner/name:split) is no path: not resolved against the suite folder, never "not found" here.
  const hub = isHubSpec(e.path);
  const primary = hub ? e.path : suitePath(dir, e.path);
  const fallback = !hub && e.fallback ? suitePath(dir, e.fallback) : undefined;
  const file = hub || existsSync(primary) ? primary : fallback && existsSync(fallback) ? fallback : undefined;
  if (!file) {
    return {
      ok: false,
      optional: e.optional === true,
      reason: `${relative(process.cwd(), primary)} not found${fallback ? ` (nor the fallback ${relative(process.cwd(), fallback)})` : ''}`,
    };
  }
  const given = fromSuiteEntry('dataset', e, (p) => suitePath(dir, p));
  const data = hub ? file : relative(process.cwd(), file) || file;
  // The fallback stands in for a missing file: said in the terminal, suite.json, verdict.json and the report (issue 34).
  const fellBack = file === primary ? {} : { fallback: { wanted: relative(process.cwd(), primary) || primary, used: data } };
  return { ok: true, options: { data, ...given }, ...fellBack };
}
