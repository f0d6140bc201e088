/**
 * Antonymy (Naik et al. 2018 §4.2, competence): the hypothesis is the premise with one adjective or noun
 * replaced by a WordNet antonym; the gold label is contradiction (not_entailment in the 2-way scheme).
 *
 * Choices:
 *  - words are tagged in context by the grammar errors' tagger; only ADJ and NOUN, never names (PROPN, or
 *    nouns the tagger marks as names);
 *  - antonyms are WordNet's direct antonyms (`!` pointers) of the lemma's frequent senses, and the first one,
 *    of the most frequent sense, is used: "old" → young (not new), "man" → woman;
 *  - an adjective is replaced only in its base form (not "older"), a noun in the singular or, through the
 *    inflector, the plural ("men" → women); the replacement takes the word's capitalisation;
 *  - "a"/"an" right before the replaced word is made to fit it ("an old man" → "a young man"), by the first
 *    letter (a vowel letter takes "an"), which is wrong for the few words like "hour" or "unit";
 *  - one word per premise, chosen with the seed among the words that have an antonym (`all: true` gives one
 *    pair per such word, in word order). A premise with none gives no pair.
 */
import { shapeLike } from '../../../perturb/case.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { defaultNliLexicon, type NliLexicon } from './lexicon.ts';
import { makePair, pairRng } from './make.ts';
import type { NliPair, NliRuleOptions, StressPair } from './types.ts';

/** A word of the premise and the antonym that would replace it. */
export interface AntonymSlot {
  /** Word index in WordSeq.parse(premise). */
  index: number;
  word: string;
  /** The antonym, inflected and capitalised like the word. */
  antonym: string;
}

/** Every adjective or noun of `text` that has an antonym, in word order. */
export function antonymSlots(text: string, lexicon: NliLexicon = defaultNliLexicon()): AntonymSlot[] {
  const seq = WordSeq.parse(text);
  if (seq.length === 0) return [];
  const { words } = lexicon.analyzer.analyse(seq);
  const out: AntonymSlot[] = [];
  words.forEach((w, index) => {
    let antonym: string | undefined;
    if (w.pos === 'ADJ' && w.lower === w.lemma) antonym = lexicon.antonyms.antonyms(w.lemma, 'adj')[0];
    else if (w.pos === 'NOUN' && !w.name) {
      const base = lexicon.antonyms.antonyms(w.lemma, 'noun')[0];
      if (base !== undefined && w.lower === w.lemma) antonym = base;
      else if (base !== undefined && w.plural) antonym = lexicon.inflector.plural(base);
    }
    if (antonym !== undefined) out.push({ index, word: seq.words[index]!, antonym: shapeLike(antonym, seq.words[index]!) });
  });
  return out;
}

/** The premise with the slot's word replaced, the article before it fitted; and the edits. */
function replaceSlot(premise: string, slot: AntonymSlot): { text: string; edits: { at: number; from: string; to: string }[] } {
  const seq = WordSeq.parse(premise);
  let out = seq.replace(slot.index, slot.antonym);
  const edits = [{ at: seq.offsetOf(slot.index), from: slot.word, to: slot.antonym }];
  const prev = slot.index - 1;
  if (prev >= 0 && /^\s+$/.test(seq.gaps[slot.index]!) && /^an?$/i.test(seq.words[prev]!)) {
    const article = /^[aeiou]/i.test(slot.antonym) ? 'an' : 'a';
    const fitted = shapeLike(article, seq.words[prev]!);
    if (fitted !== seq.words[prev]) {
      out = out.replace(prev, fitted);
      edits.unshift({ at: seq.offsetOf(prev), from: seq.words[prev]!, to: fitted });
    }
  }
  return { text: out.toString(), edits };
}

/** Antonymy pairs of one premise: hypothesis = premise with one adjective or noun replaced by its antonym. */
export function nliAntonymy(pair: NliPair, opts: NliRuleOptions & { all?: boolean; lexicon?: NliLexicon } = {}): StressPair[] {
  const slots = antonymSlots(pair.premise, opts.lexicon);
  if (slots.length === 0) return [];
  const chosen = opts.all ? slots : [pairRng(pair, 'antonymy', opts).pick(slots)];
  return chosen.map((slot) => {
    const { text, edits } = replaceSlot(pair.premise, slot);
    return makePair(
      pair,
      'antonymy',
      {
        variant: opts.all ? `antonymy-${slot.index}` : 'antonymy',
        premise: pair.premise,
        hypothesis: text,
        label: 'contradiction',
        hypothesisFrom: 'premise',
        edits: edits.map((e) => ({ field: 'hypothesis' as const, ...e })),
      },
      opts,
    );
  });
}
