/**
 * The flags of the CLI's own commands (report, view, compare, run …) that are not run options: declared once here,
 * beside the shared option table (shared.ts), with the same shape: a zod schema (type, bounds, default, help) and
 * the flag's spelling. A command asks for them by key (src/cli/options.ts `addFlags`), as it asks for shared ones;
 * `test/options/command-flags.test.ts` fails when a command writes `.option()` for a flag either table declares.
 * They are not recipe settings' reserved names, suite keys or run.json entries: those derive from shared.ts alone.
 */
import { z } from 'zod';
import type { OptionMeta } from './shared.ts';

/** Most examples the HTML report's example browser carries (larger runs are sampled): `report`, suites, the loaders. */
export const BROWSER_MAX_EXAMPLES = 3000;

/** One command flag: its schema (type, bounds, default, help) and its spelling. */
export interface CommandOption<T extends z.ZodType = z.ZodType> {
  schema: T;
  flag: NonNullable<OptionMeta['flag']>;
}

const flag = <T extends z.ZodType>(schema: T, spelling: CommandOption['flag']): CommandOption<T> => ({ schema, flag: spelling });

/** The command flags, by camelCase key (the flag is `--kebab-key`). */
export const COMMAND_OPTIONS = {
  html: flag(z.string().min(1).describe('HTML file to write'), { arg: '<file>' }),
  baseline: flag(z.string().min(1).describe('runs of another model or an earlier version, compared side by side (matched by test name)'), {
    arg: '<dir>',
  }),
  maxExamples: flag(
    z.number().int().min(1).default(BROWSER_MAX_EXAMPLES).describe('most examples in the example browser (larger runs are sampled)'),
    { arg: '<n>' },
  ),
  port: flag(z.number().int().min(0).max(65535).default(0).describe('port on 127.0.0.1 (0: any free port)'), { arg: '<n>' }),
} satisfies Record<string, CommandOption>;
