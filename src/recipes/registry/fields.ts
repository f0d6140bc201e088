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
