import type { Rng } from '../../util/rng.ts';
import type { CaseShape } from '../case.ts';
import type { Chars } from '../chars.ts';
import { charSource, type CharPlan } from './char-source.ts';
import type { TypoOptions } from './options.ts';

/**
 * Adv-BERT "swap": exchange two adjacent characters. Every adjacent pair by default, first and last
 * included, because the commonest human swaps touch them ("the" → hte, teh); keepEnds: true keeps
 * the first and last character in place (Belinkov & Bisk's interior swap). Pairs of equal letters
 * are skipped ("book" has no o↔o swap).
 */
export function swapTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  // distinct: swaps of different (unequal) pairs never give the same string
  return charSource(word, rng, opts, 'swap', 2, prepare, build, true);
}

interface SwapPlan extends CharPlan {
  lo: number;
}

function prepare(cs: Chars, shape: CaseShape, opts: TypoOptions | undefined): SwapPlan {
  const lo = opts?.keepEnds ? 1 : 0;
  // pairs (i, i+1) for i in [lo, n-1-lo)
  return { cs, shape, lo, total: Math.max(0, cs.length - 1 - 2 * lo) };
}

function build(plan: SwapPlan, k: number): string | null {
  const i = k + plan.lo;
  const a = plan.cs.cs[i]!;
  const b = plan.cs.cs[i + 1]!;
  return a === b ? null : plan.cs.splice(i, i + 2, b + a);
}
