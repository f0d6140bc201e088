/**
 * Grammatical errors as non-native writers make them (Yin et al. 2020): eight error types with the paper's
 * confusion sets, applicability from a real POS tagger (wink-nlp), inflection (compromise) and WordNet
 * synonyms, each behind a small interface. Every candidate is a WordCandidate typed `grammar:<Type>`.
 */
export * from './analysis.ts';
export * from './confusion-sets.ts';
export * from './candidates.ts';
export * from './distribution.ts';
export * from './lexicon.ts';
export * from './sample.ts';
export type { ErrorRule, GrammarCandidate, RuleInput } from './rule.ts';
export { CompromiseInflector, type Inflector, type VerbForms } from './inflector.ts';
export { WinkAnalyzer } from './wink-analyzer.ts';
export {
  FREQUENT_SENSE_SHARE,
  MIN_POS_SHARE,
  WordNetIndex,
  type AntonymSense,
  type AntonymSource,
  type SynonymOptions,
  type SynonymSource,
  type WordNetPos,
} from './wordnet.ts';
export { MIN_SYNONYM_COUNT, SubtlexFrequency, type WordFrequency } from './frequency.ts';
export { looksLikeName } from './names.ts';
