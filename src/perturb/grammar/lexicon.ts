import type { Analyzer } from './analysis.ts';
import { CompromiseInflector, type Inflector } from './inflector.ts';
import { WinkAnalyzer } from './wink-analyzer.ts';
import { WordNetIndex, type SynonymSource } from './wordnet.ts';

/** The three language resources the grammar rules use, each behind our own interface. */
export interface GrammarLexicon {
  analyzer: Analyzer;
  inflector: Inflector;
  synonyms: SynonymSource;
}

let shared: GrammarLexicon | undefined;

/**
 * One process-wide lexicon (wink-nlp tagger, compromise inflection, WordNet index): they are pure and
 * their caches are worth sharing across examples and runs. WordNet files are read on first use.
 */
export function defaultLexicon(): GrammarLexicon {
  if (!shared) {
    const inflector = new CompromiseInflector();
    const synonyms = new WordNetIndex();
    shared = { analyzer: new WinkAnalyzer(inflector, synonyms), inflector, synonyms };
  }
  return shared;
}
