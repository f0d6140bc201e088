import type { Rng } from '../../util/rng.ts';
import { applyShape, caseBase, caseShape, type CaseShape } from '../case.ts';
import { charsOf, collect, type Chars } from '../chars.ts';
import { maxOf, minLengthOf, type TypoOptions, type TypoSourceName } from './options.ts';

/** What a character-level source prepares for one word: the word and its number of ops. */
export interface CharPlan {
  cs: Chars;
  shape: CaseShape;
  total: number;
}

/**
 * Shared frame of the character-level sources: case handling (see case.ts), the length check, the
 * WordSeq single-word check for words with apostrophes/hyphens, and sampling down to maxCandidates.
 * `inherentMin` is the shortest word the operation applies to at all. `prepare` and `build` are
 * module-level functions (no closures per word: this is the hot path). `distinct`: different ops
 * always give different strings (see collect).
 */
export function charSource<P extends CharPlan>(
  word: string,
  rng: Rng,
  opts: TypoOptions | undefined,
  source: TypoSourceName,
  inherentMin: number,
  prepare: (cs: Chars, shape: CaseShape, opts: TypoOptions | undefined) => P,
  build: (plan: P, op: number) => string | null,
  distinct = false,
): string[] {
  const shape = caseShape(word);
  const base = caseBase(word, shape);
  const cs = charsOf(base);
  if (cs.length < Math.max(inherentMin, minLengthOf(opts))) return [];
  const plan = prepare(cs, shape, opts);
  const out = collect(plan.total, maxOf(opts, source), rng, base, build, plan, cs.hasJoiner, distinct);
  if (shape === 'upper' || shape === 'title') {
    for (let i = 0; i < out.length; i++) out[i] = applyShape(out[i]!, shape);
  }
  return out;
}

/** Index of the group that op falls in, given cumulative group ends (ends[i] = ops in groups 0…i). */
export function groupOf(ends: readonly number[], op: number): number {
  let g = 0;
  while (ends[g]! <= op) g++;
  return g;
}

/** A plan whose ops come in groups (one group per position), each group a list of replacements. */
export interface GroupPlan extends CharPlan {
  lists: (readonly string[])[];
  ends: number[];
}
