import type { Rng } from '../util/rng.ts';
import type { WordCandidate } from '../text/edits.ts';
import type { AttackState } from './state.ts';
import type { AttackSubject } from './subject.ts';

/** Proposes candidate word edits at given positions of a state. Pure given the rng. */
export interface Transformation {
  readonly name: string;
  candidates(state: AttackState, indices: readonly number[], rng: Rng): WordCandidate[];
  /**
   * True when `candidates` (and `candidatesAsync`) draw nothing from the rng: the same state and positions always
   * give the same candidates. Searches may then ask for candidates they will not use (whether a word offers an edit
   * at all) without changing what they do afterwards.
   */
  readonly deterministic?: boolean;
  /**
   * Candidates that need an asynchronous step (a masked language model's predictions for the current text).
   * Searches that await candidates (`SearchContext.expandAsync`: the classic greedy word-importance search) call
   * this instead of `candidates`; a transformation with only this form may throw from `candidates`, naming it.
   */
  candidatesAsync?(state: AttackState, indices: readonly number[], rng: Rng): Promise<WordCandidate[]>;
  /**
   * Per example, once, before the search: the transformation to use for this example (e.g. with the names and
   * places found once in its text). Called only for examples that are attacked (not skipped).
   */
  prepare?(subject: AttackSubject, rng: Rng): Promise<Transformation>;
}

/**
 * Several transformations as one, TextAttack's CompositeTransformation: each part's candidates at the asked
 * positions, in part order. Asynchronous and per-example parts stay so.
 */
export function composite(name: string, parts: readonly Transformation[]): Transformation {
  const async = parts.some((p) => p.candidatesAsync);
  const out: Transformation = {
    name,
    ...(parts.every((p) => p.deterministic) ? { deterministic: true } : {}),
    candidates: (state, indices, rng) => parts.flatMap((p) => p.candidates(state, indices, rng)),
    ...(async
      ? {
          candidatesAsync: async (state, indices, rng) => {
            const all: WordCandidate[] = [];
            // In part order, one after the other: the rng draws stay in a fixed order.
            for (const p of parts)
              all.push(...(p.candidatesAsync ? await p.candidatesAsync(state, indices, rng) : p.candidates(state, indices, rng)));
            return all;
          },
        }
      : {}),
  };
  if (parts.some((p) => p.prepare)) {
    out.prepare = async (subject, rng) => {
      const prepared: Transformation[] = [];
      for (const p of parts) prepared.push(p.prepare ? await p.prepare(subject, rng) : p);
      return composite(name, prepared);
    };
  }
  return out;
}
