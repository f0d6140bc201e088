import type { Upos } from '../analysis.ts';
import { PREPOSITIONS, PREPOSITION_SET, TRANSITION_SET } from '../confusion-sets.ts';
import {
  at,
  deleteWord,
  insertBefore,
  replaceWith,
  startsNounPhrase,
  type ErrorRule,
  type GrammarCandidate,
  type RuleInput,
} from '../rule.ts';

/** Tags under which a word of the set acts as a preposition or particle ("grows up", "to the"). */
const PREP_TAGS: ReadonlySet<Upos> = new Set(['ADP', 'PART', 'SCONJ']);

/**
 * Prep, the paper's 29 prepositions plus ∅. A set word tagged as a preposition/particle is replaced by
 * each other preposition or deleted; a preposition is inserted between a main verb and the noun phrase
 * after it ("discuss the plan" → "discuss about the plan"). Subordinators that are transitions ("as",
 * "because") belong to Trans, so SCONJ counts here only for words not in Trans's set.
 */
export const prep: ErrorRule = {
  type: 'Prep',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w) return [];
    const out: GrammarCandidate[] = [];
    const isPrep = PREPOSITION_SET.has(w.lower) && PREP_TAGS.has(w.pos) && !(w.pos === 'SCONJ' && TRANSITION_SET.has(w.lower));
    if (isPrep) {
      for (const p of PREPOSITIONS) if (p !== w.lower) out.push(replaceWith('Prep', input, i, p));
      out.push(deleteWord('Prep', i));
    } else if (at(input, i - 1)?.pos === 'VERB' && startsNounPhrase(input, i)) {
      for (const p of PREPOSITIONS) out.push(insertBefore('Prep', input, i, p));
    }
    return out;
  },
};
