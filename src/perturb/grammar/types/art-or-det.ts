import { ARTICLE_SET } from '../confusion-sets.ts';
import {
  at,
  deleteWord,
  insertBefore,
  replaceWith,
  startsBareNounPhrase,
  type ErrorRule,
  type GrammarCandidate,
  type RuleInput,
} from '../rule.ts';

/**
 * ArtOrDet, confusion set {a, an, the, ∅}. "a" and "an" are one article written two ways: "the" becomes
 * the indefinite form that fits the next word ("the parents" → "a parents", not "an parents"), while an
 * existing "a"/"an" may also take the other spelling ("a film" → "an film"), a real learner error.
 * Articles are inserted only where a noun phrase starts without a determiner.
 */
export const artOrDet: ErrorRule = {
  type: 'ArtOrDet',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w) return [];
    const out: GrammarCandidate[] = [];
    if (w.pos === 'DET' && ARTICLE_SET.has(w.lower)) {
      const indefinite = indefiniteFor(at(input, i + 1)?.lower);
      const options = w.lower === 'the' ? [indefinite] : ['the', w.lower === 'a' ? 'an' : 'a'];
      for (const a of options) out.push(replaceWith('ArtOrDet', input, i, a));
      out.push(deleteWord('ArtOrDet', i));
    } else if (startsBareNounPhrase(input, i)) {
      for (const a of ['the', indefiniteFor(w.lower)]) out.push(insertBefore('ArtOrDet', input, i, a));
    }
    return out;
  },
};

/** "an" before a written vowel, else "a" (spelling, not sound: a rule a learner would also apply). */
function indefiniteFor(next: string | undefined): string {
  return next !== undefined && /^[aeiou]/.test(next) ? 'an' : 'a';
}
