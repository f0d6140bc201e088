import { WordSeq } from '../../text/word-seq.ts';
import type { Rng } from '../../util/rng.ts';
import { charLength } from '../chars.ts';
import { NOISE_FUNCTIONS, type NoiseType } from './noise.ts';

/** Options of {@link applyNoise}. */
export interface NoiseOptions {
  /** Words with fewer characters are left alone. Default 1 (every word; each noise type has its own floor). */
  minLength?: number;
  /** Words for which this returns true are left alone. */
  protect?: (wordIndex: number) => boolean;
}

/** A word {@link applyNoise} changed, by its index in the sequence. */
export interface NoiseChange {
  wordIndex: number;
  before: string;
  after: string;
}

const HAS_LETTER = /\p{L}/u;

/**
 * Applies one noise type to every eligible word of `seq` (not protected, at least minLength
 * characters, containing a letter), left to right with one rng. Gaps (spacing, punctuation) are
 * kept exactly; `changed` lists the words that actually changed, in order.
 */
export function applyNoise(seq: WordSeq, type: NoiseType, rng: Rng, opts: NoiseOptions = {}): { seq: WordSeq; changed: NoiseChange[] } {
  const fn = NOISE_FUNCTIONS[type];
  if (!fn) throw new RangeError(`applyNoise: unknown noise type "${type}"`);
  const minLength = opts.minLength ?? 1;
  const words = seq.words.slice();
  const changed: NoiseChange[] = [];
  for (let i = 0; i < words.length; i++) {
    const before = words[i]!;
    if (opts.protect?.(i)) continue;
    if (charLength(before) < minLength || !HAS_LETTER.test(before)) continue;
    const after = fn(before, rng);
    if (after === before) continue;
    words[i] = after;
    changed.push({ wordIndex: i, before, after });
  }
  return { seq: changed.length ? new WordSeq(words, seq.gaps) : seq, changed };
}
