import { createHash } from 'node:crypto';
import { inputKey, type ModelInput, type ModelOutput } from '../models/types.ts';

/**
 * The cache key of an input: the input itself when short, its SHA-1 when long (a 100,000-character text would
 * otherwise be kept once per map and set that tracks it).
 */
export function queryKey(input: ModelInput): string {
  const key = inputKey(input);
  return key.length <= 1024 ? key : `#${createHash('sha1').update(key).digest('base64')}`;
}

/** A cache entry's memory, estimated generously (two bytes a character, eight a number, plus object overhead). */
export function entryBytes(key: string, out: ModelOutput): number {
  const chars = (xs: readonly string[]): number => xs.reduce((n, x) => n + 2 * x.length + 24, 0);
  let size = 2 * key.length + 96;
  switch (out.kind) {
    case 'classes':
      return size + chars(out.labels) + 8 * out.probs.length + 64;
    case 'tags':
      return size + chars(out.tags) + 8 * out.scores.length + 64;
    case 'spans':
      for (const s of out.spans) size += 2 * s.text.length + 96;
      return size + 32;
  }
}
