import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MISSPELLINGS_LICENSE, MISSPELLINGS_PACKAGE, misspellingsOf, misspellingTable } from '../../src/perturb/index.ts';

describe('misspelling list', () => {
  // Loaded once and cached: the second call returns the same table (its load time is a benchmark's business, not a test's).
  it('loads once and is cached', () => {
    const table = misspellingTable();
    expect(table.size).toBeGreaterThan(15_000);
    expect(misspellingTable()).toBe(table);
  });

  it('maps correct words to their misspellings, lower case, case-insensitively', () => {
    expect(misspellingsOf('receive')).toEqual([
      'reaceive',
      'receice',
      'receieve',
      'receiv',
      'receve',
      'recevie',
      'recieve',
      'recive',
      'retcieve',
      'reveive',
    ]);
    expect(misspellingsOf('RECEIVE')).toBe(misspellingsOf('receive'));
    expect(misspellingsOf('britain')).toContain('britian'); // from "Britian->Britain"
    expect(misspellingsOf('cache')).toContain('aache'); // "aache->ache, cache": every correction counts
    expect(misspellingsOf('ache')).toContain('aache');
    expect(misspellingsOf('zzzqqq')).toEqual([]);
  });

  it('keeps only single WordSeq words', () => {
    const word = /^[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*$/u;
    for (const [right, wrongs] of misspellingTable()) {
      expect(right).toMatch(word);
      expect(right).toBe(right.toLowerCase());
      for (const w of wrongs) {
        expect(w).toMatch(word);
        expect(w).not.toBe(right);
      }
    }
    expect(misspellingsOf('lot')).not.toContain('alot'); // "alot->a lot" has no one-word target
  });

  it('states the licence the package declares', () => {
    const root = dirname(createRequire(import.meta.url).resolve(MISSPELLINGS_PACKAGE));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { license: string };
    expect(MISSPELLINGS_LICENSE.startsWith(pkg.license)).toBe(true);
  });
});
