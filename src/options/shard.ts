/** `--shard I/N`: which shard of how many (src/runner/shard.ts says which examples are in it). */
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
