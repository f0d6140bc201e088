/**
 * What is derived from the shared option table (shared.ts): the names recipe settings may not take, what run.json
 * keeps of a request, the options a resume must match, the model's load options, and each suite entry's keys and
 * their reading back into a request. The CLI's flags are derived in src/cli/options.ts.
 */
import { z } from 'zod';
import type { LoadModelOptions } from '../models/load.ts';
import { snake } from '../util/casing.ts';
import { SHARED_OPTIONS, type OptionMeta, type SharedOption, type SuiteEntry } from './shared.ts';

/** One shared option with its key and group. */
export interface NamedOption extends SharedOption {
  key: string;
  group: keyof typeof SHARED_OPTIONS;
}

/** Every shared option, model then data then run options, each group in declaration order. */
export const ALL_OPTIONS: readonly NamedOption[] = (Object.keys(SHARED_OPTIONS) as (keyof typeof SHARED_OPTIONS)[]).flatMap((group) =>
  Object.entries(SHARED_OPTIONS[group] as Record<string, SharedOption>).map(([key, o]) => ({ key, group, ...o })),
);

/** The options of one group. */
export function optionsOf(group: NamedOption['group']): NamedOption[] {
  return ALL_OPTIONS.filter((o) => o.group === group);
}

/**
 * Names a recipe setting may not take: every shared option's (its flag would clash), and the words the CLI and
 * suite files use for themselves.
 */
export const RESERVED_SETTING_KEYS: readonly string[] = [
  ...ALL_OPTIONS.map((o) => o.key),
  'help',
  'version',
  'name',
  'recipe',
  'thresholds',
  'dataset',
  'plugin',
];

/** Values that are set (a false flag counts as unset where `dropFalse`). */
function picked(values: object, keep: (o: NamedOption) => boolean, dropFalse = false): Record<string, unknown> {
  const v = values as Record<string, unknown>;
  return Object.fromEntries(
    ALL_OPTIONS.filter((o) => keep(o) && v[o.key] !== undefined && !(dropFalse && v[o.key] === false)).map((o) => [o.key, v[o.key]]),
  );
}

/** What run.json's `request` keeps of a request: the saved options that were given (never a secret). */
export function savedOptions(values: object): Record<string, unknown> {
  return picked(values, (o) => o.meta.saved && !o.meta.secret);
}

/**
 * The options a resume must match, of one sort (see OptionMeta.identity), camelCase as the recipe settings beside
 * them in summary.json and run.json; a flag that is off counts as not given.
 */
export function identityOptions(values: object, sort: NonNullable<OptionMeta['identity']>): Record<string, unknown> {
  return picked(values, (o) => o.meta.identity === sort, true);
}

/** loadModel's options for a model spec: each set model option's `load`, in table order. */
export function loadOptionsOf(spec: object): LoadModelOptions {
  const v = spec as Record<string, unknown>;
  const out: LoadModelOptions = {};
  for (const o of ALL_OPTIONS) if (o.meta.load && v[o.key] !== undefined) Object.assign(out, o.meta.load(v[o.key] as never));
  // The cost meter takes both prices at once: one given alone counts the other as free.
  if (v.priceInput !== undefined || v.priceOutput !== undefined) {
    out.prices = { input: (v.priceInput as number | undefined) ?? 0, output: (v.priceOutput as number | undefined) ?? 0 };
  }
  return out;
}

export type { SuiteEntry };

/** The suite key of an option (snake_case unless it says otherwise). */
export function suiteKeyOf(o: NamedOption): string {
  return o.meta.suite?.key ?? snake(o.key);
}

/** The options a suite entry holds, in table order. */
export function suiteOptions(entry: SuiteEntry): NamedOption[] {
  return ALL_OPTIONS.filter((o) => [o.meta.suite?.in ?? []].flat().includes(entry));
}

/** The fields of a suite entry for its options: suite keys, each optional, with the option's schema and description. */
export function suiteEntryShape(
  entry: SuiteEntry,
  describe: (o: NamedOption) => string | undefined = () => undefined,
): Record<string, z.ZodType> {
  return Object.fromEntries(
    suiteOptions(entry).map((o) => {
      const base = o.schema instanceof z.ZodDefault ? (o.schema as z.ZodDefault<z.ZodType>).unwrap() : o.schema;
      const text = describe(o) ?? o.schema.description;
      return [suiteKeyOf(o), (text ? base.describe(text) : base).optional()];
    }),
  );
}

/**
 * A suite entry's options read back as a request's (camelCase keys), paths resolved relative to the suite file;
 * the entry's own key for the thing itself (`path`) is left to the caller.
 */
export function fromSuiteEntry(
  entry: SuiteEntry,
  values: Record<string, unknown>,
  resolvePath: (p: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of suiteOptions(entry)) {
    const key = suiteKeyOf(o);
    if (key === 'path' || values[key] === undefined) continue;
    const v = values[key];
    out[o.key] = o.meta.suite?.path && typeof v === 'string' ? resolvePath(v) : v;
  }
  return out;
}
