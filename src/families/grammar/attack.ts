import type { Attack } from '../../core/attack.ts';
import { editZone, maxEditRate, noRepeatEdits, protectWords, type Constraint } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { BeamSearch } from '../../core/search/beam.ts';
import { GeneticSearch } from '../../core/search/genetic.ts';
import { GreedyWordSearch } from '../../core/search/greedy-word.ts';
import { RandomEditsSearch } from '../../core/search/random-edits.ts';
import type { SearchMethod } from '../../core/search/types.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import type { Transformation } from '../../core/transformation.ts';
import {
  DEFAULT_ERROR_DISTRIBUTION,
  GRAMMAR_ERROR_TYPES,
  defaultLexicon,
  grammarCandidates,
  sampleGrammarError,
  type ErrorDistribution,
  type GrammarErrorType,
  type GrammarLexicon,
  type WchoiceWeights,
} from '../../perturb/grammar/index.ts';
import { grammarSettings, type GrammarSearchName } from './settings.ts';

export { GRAMMAR_SEARCHES, type GrammarSearchName } from './settings.ts';

/** What an option left out means: the recipe's defaults, from its settings schema (the one place they live). */
const DEFAULTS = grammarSettings.parse({});

/** Options left out take the grammar recipe's defaults (settings.ts). */
export interface GrammarAttackOptions {
  goal: GoalFactory;
  search: GrammarSearchName;
  /** Most words modified, as a fraction of the original's words (the paper: 15%). */
  budget?: number;
  /** Probabilistic: errors per word (rounded, at least 1); defaults to the budget. */
  errorRate?: number;
  /** Error types used (default all eight). */
  types?: readonly GrammarErrorType[];
  /** Probabilistic: error-type weights (default: NUCLE's, see perturb/grammar/distribution.ts). */
  distribution?: ErrorDistribution;
  /** Probabilistic: Wchoice synonyms by sense rank (default) or uniform (the paper). */
  wchoiceWeights?: WchoiceWeights;
  /** May a replacement be two words ("has grown")? false for token tasks. Default true. */
  multiWord?: boolean;
  protect?: string[];
  /** Only the first maxWords words are edited, and the budget is a share of them (bounds the work on long texts). */
  maxWords?: number;
  beamWidth?: number;
  population?: number;
  generationRate?: number;
  subject?: SubjectOptions;
  lexicon?: GrammarLexicon;
}

/** Proposes grammatical errors of the given types (default all eight) at the words asked about. */
export function grammarTransformation(opts: {
  types?: readonly GrammarErrorType[];
  multiWord?: boolean;
  lexicon?: GrammarLexicon;
}): Transformation {
  const types = opts.types ?? GRAMMAR_ERROR_TYPES;
  return {
    name: `grammar(${types.join(',')})`,
    // The rules read the text (and its tagging) only.
    deterministic: true,
    candidates: (state, indices) => grammarCandidates(state.seq, indices, { types, multiWord: opts.multiWord, lexicon: opts.lexicon }),
  };
}

/** The search method `opts.search` names, configured from the options. */
export function grammarSearch(opts: GrammarAttackOptions): SearchMethod {
  switch (opts.search) {
    case 'probabilistic': {
      const rate = opts.errorRate ?? opts.budget ?? DEFAULTS.budget;
      const distribution = opts.distribution ?? DEFAULT_ERROR_DISTRIBUTION;
      const wchoiceWeights = opts.wchoiceWeights ?? DEFAULTS.wchoiceWeights;
      return new RandomEditsSearch(
        `probabilistic(rate=${rate}${wchoiceWeights === 'uniform' ? ', wchoice=uniform' : ''})`,
        (words) => Math.max(1, Math.round(rate * words)),
        (cands, rng) => sampleGrammarError(cands, rng, distribution, { wchoiceWeights }),
      );
    }
    case 'greedy':
      // The paper's Algorithm 1: importance = drop in P(true label) when the word is deleted (occlusion).
      return new GreedyWordSearch('max');
    case 'beam':
      return new BeamSearch(opts.beamWidth ?? DEFAULTS.beamWidth);
    case 'genetic':
      return new GeneticSearch({ population: opts.population ?? DEFAULTS.population, generationRate: opts.generationRate });
  }
}

/**
 * Grammar-error attack (Yin et al. 2020): the eight error types as candidates, a shared budget of at most
 * `budget` of the words modified, the task's edit zone, and one of four searches. Text the tagger cannot
 * read (empty, no words, not English) is skipped with the reason.
 */
export function grammarAttack(opts: GrammarAttackOptions): Attack {
  const budget = opts.budget ?? DEFAULTS.budget;
  const lexicon = opts.lexicon ?? defaultLexicon();
  const constraints: Constraint[] = [editZone(), noRepeatEdits, maxEditRate(budget)];
  const protect = opts.protect ?? DEFAULTS.protect;
  if (protect.length) constraints.push(protectWords(protect));
  return {
    window: opts.maxWords ?? DEFAULTS.maxWords,
    name: `grammar(search=${opts.search}, budget=${budget})`,
    transformation: grammarTransformation({ types: opts.types, multiWord: opts.multiWord, lexicon }),
    constraints,
    goal: opts.goal,
    search: grammarSearch(opts),
    subject: opts.subject,
    skipReason: (subject) => {
      const verdict = lexicon.analyzer.check(subject.original);
      return verdict.ok ? undefined : `grammar: ${verdict.reason}`;
    },
  };
}
