import type { WordSeq } from '../text/word-seq.ts';
import type { Edit, WordCandidate } from './edit.ts';
import type { GoalStatus } from './goal.ts';

/** A version of the edited field plus the edits that led to it. Immutable. */
export interface AttackState {
  seq: WordSeq;
  edits: readonly Edit[];
  /** Indices (in `seq`) of words that edits produced, so they are not edited twice. */
  modified: ReadonlySet<number>;
}

/** A state with the goal function's verdict on it. */
export interface Scored {
  state: AttackState;
  status: GoalStatus;
}

export function initialState(seq: WordSeq): AttackState {
  return { seq, edits: [], modified: new Set() };
}

/** Applies one candidate, recording the edit and shifting word indices after inserts and deletes. */
export function applyCandidate(state: AttackState, cand: WordCandidate, field: string): AttackState {
  const { seq } = state;
  const i = cand.wordIndex;
  const op = cand.op ?? 'replace';
  const start = i < seq.length ? seq.offsetOf(i) : seq.toString().length;
  const before = op === 'insert' ? '' : (seq.words[i] ?? '');
  const after = op === 'delete' ? '' : cand.after;
  const edit: Edit = { type: cand.type, field, wordIndex: i, start, before, after };
  const modified = new Set<number>();
  let next: WordSeq;
  if (op === 'replace') {
    next = seq.replace(i, cand.after);
    for (const m of state.modified) modified.add(m);
    modified.add(i);
  } else if (op === 'insert') {
    next = seq.insert(i, cand.after);
    for (const m of state.modified) modified.add(m >= i ? m + 1 : m);
    modified.add(i);
  } else {
    next = seq.delete(i);
    for (const m of state.modified) if (m !== i) modified.add(m > i ? m - 1 : m);
  }
  return { seq: next, edits: [...state.edits, edit], modified };
}
