import type { Attack } from '../../core/attack.ts';
import { editZone, maxEdits, minWordLength, noRepeatEdits, protectWords, type Constraint } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { GreedyWordSearch } from '../../core/search/greedy-word.ts';
import type { WordTarget } from '../../core/search/word-importance.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import type { Transformation } from '../../core/transformation.ts';
import { DEFAULT_MAX_CANDIDATES, TYPO_SOURCE_NAMES, typoCandidates, type TypoSourceName } from '../../perturb/index.ts';
import { typosSettings } from './settings.ts';

/** What an option left out means: the recipe's defaults, from its settings schema (the one place they live). */
const DEFAULTS = typosSettings.parse({});

/** Every typo source, in the order they are tried (the default of `sources`). */
export const ALL_TYPO_SOURCES: TypoSourceName[] = [...TYPO_SOURCE_NAMES];

/** Options left out take the typos recipe's defaults (settings.ts). */
export interface TypoAttackOptions {
  goal: GoalFactory;
  /** Which words get typos: max / min occlusion importance, or random. */
  target: WordTarget;
  /** Budget: at most k typos (in k different words). */
  k: number;
  sources?: TypoSourceName[];
  /** Shortest word that may get a typo. */
  minLength?: number;
  /** Words never touched. */
  protect?: string[];
  /** Cap on candidates per source and word (insertion/mistype can propose many). */
  maxCandidates?: number;
  /** Only the first maxWords words are ranked and edited (bounds the work on long texts). */
  maxWords?: number;
  /** Every candidate of every source, no sampling (maxCandidates: Infinity); cannot be combined with maxCandidates. */
  exhaustive?: boolean;
  /**
   * true (default): words without an allowed typo are passed over, so the K typos land in the first K
   * words of the order that can take one. false: Adv-BERT's top-K, the K first words of the order are
   * visited and a word without typos uses up its place.
   */
  skipUneditable?: boolean;
  subject?: SubjectOptions;
}

/**
 * Proposes typos from the given sources for each word asked about; `maxCandidates` caps each source per word
 * (default: the sources' own caps).
 */
export function typoTransformation(sources: TypoSourceName[], maxCandidates?: number): Transformation {
  return {
    name: `typos(${sources.join(',')})`,
    // A source samples with the rng only when it has more candidates than its cap: none does with no finite cap.
    ...(sources.every((s) => (maxCandidates ?? DEFAULT_MAX_CANDIDATES[s]) === Infinity) ? { deterministic: true } : {}),
    candidates: (state, indices, rng) => indices.flatMap((i) => typoCandidates(state.seq, i, sources, rng, { maxCandidates })),
  };
}

/** Adv-BERT's attack: K typos placed greedily into the targeted words until the prediction flips. */
export function typoAttack(opts: TypoAttackOptions): Attack {
  const sources = opts.sources ?? DEFAULTS.sources;
  if (opts.exhaustive && opts.maxCandidates !== undefined) {
    throw new Error('typos: exhaustive tries every candidate, so it cannot be combined with maxCandidates');
  }
  const maxCandidates = (opts.exhaustive ?? DEFAULTS.exhaustive) ? Infinity : (opts.maxCandidates ?? DEFAULTS.maxCandidates ?? undefined);
  const constraints: Constraint[] = [editZone(), noRepeatEdits, maxEdits(opts.k), minWordLength(opts.minLength ?? DEFAULTS.minLength)];
  const protect = opts.protect ?? DEFAULTS.protect;
  if (protect.length) constraints.push(protectWords(protect));
  return {
    window: opts.maxWords ?? DEFAULTS.maxWords,
    name: `typos(target=${opts.target}, k=${opts.k})`,
    transformation: typoTransformation(sources, maxCandidates),
    constraints,
    goal: opts.goal,
    search: new GreedyWordSearch(opts.target, (opts.skipUneditable ?? DEFAULTS.skipUneditable) ? {} : { words: opts.k }),
    subject: opts.subject,
  };
}
