import type { WordSeq } from '../text/word-seq.ts';
import type { Edit, WordCandidate } from '../text/edits.ts';
import type { GoalStatus } from './goals/index.ts';

/** A version of the edited field plus the edits that led to it. Immutable. */
export interface AttackState {
  seq: WordSeq;
  edits: readonly Edit[];
  /** Indices (in `seq`) of words that edits produced, so they are not edited twice. */
  modified: ReadonlySet<number>;
  /**
   * For each word of `seq`, its index in the original (-1 for an inserted word). Absent means the identity:
   * no word was inserted or deleted. Keeps frozen words, edit zones and NER gold tags aligned after
   * inserts and deletes.
   */
  origin?: readonly number[];
}

/** A state with the goal function's verdict on it. */
export interface Scored {
  state: AttackState;
  status: GoalStatus;
}

/** The state before any edit: the original words, no edits, nothing modified. */
export function initialState(seq: WordSeq): AttackState {
  return { seq, edits: [], modified: new Set() };
}

/** The original index of word i of the state (-1: inserted by an edit). */
export function originOf(state: AttackState, i: number): number {
  return state.origin ? (state.origin[i] ?? -1) : i;
}

/** Where original word `o` is now (-1: deleted). */
export function currentIndexOf(state: AttackState, o: number): number {
  if (!state.origin) return o < state.seq.length ? o : -1;
  return state.origin.indexOf(o);
}

/** How many edits a candidate adds (a swap changes two words). */
export function candidateCost(cand: WordCandidate): number {
  return cand.op === 'swap' ? 2 : 1;
}

/** Applies one candidate, recording the edit and shifting word indices after inserts and deletes. */
export function applyCandidate(state: AttackState, cand: WordCandidate, field: string): AttackState {
  const { seq } = state;
  const i = cand.wordIndex;
  const op = cand.op ?? 'replace';
  const start = seq.offsetOf(i);
  if (op === 'swap') {
    const a = seq.words[i]!;
    const b = seq.words[i + 1]!;
    const next = seq.replace(i, b).replace(i + 1, a);
    const modified = new Set(state.modified);
    modified.add(i);
    modified.add(i + 1);
    const edits: Edit[] = [
      { type: cand.type, field, wordIndex: i, start, before: a, after: b },
      { type: cand.type, field, wordIndex: i + 1, start: next.offsetOf(i + 1), before: b, after: a },
    ];
    // Each word takes its origin along: word i now came from where word i + 1 did (the swap moves no entity
    // tag: both words had to be editable, so neither is frozen).
    const origin = state.origin ? state.origin.slice() : identity(seq.length);
    [origin[i], origin[i + 1]] = [origin[i + 1]!, origin[i]!];
    return { seq: next, edits: [...state.edits, ...edits], modified, origin };
  }
  const span = op === 'replace' ? (cand.span ?? 1) : 1;
  if (span > 1) return applySpan(state, cand, field, span);
  const before = op === 'insert' ? '' : (seq.words[i] ?? '');
  const after = op === 'delete' ? '' : cand.after;
  const modified = new Set<number>();
  let next: WordSeq;
  let origin = state.origin;
  if (op === 'replace') {
    next = seq.replace(i, cand.after);
    for (const m of state.modified) modified.add(m);
    modified.add(i);
  } else if (op === 'insert') {
    next = seq.insert(i, cand.after);
    for (const m of state.modified) modified.add(m >= i ? m + 1 : m);
    modified.add(i);
    const o = origin ? origin.slice() : identity(seq.length);
    o.splice(i, 0, -1);
    origin = o;
  } else {
    next = seq.delete(i);
    for (const m of state.modified) if (m !== i) modified.add(m > i ? m - 1 : m);
    const o = origin ? origin.slice() : identity(seq.length);
    o.splice(i, 1);
    origin = o;
  }
  // An inserted word starts where it landed: appended to a closed text, after the space put before it.
  const edit: Edit = { type: cand.type, field, wordIndex: i, start: op === 'insert' ? next.offsetOf(i) : start, before, after };
  return { seq: next, edits: [...state.edits, edit], modified, ...(origin ? { origin } : {}) };
}

/**
 * Replaces words i … i + span − 1 with one text (CheckList's "do not" → "don't", "New York" → "Paris"): the span
 * becomes one position, marked modified and keeping the origin of its first word; later positions move up.
 */
function applySpan(state: AttackState, cand: WordCandidate, field: string, span: number): AttackState {
  const { seq } = state;
  const i = cand.wordIndex;
  const start = seq.offsetOf(i);
  const end = seq.offsetOf(i + span - 1) + seq.words[i + span - 1]!.length;
  const before = seq.toString().slice(start, end);
  const next = seq.replaceSpan(i, span, cand.after);
  const modified = new Set<number>([i]);
  for (const m of state.modified) {
    if (m < i) modified.add(m);
    else if (m >= i + span) modified.add(m - span + 1);
  }
  const origin = state.origin ? state.origin.slice() : identity(seq.length);
  origin.splice(i + 1, span - 1);
  const edit: Edit = { type: cand.type, field, wordIndex: i, start, before, after: cand.after };
  return { seq: next, edits: [...state.edits, edit], modified, origin };
}

function identity(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}
