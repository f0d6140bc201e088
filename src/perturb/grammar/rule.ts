import type { WordCandidate } from '../../text/edits.ts';
import type { WordSeq } from '../../text/word-seq.ts';
import { capitalise, caseShape, shapeLike } from '../case.ts';
import type { SentenceAnalysis, Upos, WordInfo } from './analysis.ts';
import { GRAMMAR_ERROR_TYPES, type GrammarErrorType } from './confusion-sets.ts';
import type { WordFrequency } from './frequency.ts';
import type { Inflector } from './inflector.ts';
import type { SynonymSource } from './wordnet.ts';

/** A candidate grammar error: a WordCandidate of type `grammar:<Type>` with its confusion weight. */
export interface GrammarCandidate extends WordCandidate {
  type: `grammar:${GrammarErrorType}`;
  /** Relative weight for sampling (the probabilistic transformation); searches ignore it. */
  weight: number;
}

export interface RuleInput {
  seq: WordSeq;
  analysis: SentenceAnalysis;
  inflector: Inflector;
  synonyms: SynonymSource;
  frequencies: WordFrequency;
  /**
   * May a replacement be two words ("grows" → "has grown")? Token-level tasks (NER) say no: one token
   * must stay one token for the gold tags to stay aligned.
   */
  multiWord: boolean;
}

/**
 * One error type. `candidates(input, i)` proposes every error of this type "at word i": replacing or
 * deleting word i, inserting a word before it, or (Worder) swapping it with a neighbour. Applicability
 * is decided from the analysis only, so rules are pure and cheap.
 */
export interface ErrorRule {
  readonly type: GrammarErrorType;
  candidates(input: RuleInput, i: number): GrammarCandidate[];
}

/** Edit type names, built once (candidates are made by the hundred per sentence). */
const EDIT_TYPE = Object.fromEntries(GRAMMAR_ERROR_TYPES.map((t) => [t, `grammar:${t}`])) as {
  [T in GrammarErrorType]: `grammar:${T}`;
};

export function replaceWith(type: GrammarErrorType, input: RuleInput, i: number, lowerAfter: string, weight = 1): GrammarCandidate {
  const original = input.seq.words[i]!;
  const shape = caseShape(original);
  const after = shape === 'lower' ? lowerAfter : shapeLike(lowerAfter, original, shape);
  return { wordIndex: i, after, type: EDIT_TYPE[type], op: 'replace', weight };
}

export function deleteWord(type: GrammarErrorType, i: number, weight = 1): GrammarCandidate {
  return { wordIndex: i, after: '', type: EDIT_TYPE[type], op: 'delete', weight };
}

/** Inserts before word i; a word put at the start of a capitalised sentence is capitalised itself. */
export function insertBefore(type: GrammarErrorType, input: RuleInput, i: number, lowerWord: string, weight = 1): GrammarCandidate {
  const next = input.seq.words[i];
  const atStart = i === 0 && next !== undefined && caseShape(next) === 'title';
  return { wordIndex: i, after: atStart ? capitalise(lowerWord) : lowerWord, type: EDIT_TYPE[type], op: 'insert', weight };
}

export const at = (input: RuleInput, i: number): WordInfo | undefined => input.analysis.words[i];

/** A common noun the rules may inflect or replace: not PROPN, and not a name the tagger took for a noun. */
export const isCommonNoun = (w: WordInfo): boolean => w.pos === 'NOUN' && !w.name;

/** Is the word made of letters only? (ASCII fast path first: this runs for every word.) */
export function lettersOnly(lower: string): boolean {
  return /^[a-z]+$/.test(lower) || /^\p{L}+$/u.test(lower);
}

/** Tags that begin a noun phrase's head material (nouns and the adjectives before them). */
const NP_HEAD: ReadonlySet<Upos> = new Set(['NOUN', 'ADJ']);
/** Tags after which a noun phrase is already under way (a determiner or modifier precedes it). */
const NP_INSIDE: ReadonlySet<Upos> = new Set(['DET', 'ADJ', 'NUM', 'NOUN', 'PROPN', 'PRON', 'ADV', 'X']);

/** Does word i start a noun phrase that has no determiner ("good films", but not "the films")? */
export function startsBareNounPhrase(input: RuleInput, i: number): boolean {
  const w = at(input, i);
  if (!w || !NP_HEAD.has(w.pos)) return false;
  const prev = at(input, i - 1);
  return prev === undefined || !NP_INSIDE.has(prev.pos);
}

/** Does word i start any noun phrase (with or without a determiner)? */
export function startsNounPhrase(input: RuleInput, i: number): boolean {
  const w = at(input, i);
  if (!w) return false;
  if (w.pos === 'DET' || w.pos === 'PRON' || w.pos === 'PROPN') return true;
  return startsBareNounPhrase(input, i);
}
