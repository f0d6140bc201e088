// Writes the docs generated from the declarations: the recipes table in README.md (between the
// <!-- recipes:start/end --> markers), docs/recipes.md and docs/options.md (the shared options).  npx tsx scripts/gen-docs.ts
// (test/registry/registry.test.ts fails when the committed files are out of date).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRegistry } from '../src/families/index.ts';
import { optionsReference, recipesReference, recipesTable, replaceBetweenMarkers } from '../src/cli/docs.ts';

const ROOT = join(import.meta.dirname, '..');
export const README = join(ROOT, 'README.md');
export const REFERENCE = join(ROOT, 'docs', 'recipes.md');
export const OPTIONS = join(ROOT, 'docs', 'options.md');

export function readmeText(): string {
  return replaceBetweenMarkers(readFileSync(README, 'utf8'), 'recipes', recipesTable(builtinRegistry()));
}

export function referenceText(): string {
  return recipesReference(builtinRegistry()) + '\n';
}

export function optionsText(): string {
  return optionsReference() + '\n';
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(README, readmeText());
  writeFileSync(REFERENCE, referenceText());
  writeFileSync(OPTIONS, optionsText());
  process.stdout.write(`wrote ${README} (recipes table), ${REFERENCE} and ${OPTIONS}\n`);
}
