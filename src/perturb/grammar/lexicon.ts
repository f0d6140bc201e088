import type { Analyzer } from './analysis.ts';
import { SubtlexFrequency, type WordFrequency } from './frequency.ts';
import { CompromiseInflector, type Inflector } from './inflector.ts';
import { WinkAnalyzer } from './wink-analyzer.ts';
import { WordNetIndex, type SynonymSource } from './wordnet.ts';

/** The language resources the grammar rules use, each behind our own interface. */
export interface GrammarLexicon {
  analyzer: Analyzer;
  inflector: Inflector;
  synonyms: SynonymSource;
  /** Word frequencies: Wchoice's floor for synonyms, and names in lower-cased text. */
  frequencies: WordFrequency;
}

let shared: GrammarLexicon | undefined;

/**
 * One process-wide lexicon (wink-nlp tagger, compromise inflection, WordNet index, SUBTLEX-US counts): they
 * are pure and their caches are worth sharing across examples and runs. WordNet and SUBTLEX files are read
 * on first use.
 */
export function defaultLexicon(): GrammarLexicon {
  if (!shared) {
    const inflector = new CompromiseInflector();
    const synonyms = new WordNetIndex();
    const frequencies = new SubtlexFrequency();
    shared = { analyzer: new WinkAnalyzer(inflector, synonyms, frequencies), inflector, synonyms, frequencies };
  }
  return shared;
}
