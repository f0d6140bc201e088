// Writes the docs generated from the recipe declarations: the recipes table in README.md (between the
// <!-- recipes:start/end --> markers) and docs/recipes.md.  npx tsx scripts/gen-docs.ts
// (test/registry/registry.test.ts fails when the committed files are out of date).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRegistry } from '../src/families/index.ts';
import { recipesReference, recipesTable, replaceBetweenMarkers } from '../src/cli/docs.ts';

const ROOT = join(import.meta.dirname, '..');
export const README = join(ROOT, 'README.md');
export const REFERENCE = join(ROOT, 'docs', 'recipes.md');

export function readmeText(): string {
  return replaceBetweenMarkers(readFileSync(README, 'utf8'), 'recipes', recipesTable(builtinRegistry()));
}

export function referenceText(): string {
  return recipesReference(builtinRegistry()) + '\n';
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(README, readmeText());
  writeFileSync(REFERENCE, referenceText());
  process.stdout.write(`wrote ${README} (recipes table) and ${REFERENCE}\n`);
}
