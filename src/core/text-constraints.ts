/**
 * TextAttack's word-level constraints of the classic recipes: stopwords left alone (a pre-transformation
 * constraint) and a bound on the Levenshtein distance between the original and the edited text (an overlap
 * constraint, checked on each candidate's text).
 */
import { distance } from 'fastest-levenshtein';
import { isStopword, nltkEnglishStopwords } from '../text/stopwords.ts';
import type { Constraint } from './constraints.ts';

/**
 * Stopwords are not edited (TextAttack's StopwordModification): by default NLTK's English list, as TextAttack's PWWS
 * and DeepWordBug use, compared in lower case (see isStopword). A word an edit produced is judged as it reads now.
 */
export function stopwords(list: ReadonlySet<string> = nltkEnglishStopwords(), name = 'stopwords'): Constraint {
  return { name, modifiable: (state, i) => !isStopword(state.seq.words[i] ?? '', list) };
}

/**
 * The edited field stays within `max` character edits (Levenshtein: insertions, deletions, substitutions) of the
 * original (TextAttack's LevenshteinEditDistance, compare_against_original=True; DeepWordBug's ε = 30). The text
 * after the attack window is the same in both, so the field's head gives the whole field's distance.
 */
export function maxLevenshtein(max: number): Constraint {
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`a Levenshtein bound must be a whole number ≥ 0, got ${max}`);
  let original: { seq: unknown; text: string } | undefined;
  return {
    name: `levenshtein(≤ ${max})`,
    accepts(next, subject) {
      // One subject at a time per call; remember its text rather than rebuilding it for every candidate.
      if (original?.seq !== subject.original) original = { seq: subject.original, text: subject.original.toString() };
      return distance(original.text, next.seq.toString()) <= max;
    },
  };
}
