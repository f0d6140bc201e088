import type { Rng } from '../../util/rng.ts';
import { caseShape, shapeLike, type CaseShape } from '../case.ts';
import { charLength, collect } from '../chars.ts';
import { misspellingsOf } from '../misspellings.ts';
import { maxOf, minLengthOf, type TypoOptions } from './options.ts';

/**
 * Adv-BERT "replace-word": swap the word for a misspelling people really make, from the cspell
 * common-misspellings list (misspellings.ts; loaded on first use). Up to maxCandidates (8) of them,
 * drawn with the rng when there are more, in the list's (alphabetical) order, with the word's
 * capitalisation: "Receive" → "Recieve", "RECEIVE" → "RECIEVE".
 */
export function replaceWordTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  if (charLength(word) < minLengthOf(opts)) return [];
  const list = misspellingsOf(word);
  if (list.length === 0) return [];
  const plan: ReplacePlan = { list, word, shape: caseShape(word) };
  return collect(list.length, maxOf(opts, 'replace-word'), rng, word, build, plan);
}

interface ReplacePlan {
  list: readonly string[];
  word: string;
  shape: CaseShape;
}

function build(plan: ReplacePlan, k: number): string {
  return shapeLike(plan.list[k]!, plan.word, plan.shape);
}
