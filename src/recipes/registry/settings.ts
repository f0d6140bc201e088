import type { z } from 'zod';
import { TextstressError } from '../../util/errors.ts';
import type { AnyRecipe } from './define.ts';
import { closest } from './registry.ts';

/** One problem with a recipe's settings, keyed by the setting (camelCase). */
export interface SettingProblem {
  key: string;
  message: string;
}

/** The problems zod found, one per key, with "did you mean" for unknown keys. */
export function settingProblems(def: AnyRecipe, error: z.ZodError): SettingProblem[] {
  const known = Object.keys((def.settings as z.ZodObject).shape);
  return error.issues.flatMap((issue): SettingProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => {
        const near = closest(k, known);
        return { key: k, message: `unknown setting${near ? ` (did you mean "${near}"?)` : ''}` };
      });
    }
    return [{ key: issue.path.map(String).join('.'), message: issue.message }];
  });
}

/**
 * A recipe's settings with defaults applied, or a TextstressError naming each bad setting. `name` spells a key the
 * way the caller's user knows it (a flag, a YAML key).
 */
export function parseSettings<S extends z.ZodObject>(
  def: AnyRecipe & { settings: S },
  raw: Record<string, unknown>,
  name: (key: string) => string = (k) => k,
  hint = "docs/recipes.md lists every recipe's settings.",
): z.output<S> {
  const parsed = def.settings.safeParse(raw);
  if (parsed.success) return parsed.data as z.output<S>;
  const problems = settingProblems(def, parsed.error).map((p) => `${name(p.key)}: ${p.message}`);
  throw new TextstressError(`invalid settings for the ${def.name} recipe: ${problems.join('; ')}.`, {
    hint,
  });
}
