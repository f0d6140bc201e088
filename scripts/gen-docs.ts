// Writes the docs generated from the declarations: the recipes table in README.md (between the
// <!-- recipes:start/end --> markers), docs/recipes.md, docs/options.md (the shared options) and the kinds table
// in docs/adding-a-recipe.md.  npx tsx scripts/gen-docs.ts
// (test/registry/registry.test.ts fails when the committed files are out of date).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRegistry } from '../src/families/index.ts';
import { kindsTable, optionsReference, recipesReference, recipesTable, replaceBetweenMarkers } from '../src/cli/docs.ts';

const ROOT = join(import.meta.dirname, '..');
export const README = join(ROOT, 'README.md');
export const REFERENCE = join(ROOT, 'docs', 'recipes.md');
export const OPTIONS = join(ROOT, 'docs', 'options.md');
export const ADDING = join(ROOT, 'docs', 'adding-a-recipe.md');

export function readmeText(): string {
  return replaceBetweenMarkers(readFileSync(README, 'utf8'), 'recipes', recipesTable(builtinRegistry()));
}

export function referenceText(): string {
  return recipesReference(builtinRegistry()) + '\n';
}

export function optionsText(): string {
  return optionsReference() + '\n';
}

export function addingText(): string {
  return replaceBetweenMarkers(readFileSync(ADDING, 'utf8'), 'kinds', kindsTable());
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(README, readmeText());
  writeFileSync(REFERENCE, referenceText());
  writeFileSync(OPTIONS, optionsText());
  writeFileSync(ADDING, addingText());
  process.stdout.write(`wrote ${README} (recipes table), ${REFERENCE}, ${OPTIONS} and ${ADDING} (kinds table)\n`);
}
