/**
 * The grammar-error paper's confusion sets (Yin et al. 2020, "On the Robustness of Language Encoders against
 * Grammatical Errors", §3), exactly as listed there. ∅ (insert / delete the word) is not a member: every rule
 * adds it as the insert and delete operations.
 */
export const ARTICLES = ['a', 'an', 'the'] as const;

export const PREPOSITIONS = [
  'on',
  'in',
  'at',
  'from',
  'for',
  'under',
  'over',
  'with',
  'into',
  'during',
  'until',
  'against',
  'among',
  'throughout',
  'to',
  'by',
  'about',
  'like',
  'before',
  'across',
  'behind',
  'but',
  'out',
  'up',
  'after',
  'since',
  'down',
  'off',
  'of',
] as const;

export const TRANSITIONS = [
  'and',
  'but',
  'so',
  'however',
  'as',
  'that',
  'thus',
  'also',
  'because',
  'therefore',
  'if',
  'although',
  'which',
  'where',
  'moreover',
  'besides',
  'of',
] as const;

/** Modal verbs: Worder may swap an adverb with a neighbouring modal ("will probably" → "probably will"). */
export const MODALS = ['can', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would'] as const;

/** The eight error types, in the paper's order. Edit types are `grammar:<type>`. */
export const GRAMMAR_ERROR_TYPES = ['ArtOrDet', 'Prep', 'Trans', 'Nn', 'SVA', 'Vform', 'Wchoice', 'Worder'] as const;
export type GrammarErrorType = (typeof GRAMMAR_ERROR_TYPES)[number];

export const ARTICLE_SET: ReadonlySet<string> = new Set(ARTICLES);
export const PREPOSITION_SET: ReadonlySet<string> = new Set(PREPOSITIONS);
export const TRANSITION_SET: ReadonlySet<string> = new Set(TRANSITIONS);
export const MODAL_SET: ReadonlySet<string> = new Set(MODALS);

export function isGrammarErrorType(s: string): s is GrammarErrorType {
  return (GRAMMAR_ERROR_TYPES as readonly string[]).includes(s);
}
