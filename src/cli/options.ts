/**
 * The shared model, data and run flags, derived from the option table (src/options/shared.ts): the flag is
 * `--kebab-key` (short letters and placeholders from the table), help and bounds from the option's schema,
 * `--no-x` for an option on by default, choices for an enum. A value is checked as it is parsed, and the error names
 * the flag.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { optionsOf, type NamedOption } from '../options/derive.ts';
import { ALL_OPTIONS } from '../options/derive.ts';
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

/** The commander option of a shared option. */
function flagOf(o: NamedOption, required: boolean): Option {
  const flag = o.meta.flag!;
  const f = fieldOf(o.key, o.schema);
  const negated = f.shape.type === 'boolean' && f.default === true;
  const long = `--${negated ? 'no-' : ''}${kebab(o.key)}`;
  const arg = f.shape.type === 'boolean' ? '' : ` ${flag.arg ?? '<value>'}`;
  const help = f.description ?? o.key;
  const opt = new Option(`${flag.short ? `-${flag.short}, ` : ''}${long}${arg}`, negated ? `turn off: ${help}` : help);
  if (flag.parse) opt.argParser(flag.parse);
  else if (f.shape.type === 'number') opt.argParser(numberParser(long, f as SettingField & { shape: { type: 'number' } }));
  else if (f.shape.type === 'list') opt.argParser(list);
  else if (f.shape.type === 'string' && f.shape.choices) opt.choices([...f.shape.choices]);
  // Defaults a run needs spelled out (the seed, the concurrency) are shown and given; --no-x options default on.
  if (f.hasDefault && !negated) opt.default(f.default);
  if (required) opt.makeOptionMandatory();
  return opt;
}

/** Adds the named shared options' flags (in the table's order). */
export function addOptions(cmd: Command, keys: readonly string[], required: readonly string[] = []): Command {
  for (const o of ALL_OPTIONS) if (keys.includes(o.key) && o.meta.flag) cmd.addOption(flagOf(o, required.includes(o.key)));
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
