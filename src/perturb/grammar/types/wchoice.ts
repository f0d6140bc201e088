import type { VerbForms } from '../inflector.ts';
import type { VerbForm } from '../analysis.ts';
import { MIN_SYNONYM_COUNT, type WordFrequency } from '../frequency.ts';
import type { SynonymSource, WordNetPos } from '../wordnet.ts';
import { at, lettersOnly, replaceWith, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

const WORDNET_POS: Partial<Record<string, WordNetPos>> = { NOUN: 'noun', VERB: 'verb', ADJ: 'adj', ADV: 'adv' };

/** The grammar paper's rule: up to ten synonyms. */
export const MAX_SYNONYMS = 10;

/**
 * Wchoice: up to ten WordNet synonyms of the word's lemma with the part of speech the tagger gave, inflected
 * like the word (plural nouns stay plural, "grows" → "develops"). Only synonyms from the lemma's frequent
 * senses (SemCor tag counts, FREQUENT_SENSE_SHARE), most frequent sense first, that SemCor uses in that part
 * of speech (MIN_POS_SHARE) and that occur at least MIN_SYNONYM_COUNT times in SUBTLEX-US: "nerve" → heart,
 * spunk, not "nervus"; adjective "musical" → nothing, not "melodious". Auxiliaries, names (PROPN, or "nolan" in lower-cased text) and inflected
 * adjectives/adverbs ("better") are left alone. Earlier candidates weigh more when sampling: 1/(rank+1).
 */
export const wchoice: ErrorRule = {
  type: 'Wchoice',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    const pos = w ? WORDNET_POS[w.pos] : undefined;
    if (!w || !pos || w.name || !lettersOnly(w.lower)) return [];
    if ((pos === 'adj' || pos === 'adv') && w.lemma !== w.lower) return [];
    if (pos === 'verb' && !w.verbForm) return [];
    const out: GrammarCandidate[] = [];
    for (const [form, rank] of inflectedSynonyms(input, w.lemma, pos, pos === 'noun' ? (w.plural ? 'NNS' : 'NN') : (w.verbForm ?? ''))) {
      if (form !== w.lower) out.push(replaceWith('Wchoice', input, i, form, 1 / (rank + 1)));
    }
    return out;
  },
};

/** Common synonyms of a lemma: frequent senses first, then the frequency floor, then the cap of ten. */
export function commonSynonyms(synonyms: SynonymSource, freq: WordFrequency, lemma: string, pos: WordNetPos): string[] {
  // Unlisted words (hyphenated and apostrophe forms included: the list has none) count 0 and drop out.
  return synonyms
    .synonyms(lemma, pos, { max: Infinity })
    .filter((w) => freq.count(w) >= MIN_SYNONYM_COUNT)
    .slice(0, MAX_SYNONYMS);
}

/** Inflected synonyms (form, rank) per lexicon, then "pos form" and lemma: a corpus repeats its words. */
const memo = new WeakMap<SynonymSource, WeakMap<WordFrequency, Map<string, Map<string, [string, number][]>>>>();

function inflectedSynonyms(input: RuleInput, lemma: string, pos: WordNetPos, form: string): [string, number][] {
  let byFreq = memo.get(input.synonyms);
  if (!byFreq) memo.set(input.synonyms, (byFreq = new WeakMap()));
  let byKind = byFreq.get(input.frequencies);
  if (!byKind) byFreq.set(input.frequencies, (byKind = new Map()));
  const kind = pos + form;
  let byLemma = byKind.get(kind);
  if (!byLemma) byKind.set(kind, (byLemma = new Map()));
  const hit = byLemma.get(lemma);
  if (hit) return hit;
  const out: [string, number][] = [];
  const seen = new Set<string>();
  commonSynonyms(input.synonyms, input.frequencies, lemma, pos).forEach((syn, rank) => {
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
