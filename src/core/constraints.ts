import type { WordCandidate } from '../text/edits.ts';
import { candidateCost, originOf, type AttackState } from './state.ts';
import type { AttackSubject } from './subject.ts';

/**
 * Prunes what a search may do. `modifiable` is checked before a transformation runs (which words may be
 * edited at all, TextAttack's pre-transformation constraints); `allows` is checked on each candidate it proposes;
 * `accepts` and `acceptsAll` on the version of the field a candidate makes (TextAttack's constraints proper, which
 * compare the transformed text with the original: edit distance, sentence similarity).
 */
export interface Constraint {
  readonly name: string;
  modifiable?(state: AttackState, index: number, subject: AttackSubject): boolean;
  allows?(state: AttackState, candidate: WordCandidate, subject: AttackSubject): boolean;
  /** Is the version `next` (a candidate applied to `from`) acceptable? Compare with `subject.original`. */
  accepts?(next: AttackState, subject: AttackSubject, from: AttackState): boolean;
  /**
   * The asynchronous, batched form (a constraint that asks a model, such as a sentence encoder): one verdict per
   * state, in order. Only searches that await candidates (`SearchContext.expandAsync`) can use an attack with it.
   */
  acceptsAll?(next: readonly AttackState[], subject: AttackSubject, from: AttackState): Promise<ConstraintVerdict[]>;
}

/**
 * A batched constraint's verdict on one version. `similarity` (e.g. the sentence encoder's cosine with the original)
 * lets the classic greedy search pick, among the successful versions of its last step, the most similar one, as
 * TextAttack's GreedyWordSwapWIR does with `similarity_score`.
 */
export interface ConstraintVerdict {
  ok: boolean;
  similarity?: number;
}

/** At most `max` edits per example (the K of the typo paper). */
export function maxEdits(max: number): Constraint {
  return { name: `max-edits(${max})`, modifiable: (state) => state.edits.length < max };
}

/** The edit budget of maxEditRate: `fraction` of the original words, rounded down, at least 1. */
export function editBudget(fraction: number, words: number): number {
  return Math.max(1, Math.floor(fraction * words));
}

/**
 * At most `fraction` of the original words edited (rounded down, at least 1); a swap costs two. Of the editable
 * words: a text longer than the attack's window gets the budget of the window.
 */
export function maxEditRate(fraction: number): Constraint {
  const budget = (subject: AttackSubject): number => editBudget(fraction, subject.original.length);
  return {
    name: `max-edit-rate(${fraction})`,
    modifiable: (state, _i, subject) => state.edits.length < budget(subject),
    allows: (state, cand, subject) => state.edits.length + candidateCost(cand) <= budget(subject),
  };
}

/** Words produced by an earlier edit are not edited again. */
export const noRepeatEdits: Constraint = {
  name: 'no-repeat-edits',
  modifiable: (state, i) => !state.modified.has(i),
};

/**
 * The edit zone: never words the subject freezes (NER entities), only words inside [from, to) of the
 * original. Positions are mapped back to the original through the state's origin, so the zone holds after
 * inserts and deletes (a word an edit inserted counts as inside). Nothing may be inserted right before a
 * word the subject marks `noInsertBefore` (inside a multi-word entity).
 */
export function editZone(opts: { from?: number; to?: number } = {}): Constraint {
  return {
    name: 'edit-zone',
    modifiable: (state, i, subject) => {
      const o = originOf(state, i);
      if (o < 0) return true;
      if (subject.frozen.has(o)) return false;
      return o >= (opts.from ?? 0) && o < (opts.to ?? Number.POSITIVE_INFINITY);
    },
    allows: (state, cand, subject) => {
      if (cand.op === 'insert' && subject.noInsertBefore) {
        // Appending to the window inserts before the first word after it, whatever edits came before.
        const o = cand.wordIndex >= state.seq.length ? subject.original.length : originOf(state, cand.wordIndex);
        if (o >= 0 && subject.noInsertBefore.has(o)) return false;
      }
      return true;
    },
  };
}

/** Words never to touch (case-insensitive), e.g. negations a test must keep. */
export function protectWords(words: Iterable<string>): Constraint {
  const set = new Set([...words].map((w) => w.toLowerCase()));
  return {
    name: 'protect-words',
    modifiable: (state, i) => !set.has((state.seq.words[i] ?? '').toLowerCase()),
  };
}

/** Only words with at least `n` letters or digits (typos in "a" or "'s" read as noise, not typos). */
export function minWordLength(n: number): Constraint {
  return {
    name: `min-word-length(${n})`,
    modifiable: (state, i) => (state.seq.words[i] ?? '').length >= n,
  };
}

/** May word `index` of the state be edited under every constraint? */
export function isModifiable(constraints: readonly Constraint[], state: AttackState, index: number, subject: AttackSubject): boolean {
  return constraints.every((c) => !c.modifiable || c.modifiable(state, index, subject));
}

/** Does every constraint accept this candidate edit? */
export function isAllowed(
  constraints: readonly Constraint[],
  state: AttackState,
  candidate: WordCandidate,
  subject: AttackSubject,
): boolean {
  return constraints.every((c) => !c.allows || c.allows(state, candidate, subject));
}

/**
 * Why no word of the state may be edited at all, or undefined: the field has no words, or every word is ruled
 * out (named by the constraints that rule them out, each word by the first that does).
 */
export function nothingToEdit(constraints: readonly Constraint[], state: AttackState, subject: AttackSubject): string | undefined {
  if (state.seq.length === 0) return `nothing to edit: the ${subject.field} has no words`;
  const by = new Set<string>();
  for (let i = 0; i < state.seq.length; i++) {
    const no = constraints.find((c) => c.modifiable && !c.modifiable(state, i, subject));
    if (!no) return undefined;
    by.add(no.name);
  }
  return `nothing to edit: every word is ruled out by ${[...by].join(', ')}`;
}
