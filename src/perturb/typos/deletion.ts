import type { Rng } from '../../util/rng.ts';
import type { CaseShape } from '../case.ts';
import type { Chars } from '../chars.ts';
import { charSource, type CharPlan } from './char-source.ts';
import type { TypoOptions } from './options.ts';

/**
 * Adv-BERT "deletion": drop one character. Every position for words of up to maxCandidates (8)
 * characters, in order ("cat" → at, ct, ca); a seeded sample of positions for longer ones.
 * Deleting either letter of a double gives one candidate ("hello" → helo once).
 */
export function deletionTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  return charSource(word, rng, opts, 'deletion', 2, prepare, build);
}

function prepare(cs: Chars, shape: CaseShape): CharPlan {
  return { cs, shape, total: cs.length };
}

function build(plan: CharPlan, i: number): string {
  return plan.cs.splice(i, i + 1, '');
}
