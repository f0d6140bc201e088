/**
 * Static sharding (`--shard I/N`): an example belongs to shard hash(id) mod N, so shards never overlap, cover every
 * example, and keep their examples across re-runs and machines (the hash is of the id only, not of the order).
 */
import { createHash } from 'node:crypto';
import { TextstressError } from '../util/errors.ts';

/** Shard I of N (0 ≤ I < N). */
export interface Shard {
  index: number;
  count: number;
}

/** Parses "I/N" (e.g. "0/3"); a readable error otherwise. */
export function parseShard(spec: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(spec);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1) || !(index < count)) {
    throw new TextstressError(`--shard "${spec}" is not of the form I/N with 0 ≤ I < N.`, {
      hint: 'E.g. --shard 0/3, --shard 1/3 and --shard 2/3 together cover every example once.',
    });
  }
  return { index, count };
}

/** The shard an example id belongs to among `count` (the first 6 bytes of its SHA-256, mod count). */
export function shardOf(id: string, count: number): number {
  return createHash('sha256').update(id).digest().readUIntBE(0, 6) % count;
}
