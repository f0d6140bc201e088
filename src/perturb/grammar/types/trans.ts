import type { Upos } from '../analysis.ts';
import { TRANSITIONS, TRANSITION_SET } from '../confusion-sets.ts';
import { at, deleteWord, insertBefore, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

/** Tags under which a set word links clauses ("and", "because", "however", relative "which"/"that"). */
const TRANS_TAGS: ReadonlySet<Upos> = new Set(['CCONJ', 'SCONJ', 'ADV', 'PRON']);

/**
 * Trans, the paper's 17 link words plus ∅. A set word tagged as a conjunction, linking adverb or relative
 * pronoun is replaced by each other link word or deleted ("of", tagged as a preposition, is left to Prep);
 * a link word is inserted where a clause starts: at the start of the text or after , ; or :.
 */
export const trans: ErrorRule = {
  type: 'Trans',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w) return [];
    const out: GrammarCandidate[] = [];
    if (TRANSITION_SET.has(w.lower) && TRANS_TAGS.has(w.pos)) {
      for (const t of TRANSITIONS) if (t !== w.lower) out.push(replaceWith('Trans', input, i, t));
      out.push(deleteWord('Trans', i));
    } else if (w.pos !== 'X' && w.pos !== 'PUNCT' && (i === 0 || /[,;:]/.test(input.seq.gaps[i]!))) {
      for (const t of TRANSITIONS) out.push(insertBefore('Trans', input, i, t));
    }
    return out;
  },
};
