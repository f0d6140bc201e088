import type { Rng } from '../util/rng.ts';
import type { WordCandidate } from '../text/edits.ts';
import type { AttackState } from './state.ts';

/** Proposes candidate word edits at given positions of a state. Pure given the rng. */
export interface Transformation {
  readonly name: string;
  candidates(state: AttackState, indices: readonly number[], rng: Rng): WordCandidate[];
}
