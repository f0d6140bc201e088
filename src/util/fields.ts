/**
 * Reads a zod schema field by field, through zod's own JSON Schema output (the public, stable view of a schema),
 * into what flags, docs and checks need: the value's shape, its default, description, choices and bounds. Recipe
 * settings and the shared model, data and run options are both read this way.
 */
import { z } from 'zod';
import { plainText } from './format.ts';

/** How a field appears on the command line: a short flag, a parser for values zod cannot read from text, or `null` for a suite-only field. */
export type FlagHint = { short?: string; parse?: (raw: string) => unknown; arg?: string } | null;

/** The kind of value a setting takes, as far as flags and docs care. */
export type FieldShape =
  | { type: 'number'; integer: boolean }
  | { type: 'boolean' }
  | { type: 'string'; choices?: readonly string[] }
  | { type: 'list'; of: 'string' | 'number'; choices?: readonly string[] }
  /** Anything a flag cannot spell without help (objects, records, mixed unions). */
  | { type: 'other' };

/** One field of a schema (a recipe setting, a shared option), read from its zod schema (camelCase `key`). */
export interface SettingField {
  key: string;
  shape: FieldShape;
  description?: string;
  /** The default (absent when the setting is optional with no default). */
  default?: unknown;
  hasDefault: boolean;
  nullable: boolean;
  /** Bounds, for help texts and docs. */
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  hint?: FlagHint;
}

type Json = Record<string, unknown>;

function nonNull(js: Json): { js: Json; nullable: boolean } {
  if (Array.isArray(js.type) && js.type.includes('null')) {
    const rest = (js.type as string[]).filter((t) => t !== 'null');
    if (rest.length === 1) return { js: { ...js, type: rest[0] }, nullable: true };
  }
  const any = js.anyOf as Json[] | undefined;
  if (Array.isArray(any)) {
    const rest = any.filter((b) => b.type !== 'null');
    if (rest.length === 1 && rest.length < any.length) return { js: { ...js, ...rest[0] }, nullable: true };
  }
  return { js, nullable: false };
}

function shapeOf(js: Json): FieldShape {
  const type = js.type;
  if (type === 'integer' || type === 'number') return { type: 'number', integer: type === 'integer' };
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'string') return Array.isArray(js.enum) ? { type: 'string', choices: js.enum as string[] } : { type: 'string' };
  if (type === 'array') {
    const items = (js.items ?? {}) as Json;
    if (items.type === 'string')
      return { type: 'list', of: 'string', ...(Array.isArray(items.enum) ? { choices: items.enum as string[] } : {}) };
    if (items.type === 'number' || items.type === 'integer') return { type: 'list', of: 'number' };
  }
  return { type: 'other' };
}

/** One field, read from its schema; `hint` is how it appears as a flag. */
export function fieldOf(key: string, schema: z.ZodType, hint?: FlagHint): SettingField {
  const raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  const { js, nullable } = nonNull(raw);
  return {
    key,
    shape: shapeOf(js),
    hasDefault: 'default' in raw,
    nullable,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    ...('default' in raw ? { default: raw.default } : {}),
    ...(typeof js.minimum === 'number' ? { minimum: js.minimum } : {}),
    ...(typeof js.maximum === 'number' && js.maximum < Number.MAX_SAFE_INTEGER ? { maximum: js.maximum } : {}),
    ...(typeof js.exclusiveMinimum === 'number' ? { exclusiveMinimum: js.exclusiveMinimum } : {}),
    ...(hint !== undefined ? { hint } : {}),
  };
}

/** A default as people read it: lists comma-joined, null as "none". */
export function showDefault(value: unknown): string {
  if (value === null) return 'none';
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none';
  return plainText(value);
}
