import { inputChars } from '../../models/types.ts';
import type { Rng } from '../../util/rng.ts';
import type { WordSeq } from '../../text/word-seq.ts';
import type { WordCandidate } from '../../text/edits.ts';
import type { AttackState, Scored } from '../state.ts';
import type { AttackSubject } from '../subject.ts';

/**
 * Everything a search may do, with no knowledge of the model: propose edits (transformation + constraints
 * already applied) and have states scored by the goal function (one model batch per call).
 */
export interface SearchContext {
  subject: AttackSubject;
  initial: Scored;
  rng: Rng;
  /** May word i of this state be edited? */
  modifiable(state: AttackState, index: number): boolean;
  /** Allowed candidate edits at these word positions, each applied to the state. */
  expand(state: AttackState, indices: readonly number[]): { candidate: WordCandidate; state: AttackState }[];
  /** The same candidates, not applied (cheap for long texts: apply only the ones chosen). */
  candidates(state: AttackState, indices: readonly number[]): WordCandidate[];
  /** Applies one candidate (as expand does). */
  apply(state: AttackState, candidate: WordCandidate): AttackState;
  /**
   * Whether `expand(state, [index])` would offer any edit, answered without drawing from the rng (and without a
   * model or resource query): present only where the transformation draws nothing (`Transformation.deterministic`)
   * and every constraint is synchronous, so that asking changes nothing a search does afterwards.
   */
  proposes?(state: AttackState, index: number): boolean;
  /**
   * A dry run: the model's answers are stand-ins, so what the search will be told is unknown. A search whose cost
   * depends on the goal's choices (which word to edit first) takes the costliest choice, so that the queries a dry
   * run counts bound those of the real run.
   */
  worstCase?: boolean;
  /**
   * expand for every transformation and constraint, the asynchronous ones included (a masked LM's candidates, a
   * sentence encoder's verdicts): the allowed candidates at these positions, applied, each with the similarity a
   * batched constraint gave it (absent when none does). Sync transformations and constraints give what expand gives.
   */
  expandAsync(state: AttackState, indices: readonly number[]): Promise<Expanded[]>;

  /** Goal-function verdicts for many states, answered as one batch. */
  evaluate(states: readonly AttackState[]): Promise<Scored[]>;
}

/** One allowed candidate, applied (see SearchContext.expandAsync). */
export interface Expanded {
  candidate: WordCandidate;
  state: AttackState;
  /** From a batched constraint (sentence similarity to the original); absent when no constraint gives one. */
  similarity?: number;
}

/** What a search returns: its final state and the per-step trace. */
export interface SearchOutcome {
  /** The state the search settled on (the initial one when nothing could be edited). */
  final: Scored;
  /** The best state after each step, for per-budget curves (accuracy after k edits). */
  trace: Scored[];
}

/** A search strategy: given the context, finds the sequence of edits that best reaches the goal. */
export interface SearchMethod {
  readonly name: string;
  /**
   * False for methods that put a fixed number of edits in at once (noise on every word, sampled errors): "accuracy
   * when at most k edits are allowed" means nothing for them, and their runs report no such curve. Default true:
   * the search adds edits until it succeeds, so its final edit count says how many it needed.
   */
  readonly incremental?: boolean;
  search(ctx: SearchContext): Promise<SearchOutcome>;
}

/**
 * How many versions of a text to score per model batch: up to 4,096 (full batches for sentences), fewer for long
 * texts so that a batch holds at most ~8 million characters (each version is a whole copy of the text).
 */
export function statesPerBatch(textLength: number): number {
  return Math.max(1, Math.min(4096, Math.floor(8_000_000 / Math.max(1, textLength))));
}

/**
 * statesPerBatch for versions of this subject's field: sized by the whole model input each version becomes (the
 * untouched text after an edit window, and the other text of a pair or QA example, travel with every copy).
 */
export function statesPerBatchOf(subject: AttackSubject, seq: WordSeq): number {
  return statesPerBatch(inputChars(subject.toInput(seq)));
}
