import type { WordSeq } from '../../text/word-seq.ts';

/**
 * What the grammar rules need to know about a sentence, one entry per WordSeq word. Produced by an
 * `Analyzer` (a real POS tagger behind our own interface), so the rules never see the tagger's API.
 */

/** Universal POS tags (the tagger's coarse tags); 'X' also marks words the tagger split or merged. */
export type Upos =
  | 'ADJ'
  | 'ADP'
  | 'ADV'
  | 'AUX'
  | 'CCONJ'
  | 'DET'
  | 'INTJ'
  | 'NOUN'
  | 'NUM'
  | 'PART'
  | 'PRON'
  | 'PROPN'
  | 'PUNCT'
  | 'SCONJ'
  | 'SYM'
  | 'VERB'
  | 'X';

/**
 * Penn-style verb form, derived from the word, its lemma and the inflection library (the tagger gives
 * only coarse tags): VBZ = present 3rd singular, VBP = present non-3rd-singular, VB = base form after
 * "to", a modal or do-support, VBD past, VBG gerund/present participle, VBN past participle.
 */
export type VerbForm = 'VB' | 'VBZ' | 'VBP' | 'VBD' | 'VBG' | 'VBN';

export interface WordInfo {
  /** The word lower-cased. */
  lower: string;
  pos: Upos;
  /** Dictionary form, lower-case (the word itself when the tagger has none). */
  lemma: string;
  /** Verbs and auxiliaries only. */
  verbForm?: VerbForm;
  /** Nouns only: is the word plural? */
  plural?: boolean;
  /**
   * Nouns only: a name the tagger took for a common noun (lower-cased text: "nolan"; see names.ts). Rules
   * leave it alone as they leave PROPN.
   */
  name?: boolean;
}

export interface SentenceAnalysis {
  words: readonly WordInfo[];
}

/** Why a text cannot be attacked with grammar errors; the summary counts these reasons. */
export type AnalysisFailure = 'empty text' | 'no words the tagger can analyse' | 'not English';

export type AnalysisResult = { ok: true; analysis: SentenceAnalysis } | { ok: false; reason: AnalysisFailure };

export interface Analyzer {
  analyse(seq: WordSeq): SentenceAnalysis;
  /** Whether the text is something grammar errors can be put into at all (language, content). */
  check(seq: WordSeq): AnalysisResult;
}
