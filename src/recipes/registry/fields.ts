/** A recipe's settings, field by field (see util/fields.ts): what the CLI, the docs and the registry's checks read. */
import type { z } from 'zod';
import { fieldOf, type FlagHint, type SettingField } from '../../util/fields.ts';
import type { AnyRecipe } from './define.ts';

export { showDefault, type FieldShape, type SettingField } from '../../util/fields.ts';

/** The recipe's settings, in declaration order, as {@link SettingField}s. */
export function settingFields(def: AnyRecipe): SettingField[] {
  const shape = (def.settings as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([key, schema]) =>
    fieldOf(key, schema, (def.cli as Record<string, FlagHint | undefined> | undefined)?.[key]),
  );
}

/**
 * The labels a recipe gives its settings where the bare name would mislead (`pairs` that are per error type, `budget`
 * that is B variants): `.meta({ label })` on the setting's schema. Others are named in words by the display.
 */
export function settingLabels(def: AnyRecipe | undefined): Record<string, string> {
  if (!def) return {};
  const shape = (def.settings as z.ZodObject).shape as Record<string, z.ZodType>;
  const out: Record<string, string> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const label = (schema.meta() as { label?: unknown } | undefined)?.label;
    if (typeof label === 'string') out[key] = label;
  }
  return out;
}
