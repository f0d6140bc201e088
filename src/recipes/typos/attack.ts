import type { Attack } from '../../attack/attack.ts';
import { editZone, maxEdits, minWordLength, noRepeatEdits, protectWords, type Constraint } from '../../attack/constraints.ts';
import type { GoalFactory } from '../../attack/goals/index.ts';
import { GreedyWordSearch } from '../../attack/search/greedy-word.ts';
import type { WordTarget } from '../../attack/search/word-importance.ts';
import type { SubjectOptions } from '../../attack/subject.ts';
import type { Transformation } from '../../attack/transformation.ts';
import { TYPO_SOURCE_NAMES, typoCandidates, type TypoSourceName } from '../../perturb/index.ts';

export const ALL_TYPO_SOURCES: TypoSourceName[] = [...TYPO_SOURCE_NAMES];

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
  subject?: SubjectOptions;
}

export function typoTransformation(sources: TypoSourceName[], maxCandidates?: number): Transformation {
  return {
    name: `typos(${sources.join(',')})`,
    candidates: (state, indices, rng) =>
      indices.flatMap((i) => typoCandidates(state.seq, i, sources, rng, { maxCandidates })),
  };
}

/** Adv-BERT's attack: K typos placed greedily into the targeted words until the prediction flips. */
export function typoAttack(opts: TypoAttackOptions): Attack {
  const sources = opts.sources ?? ALL_TYPO_SOURCES;
  const constraints: Constraint[] = [
    editZone(),
    noRepeatEdits,
    maxEdits(opts.k),
    minWordLength(opts.minLength ?? 2),
  ];
  if (opts.protect?.length) constraints.push(protectWords(opts.protect));
  return {
    ...(opts.maxWords !== undefined ? { window: opts.maxWords } : {}),
    name: `typos(target=${opts.target}, k=${opts.k})`,
    transformation: typoTransformation(sources, opts.maxCandidates),
    constraints,
    goal: opts.goal,
    search: new GreedyWordSearch(opts.target),
    subject: opts.subject,
  };
}
