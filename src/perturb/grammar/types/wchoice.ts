import type { VerbForms } from '../inflector.ts';
import type { VerbForm } from '../analysis.ts';
import type { WordNetPos } from '../wordnet.ts';
import { at, lettersOnly, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

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
    if (!w || !pos || !lettersOnly(w.lower)) return [];
    if ((pos === 'adj' || pos === 'adv') && w.lemma !== w.lower) return [];
    if (pos === 'verb' && !w.verbForm) return [];
    const out: GrammarCandidate[] = [];
    for (const [form, rank] of inflectedSynonyms(input, w.lemma, pos, pos === 'noun' ? (w.plural ? 'NNS' : 'NN') : (w.verbForm ?? ''))) {
      if (form !== w.lower) out.push(replaceWith('Wchoice', input, i, form, 1 / (rank + 1)));
    }
    return out;
  },
};

/** Inflected synonyms (form, sense rank) per lexicon, then "pos form" and lemma: a corpus repeats its words. */
const memo = new WeakMap<object, Map<string, Map<string, [string, number][]>>>();

function inflectedSynonyms(input: RuleInput, lemma: string, pos: WordNetPos, form: string): [string, number][] {
  let byKind = memo.get(input.synonyms);
  if (!byKind) memo.set(input.synonyms, (byKind = new Map()));
  const kind = pos + form;
  let byLemma = byKind.get(kind);
  if (!byLemma) byKind.set(kind, (byLemma = new Map()));
  const hit = byLemma.get(lemma);
  if (hit) return hit;
  const out: [string, number][] = [];
  const seen = new Set<string>();
  input.synonyms.synonyms(lemma, pos).forEach((syn, rank) => {
    let f = syn;
    if (form === 'NNS') f = input.inflector.plural(syn);
    else if (pos === 'verb') f = inflect(input.inflector.verbForms(syn), form as VerbForm);
    if (seen.has(f)) return;
    seen.add(f);
    out.push([f, rank]);
  });
  byLemma.set(lemma, out);
  return out;
}

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
