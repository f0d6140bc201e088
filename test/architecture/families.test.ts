/**
 * Families are manifests: each folder of src/families/ has an index.ts that exports its recipes (and its verbs and
 * help groups), src/families/index.ts lists each family once, and the CLI's own help table names no family's command.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FAMILIES, BUILTIN_RECIPES, BUILTIN_VERBS } from '../../src/families/index.ts';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');
const FAMILIES = join(SRC, 'families');
const folders = readdirSync(FAMILIES).filter((f) => statSync(join(FAMILIES, f)).isDirectory());

describe('family manifests', () => {
  it('every family folder has an index.ts with its recipes, and families/index.ts lists each once', () => {
    for (const f of folders)
      expect([f, readFileSync(join(FAMILIES, f, 'index.ts'), 'utf8')]).toEqual([f, expect.stringMatching(/export const recipes\b/)]);
    const index = readFileSync(join(FAMILIES, 'index.ts'), 'utf8');
    for (const f of folders) expect([f, index.split(`'./${f}/index.ts'`).length - 1]).toEqual([f, 1]);
    expect(BUILTIN_FAMILIES).toHaveLength(folders.length);
  });

  it("cli/groups.ts names no family's command: the manifests place them", () => {
    const groups = readFileSync(join(SRC, 'cli', 'groups.ts'), 'utf8');
    const commands = [...BUILTIN_RECIPES.map((r) => r.verb ?? r.name), ...BUILTIN_VERBS.map((v) => v.group ?? v.name)];
    // `attack`, `stress` and `probe` are the kinds' group verbs, not a family's.
    const named = commands.filter(
      (c) => !['attack', 'stress', 'probe'].includes(c) && new RegExp(`['"]?\\b${c}\\b['"]?\\s*:`).test(groups),
    );
    expect(named).toEqual([]);
  });
});
