/**
 * docs/architecture.md traces one `attack typos` run file by file: every file and folder it names exists, and each
 * `name` it says a file holds is declared there, so the trace fails here when code moves instead of going stale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const paths = [...new Set([...page.matchAll(/`((?:src|bin|test)\/[A-Za-z0-9_./<>-]*)`/g)].map((m) => m[1]!))];
    expect(paths.length).toBeGreaterThan(40);
    const missing = paths.filter((p) => !p.includes('<') && !existsSync(join(ROOT, p.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });

  it('finds each function it names in the file it names', () => {
    // "`fn` (**`src/x.ts`**" and "**`src/x.ts`** — `fn`": the name and the file it is said to live in.
    const pairs = [
      ...[...page.matchAll(/`([A-Za-z_]+)` \(\*\*`(src\/[^`]+\.ts)`\*\*/g)].map((m) => [m[1]!, m[2]!]),
      ...[...page.matchAll(/\*\*`(src\/[^`]+\.ts)`\*\* — `([A-Za-z_]+)`/g)].map((m) => [m[2]!, m[1]!]),
    ];
    expect(pairs.length).toBeGreaterThan(10);
    const wrong = pairs.filter(
      ([name, file]) => !new RegExp(`\\b(?:function\\*?|const|class|let)\\s+${name}\\b`).test(readFileSync(join(ROOT, file!), 'utf8')),
    );
    expect(wrong).toEqual([]);
  });
});
