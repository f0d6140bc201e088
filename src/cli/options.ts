/**
 * The CLI's flags, derived from the two option tables — the shared model, data and run options
 * (src/options/shared.ts) and the commands' own flags (src/options/command.ts): the flag is `--kebab-key` (short
 * letters and placeholders from the table), help and bounds from the option's schema, `--no-x` for an option on by
 * default, choices for an enum. A value is checked as it is parsed, and the error names the flag. A command asks for
 * flags by key (`addOptions`, `addFlags`) and never re-declares one with `.option()`
 * (test/options/command-flags.test.ts).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { optionsOf, type NamedOption } from '../options/derive.ts';
import type { OptionMeta } from '../options/shared.ts';
import { ALL_OPTIONS } from '../options/derive.ts';
import { COMMAND_OPTIONS, type CommandOption } from '../options/command.ts';
import { kebab } from '../util/casing.ts';
import { fieldOf, type SettingField } from '../util/fields.ts';
import { list } from './derive.ts';

export { list };

export function int(name: string, min = 0): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}.`);
    return n;
  };
}

export function num(name: string, min = 0): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!v.trim() || !Number.isFinite(n) || n < min) throw new InvalidArgumentError(`${name} must be a number ≥ ${min}.`);
    return n;
  };
}

/** A number flag's parser: the value checked against the field's bounds, the error in the flag's words. */
function numberParser(flag: string, f: SettingField & { shape: { type: 'number' } }): (v: string) => number {
  const bound = f.exclusiveMinimum !== undefined ? `> ${f.exclusiveMinimum}` : f.minimum !== undefined ? `≥ ${f.minimum}` : undefined;
  const what = `${flag} must be ${f.shape.integer ? 'an integer' : 'a number'}${bound ? ` ${bound}` : ''}.`;
  return (v) => {
    const n = Number(v);
    const ok =
      v.trim() !== '' &&
      Number.isFinite(n) &&
      (!f.shape.integer || Number.isInteger(n)) &&
      (f.minimum === undefined || n >= f.minimum) &&
      (f.exclusiveMinimum === undefined || n > f.exclusiveMinimum) &&
      (f.maximum === undefined || n <= f.maximum);
    if (!ok) throw new InvalidArgumentError(what);
    return n;
  };
}

/**
 * How one command uses a flag of the tables, where the same concept reads differently there: its own help line (what
 * *this* command writes or prints), another default or none (`default: undefined`), or required. The parser, bounds
 * and spelling always come from the table. Each use says why beside it.
 */
export interface FlagUse {
  help?: string;
  default?: unknown;
  required?: boolean;
}

/** The commander option of a table option, as one command uses it. */
function flagOf(o: { key: string; schema: CommandOption['schema']; meta: { flag: OptionMeta['flag'] } }, use: FlagUse = {}): Option {
  const flag = o.meta.flag!;
  const f = fieldOf(o.key, o.schema);
  const negated = f.shape.type === 'boolean' && f.default === true;
  const long = `--${negated ? 'no-' : ''}${kebab(o.key)}`;
  const arg = f.shape.type === 'boolean' ? '' : ` ${flag.arg ?? '<value>'}`;
  const help = use.help ?? f.description ?? o.key;
  const opt = new Option(`${flag.short ? `-${flag.short}, ` : ''}${long}${arg}`, negated && !use.help ? `turn off: ${help}` : help);
  if (flag.parse) opt.argParser(flag.parse);
  else if (f.shape.type === 'number') opt.argParser(numberParser(long, f as SettingField & { shape: { type: 'number' } }));
  else if (f.shape.type === 'list') opt.argParser(list);
  else if (f.shape.type === 'string' && f.shape.choices) opt.choices([...f.shape.choices]);
  // Defaults a run needs spelled out (the seed, the concurrency) are shown and given; --no-x options default on.
  if ('default' in use) {
    if (use.default !== undefined) opt.default(use.default);
  } else if (f.hasDefault && !negated) opt.default(f.default);
  if (use.required) opt.makeOptionMandatory();
  return opt;
}

/** Adds the named shared options' flags (in the table's order). */
export function addOptions(cmd: Command, keys: readonly string[], required: readonly string[] = []): Command {
  for (const o of ALL_OPTIONS) if (keys.includes(o.key) && o.meta.flag) cmd.addOption(flagOf(o, { required: required.includes(o.key) }));
  return cmd;
}

/** The key of every flag the two tables declare: a command writes none of these with `.option()`. */
export const TABLE_FLAG_KEYS: readonly string[] = [
  ...ALL_OPTIONS.filter((o) => o.meta.flag).map((o) => o.key),
  ...Object.keys(COMMAND_OPTIONS),
];

/**
 * Adds flags of either table by key, in the order given (a command's help lists them as it asks), each used as
 * declared (`true`) or as `use` says.
 */
export function addFlags(cmd: Command, uses: Record<string, true | FlagUse>): Command {
  const commandOptions = COMMAND_OPTIONS as Record<string, CommandOption>;
  for (const [key, use] of Object.entries(uses)) {
    const shared = ALL_OPTIONS.find((o) => o.key === key && o.meta.flag);
    const own = commandOptions[key];
    const o = shared ?? (own ? { key, schema: own.schema, meta: { flag: own.flag } } : undefined);
    if (!o) throw new Error(`no option table declares the flag "${key}" (src/options/shared.ts, src/options/command.ts)`);
    cmd.addOption(flagOf(o, use === true ? {} : use));
  }
  return cmd;
}

const keysOf = (group: NamedOption['group']): string[] => optionsOf(group).map((o) => o.key);

/** The model options every run has (a recipe setting may not take these names: see RESERVED_SETTING_KEYS). */
export function addModelOptions(cmd: Command): Command {
  return addOptions(cmd, keysOf('model'), ['model']);
}

/** The data options every run with a dataset has. */
export function addDataOptions(cmd: Command, required = true): Command {
  return addOptions(cmd, keysOf('data'), required ? ['data'] : []);
}

/** The options of a run's output and execution. */
export function addRunOptions(cmd: Command): Command {
  return addOptions(cmd, keysOf('run'));
}
