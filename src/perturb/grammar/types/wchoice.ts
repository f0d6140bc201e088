import type { VerbForms } from '../inflector.ts';
import type { VerbForm } from '../analysis.ts';
import type { WordNetPos } from '../wordnet.ts';
import { at, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

const WORDNET_POS: Partial<Record<string, WordNetPos>> = { NOUN: 'noun', VERB: 'verb', ADJ: 'adj', ADV: 'adv' };

/**
 * Wchoice: up to ten WordNet synonyms of the word's lemma with the word's own part of speech (most
 * frequent sense first), inflected like the word (plural nouns stay plural, "grows" → "develops").
 * Auxiliaries, proper nouns and inflected adjectives/adverbs ("better") are left alone. Earlier senses
 * weigh more when sampling: weight 1/(rank+1).
 */
export const wchoice: ErrorRule = {
  type: 'Wchoice',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    const pos = w ? WORDNET_POS[w.pos] : undefined;
    if (!w || !pos || !/^\p{L}+$/u.test(w.lower)) return [];
    if ((pos === 'adj' || pos === 'adv') && w.lemma !== w.lower) return [];
    if (pos === 'verb' && !w.verbForm) return [];
    const out: GrammarCandidate[] = [];
    const seen = new Set([w.lower]);
    input.synonyms.synonyms(w.lemma, pos).forEach((syn, rank) => {
      let form = syn;
      if (pos === 'noun' && w.plural) form = input.inflector.plural(syn);
      else if (pos === 'verb') form = inflect(input.inflector.verbForms(syn), w.verbForm!);
      if (seen.has(form)) return;
      seen.add(form);
      out.push(replaceWith('Wchoice', input, i, form, 1 / (rank + 1)));
    });
    return out;
  },
};

function inflect(f: VerbForms, form: VerbForm): string {
  switch (form) {
    case 'VBZ':
      return f.s3;
    case 'VBD':
      return f.past;
    case 'VBG':
      return f.gerund;
    case 'VBN':
      return f.participle;
    default:
      return f.base;
  }
}
