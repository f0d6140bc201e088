/**
 * Antonymy (Naik et al. 2018 §4.2, competence): the hypothesis is the premise with one adjective or noun
 * replaced by a WordNet antonym; the gold label is contradiction (not_entailment in the 2-way scheme).
 *
 * The antonym must belong to the sense the word is used in. Naik et al. disambiguate each word (WSD) before
 * taking its antonym; we have no WSD model here, so the word is read in its most frequent sense (WordNet's
 * first, by SemCor counts) and a word is skipped where that reading is unsafe:
 *  - the antonym comes from the word's own first sense (its own synset's `!` pointer), never from another
 *    sense: "children" (first sense "young person", no antonym) does not become "parents" (the "offspring"
 *    sense), "girl" (first sense "young woman") is left alone;
 *  - a word whose other frequent senses (FREQUENT_SENSE_SHARE of the top count) have other antonyms is
 *    ambiguous and skipped: "old" (lived long → young; not new → new), so "an old park" never becomes
 *    "a young park"; "same" (other / different), "little" (big / much), "light" (heavy / dark);
 *  - nouns only in a sense WordNet files under people (noun.person: man/woman, boy/girl, mother/father):
 *    the other noun antonyms are abstract and read wrongly in scene descriptions ("water safety" → "water
 *    danger", "colors" → "colorlessnesses");
 *  - an adjective SemCor tags more often as a noun is read as a noun modifier and left alone ("sound
 *    equipment" → "unsound equipment");
 *  - the tag must fit the context: an adjective only attributive (before a noun or adjective) or after a form
 *    of be / look / seem / become (so "leaping high in the air", "into the net and" are left alone); a noun
 *    not inside a noun compound ("water safety", "sound equipment") nor part of a WordNet collocation with a
 *    neighbour ("in front of" → in_front);
 *  - no premise with a negation (no, not, n't, nobody, none, never, nothing, neither, nor, without): "there is
 *    no man smiling" and "there is no woman smiling" do not contradict;
 *  - no replacement by a word already in the premise ("black and white" → "white and white").
 * Other choices:
 *  - words are tagged in context by the grammar errors' tagger; only ADJ and NOUN, never names (PROPN, or
 *    nouns the tagger marks as names);
 *  - an adjective is replaced only in its base form (not "older"), a noun in the singular or, through the
 *    inflector, the plural ("men" → women); the replacement takes the word's capitalisation;
 *  - "a"/"an" right before the replaced word is made to fit it ("an unskilled man"), by the first letter (a
 *    vowel letter takes "an"), which is wrong for the few words like "hour" or "unit";
 *  - one word per premise, chosen with the seed among the words that qualify (`all: true` gives one pair per
 *    such word, in word order). A premise with none gives no pair.
 */
import { shapeLike } from '../../../perturb/case.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { FREQUENT_SENSE_SHARE, type AntonymSense, type WordNetPos } from '../../../perturb/grammar/index.ts';
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

const NEGATION = new Set(['no', 'not', "n't", 'nobody', 'none', 'never', 'nothing', 'neither', 'nor', 'without', 'nowhere', 'noone']);
/** Parts of speech of the function words a fixed phrase goes through. */
const FUNCTION_WORDS = new Set(['ADP', 'CCONJ', 'DET', 'PART', 'SCONJ']);
/** WordNet's lexicographer file of people (noun.person). */
const NOUN_PERSON = 18;
/** Verbs after which an adjective is predicative ("the pool is empty", "he looks tired"). */
const LINKING = new Set(['be', 'look', 'seem', 'become', 'appear', 'feel', 'get', 'remain', 'stay']);

/**
 * The antonym of `lemma` in its first sense, when that sense has one and no other frequent sense has another
 * (see the module comment); undefined otherwise.
 */
export function senseAntonym(lemma: string, pos: WordNetPos, lexicon: NliLexicon = defaultNliLexicon()): string | undefined {
  const senses = lexicon.antonyms.antonymSenses(lemma, pos);
  const first = senses[0]?.antonyms[0];
  if (first === undefined) return undefined;
  // Nouns: only persons; other noun antonyms are abstract (safety/danger, front/rear, color/colorlessness).
  if (pos === 'noun' && senses[0]!.lexFile !== NOUN_PERSON) return undefined;
  // An adjective SemCor tags more often as a noun modifies like a noun ("sound equipment", not "sound advice").
  const tags = (ss: readonly AntonymSense[]): number => ss.reduce((a, s) => a + s.tags, 0);
  if (pos === 'adj' && tags(lexicon.antonyms.antonymSenses(lemma, 'noun')) > tags(senses)) return undefined;
  const top = Math.max(...senses.map((s) => s.tags));
  const frequent = top === 0 ? senses.slice(0, 1) : senses.filter((s) => s.tags >= FREQUENT_SENSE_SHARE * top);
  return frequent.every((s) => s.antonyms.length === 0 || s.antonyms.includes(first)) ? first : undefined;
}

/** Every adjective or noun of `text` whose antonym in its sense and context can replace it, in word order. */
export function antonymSlots(text: string, lexicon: NliLexicon = defaultNliLexicon()): AntonymSlot[] {
  const seq = WordSeq.parse(text);
  if (seq.length === 0) return [];
  const { words } = lexicon.analyzer.analyse(seq);
  if (words.some((w) => NEGATION.has(w.lower) || w.lower.endsWith("n't"))) return [];
  const present = new Set(words.map((w) => w.lower));
  const wn = lexicon.antonyms;
  // Part of a fixed phrase: a WordNet collocation through a function word ("in front", "black and white"); an
  // adjective and a noun ("old man", also in WordNet) are left to the sense rules.
  const collocated = (i: number): boolean =>
    [
      [i - 1, i],
      [i, i + 1],
      [i - 2, i],
      [i, i + 2],
      [i - 1, i + 1],
    ].some(([a, b]) => {
      if (a! < 0 || b! >= words.length) return false;
      const span = words.slice(a, b! + 1);
      return span.some((w) => FUNCTION_WORDS.has(w.pos)) && wn.knows(span.map((w) => w.lower).join('_'));
    });
  const out: AntonymSlot[] = [];
  words.forEach((w, index) => {
    let antonym: string | undefined;
    const next = words[index + 1]?.pos;
    const prev = words[index - 1];
    if (w.pos === 'ADJ' && w.lower === w.lemma) {
      const attributive = next === 'NOUN' || next === 'ADJ';
      // "is empty", "is not very tall": the linking verb, perhaps with an adverb between.
      const before = prev?.pos === 'ADV' ? words[index - 2] : prev;
      const predicative = before !== undefined && (before.pos === 'AUX' || before.pos === 'VERB') && LINKING.has(before.lemma);
      if (attributive || predicative) antonym = senseAntonym(w.lemma, 'adj', lexicon);
    } else if (w.pos === 'NOUN' && !w.name && prev?.pos !== 'NOUN' && next !== 'NOUN') {
      const base = senseAntonym(w.lemma, 'noun', lexicon);
      if (base !== undefined && w.lower === w.lemma) antonym = base;
      else if (base !== undefined && w.plural) antonym = lexicon.inflector.plural(base);
    }
    if (antonym === undefined || present.has(antonym.toLowerCase()) || collocated(index)) return;
    out.push({ index, word: seq.words[index]!, antonym: shapeLike(antonym, seq.words[index]!) });
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
