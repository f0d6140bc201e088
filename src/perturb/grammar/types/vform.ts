import { at, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

/**
 * Vform: a finite main verb ↔ its present / past / progressive / perfect form. "grows" → "grew", "growing",
 * "has grown"; "grew" → "grows", "grow", "growing", "had grown". The progressive is the bare -ing form (the
 * learner error drops the auxiliary); the perfect takes has/have/had after the original's tense and number
 * and is two words, so it is offered only where a replacement may be two words (not for NER tokens).
 */
export const vform: ErrorRule = {
  type: 'Vform',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w || w.pos !== 'VERB' || (w.verbForm !== 'VBZ' && w.verbForm !== 'VBP' && w.verbForm !== 'VBD')) return [];
    const f = input.inflector.verbForms(w.lemma);
    const forms: string[] = [];
    if (w.verbForm === 'VBD') forms.push(f.s3, f.base);
    else forms.push(f.past);
    forms.push(f.gerund);
    if (input.multiWord) {
      const have = w.verbForm === 'VBZ' ? 'has' : w.verbForm === 'VBD' ? 'had' : 'have';
      forms.push(`${have} ${f.participle}`);
    }
    const seen = new Set([w.lower]);
    const out: GrammarCandidate[] = [];
    for (const form of forms) {
      if (seen.has(form)) continue;
      seen.add(form);
      out.push(replaceWith('Vform', input, i, form));
    }
    return out;
  },
};
