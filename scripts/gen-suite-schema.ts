// Writes schema/suite.schema.json from the suite schema of the built-in recipes:  npx tsx scripts/gen-suite-schema.ts
// (test/suite/schema.test.ts fails when the committed file is out of date).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRegistry } from '../src/families/index.ts';
import { suiteJsonSchema } from '../src/suite/schema.ts';

export const SCHEMA_PATH = join(import.meta.dirname, '..', 'schema', 'suite.schema.json');
export const schemaText = (): string => JSON.stringify(suiteJsonSchema(builtinRegistry()), null, 2) + '\n';

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(SCHEMA_PATH, schemaText());
  process.stdout.write(`wrote ${SCHEMA_PATH}\n`);
}
