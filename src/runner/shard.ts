/**
 * Static sharding (`--shard I/N`): an example belongs to shard hash(id) mod N, so shards never overlap, cover every
 * example, and keep their examples across re-runs and machines (the hash is of the id only, not of the order).
 */
import { createHash } from 'node:crypto';

export type { Shard } from '../options/shard.ts';

/** The shard an example id belongs to among `count` (the first 6 bytes of its SHA-256, mod count). */
export function shardOf(id: string, count: number): number {
  return createHash('sha256').update(id).digest().readUIntBE(0, 6) % count;
}
