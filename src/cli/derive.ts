/**
 * Commander options derived from a recipe's settings schema: one flag per setting (kebab-case), its help text
 * and default from the schema, values turned from text into numbers, booleans and lists here (never with
 * z.coerce), and checked by the schema itself. Defaults stay in zod: commander gets none, and only values the
 * user typed are forwarded, so a flag never overwrites a setting with a default.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { kebab } from '../util/casing.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import { settingFields, showDefault, type SettingField } from '../recipes/registry/fields.ts';
import { parseSettings } from '../recipes/registry/settings.ts';

export function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function number(flag: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${flag} takes a number, got "${v}".`);
    return n;
  };
}

function parserOf(f: SettingField, flag: string): ((v: string) => unknown) | undefined {
  if (f.hint?.parse) return f.hint.parse;
  const s = f.shape;
  if (s.type === 'number') return number(flag);
  if (s.type === 'list') {
    return (v) => {
      const items = list(v);
      if (s.of === 'number') return items.map(number(flag));
      const bad = s.choices ? items.filter((x) => !s.choices!.includes(x)) : [];
      if (bad.length)
        throw new InvalidArgumentError(`${flag}: unknown ${bad.map((b) => `"${b}"`).join(', ')}; choose from ${s.choices!.join(', ')}.`);
      return items;
    };
  }
  return undefined;
}

function helpOf(f: SettingField): string {
  const text = f.description ?? f.key;
  if (f.shape.type === 'boolean') return f.default === true ? `turn off: ${text}` : text;
  return f.hasDefault ? `${text} (default: ${showDefault(f.default)})` : text;
}

/** Adds a flag per field (fields whose hint is null stay out); a hint may make one required. */
export function addFieldOptions(cmd: Command, fields: readonly SettingField[]): Command {
  for (const f of fields) {
    if (f.hint === null) continue;
    const long = f.shape.type === 'boolean' && f.default === true ? `--no-${kebab(f.key)}` : `--${kebab(f.key)}`;
    const short = f.hint?.short ? `-${f.hint.short}, ` : '';
    const s = f.shape;
    const arg =
      f.hint?.arg ?? (s.type === 'number' ? '<n>' : s.type === 'list' ? '<list>' : s.type === 'string' && s.choices ? '<name>' : '<value>');
    const opt = new Option(`${short}${long}${s.type === 'boolean' ? '' : ` ${arg}`}`, helpOf(f));
    if (s.type === 'string' && s.choices && !f.hint?.parse) opt.choices([...s.choices]);
    const parse = parserOf(f, long);
    if (parse) opt.argParser(parse);
    if ((f.hint as { required?: boolean } | undefined)?.required) opt.makeOptionMandatory();
    cmd.addOption(opt);
  }
  return cmd;
}

/** The values of the fields the user typed on the command line (nothing else: defaults come from the schema). */
export function typedValues(cmd: Command, fields: readonly SettingField[]): Record<string, unknown> {
  const values = cmd.opts();
  const raw: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.hint === null) continue;
    if (cmd.getOptionValueSource(f.key) === 'cli') raw[f.key] = values[f.key];
  }
  return raw;
}

/** The flags of a recipe's settings (settings whose cli hint is null stay suite-only). */
export function addRecipeOptions(cmd: Command, def: AnyRecipe): Command {
  return addFieldOptions(cmd, settingFields(def));
}

/**
 * The settings the user typed on the command line (nothing else: defaults come from the schema), validated by the
 * recipe's schema, with errors naming the flags.
 */
export function recipeSettingsFrom(cmd: Command, def: AnyRecipe): Record<string, unknown> {
  const raw = typedValues(cmd, settingFields(def));
  parseSettings(def, raw, (key) => `--${kebab(key.split('.')[0]!)}`);
  return raw;
}
