/** What a shared option is: its schema and where it appears (flag, suite key, run.json, resume identity, load). */
import { z } from 'zod';
import type { LoadModelOptions } from '../models/load.ts';

/** The entries of a suite file that hold options: a `models:` entry, a `datasets:` entry, a test. */
export type SuiteEntry = 'model' | 'dataset' | 'test';

/** Where an option appears and what becomes of it. */
export interface OptionMeta {
  /** Its flag: `--kebab-key`, a short letter, the argument's placeholder, a parser for text zod cannot read; null: no flag. */
  flag: { short?: string; arg?: string; parse?: (raw: string) => unknown } | null;
  /**
   * Its key in a suite file (snake_case of the key unless given) and the entry that holds it: a `models:` entry, a
   * `datasets:` entry or a test; `path`: a file named relative to the suite file. null: not in suite files.
   */
  suite: { in: SuiteEntry | readonly SuiteEntry[]; key?: string; path?: boolean } | null;
  /** run.json's `request` keeps it (no secrets: an env var's name is not its value). */
  saved: boolean;
  /**
   * A resume must use the same value: 'data' options decide which examples and labels a run sees (run.json's
   * settings, an experiment's data options); 'run' options change what was measured (a defence, a query budget).
   */
  identity?: 'data' | 'run';
  /** Never written or echoed (e.g. a queue URL may carry a password). */
  secret?: boolean;
  /** The loadModel option(s) its value feeds. */
  load?: (value: never) => Partial<LoadModelOptions>;
}

/** One shared option: its schema and where it appears. */
export interface SharedOption<T extends z.ZodType = z.ZodType> {
  schema: T;
  meta: OptionMeta;
}

export const option = <T extends z.ZodType>(schema: T, meta: OptionMeta): SharedOption<T> => ({ schema, meta });
export const int = (min: number) => z.number().int().min(min);
export const load =
  <V>(f: (v: V) => Partial<LoadModelOptions>) =>
  (v: never): Partial<LoadModelOptions> =>
    f(v as V);
