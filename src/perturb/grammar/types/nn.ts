import { at, isCommonNoun, lettersOnly, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

/** Nn: a common noun ↔ its other number ("child" → "children", "parents" → "parent"); never a name ("nolan"). */
export const nn: ErrorRule = {
  type: 'Nn',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w || !isCommonNoun(w) || !lettersOnly(w.lower)) return [];
    const other = w.plural ? w.lemma : input.inflector.plural(w.lower);
    return other && other !== w.lower ? [replaceWith('Nn', input, i, other)] : [];
  },
};
