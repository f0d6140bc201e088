import { at, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

/**
 * SVA: a present-tense verb (main or auxiliary) ↔ its 3rd-person-singular / non-3SG form: "He grows up" →
 * "He grow up", "they have" → "they has", "is" ↔ "are". Only VBZ/VBP words qualify (from the analysis),
 * so base forms after "to", modals and "do" ("will grow") are left alone.
 */
export const sva: ErrorRule = {
  type: 'SVA',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w || (w.verbForm !== 'VBZ' && w.verbForm !== 'VBP')) return [];
    const f = input.inflector.verbForms(w.lemma);
    const other = w.lemma === 'be' ? (w.verbForm === 'VBZ' ? 'are' : 'is') : w.verbForm === 'VBZ' ? f.base : f.s3;
    return other !== w.lower ? [replaceWith('SVA', input, i, other)] : [];
  },
};
