/**
 * A corrupt query cache under a paid (openai:) model stops the run with the cache's message instead of going on
 * without it: answers paid for then would not be kept, and a resume would pay for them again. Other models go on
 * without the cache (test/faults/cache-corruption.test.ts runs that for real).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { CacheCorruptError } from '../../src/query/disk-cache.ts';
import { openEngine } from '../../src/runner/open.ts';
import { tmp } from '../cli/helpers.ts';

const model: ModelAdapter = {
  ...createFunctionModel(
    async (inputs) => inputs.map(() => ({ kind: 'classes' as const, labels: ['negative', 'positive'], probs: [0.5, 0.5] })),
    {
      id: 'paid',
      task: 'text-classification',
      labels: ['negative', 'positive'],
    },
  ),
  cacheIdentity: 'openai:paid@test',
};

/** A cache folder whose LMDB file is 64 KiB of a repeated byte: no meta page, no magic number. */
function corruptCache(): string {
  const dir = tmp('corrupt-paid');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'queries.lmdb'), Buffer.alloc(65_536, 0x5a));
  return dir;
}

describe('a corrupt query cache', () => {
  it('stops an openai: run, naming the folder and the fix', () => {
    const dir = corruptCache();
    expect(() => openEngine(model, { model: 'openai:gpt-test', cacheDir: dir })).toThrow(CacheCorruptError);
    expect(() => openEngine(model, { model: 'openai:gpt-test', cacheDir: dir })).toThrow(new RegExp(`query cache in ${dir} is corrupt`));
  });

  it('lets an HTTP model go on without the cache', () => {
    const dir = corruptCache();
    expect(openEngine(model, { model: 'http://127.0.0.1:9/', cacheDir: dir })).toBeDefined();
  });
});
