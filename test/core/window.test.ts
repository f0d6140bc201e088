/**
 * The edit window: a long text is attacked on its first N words plus an untouched suffix. Every edit inside the
 * window must give exactly the text, fields and edit offsets the same edit gives without a window.
 */
import { describe, expect, it } from 'vitest';
import { editZone } from '../../src/core/constraints.ts';
import { applyCandidate, initialState, type AttackState } from '../../src/core/state.ts';
import { makeSubject, type AttackSubject } from '../../src/core/subject.ts';
import type { Example } from '../../src/data/types.ts';
import type { WordCandidate } from '../../src/text/edits.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

const text = (s: string): Example => ({ kind: 'text', id: 't', text: s, label: 'positive' });

/** The text after applying candidates one by one, with and without a window, plus the edits. */
function both(example: Example, window: number, cands: WordCandidate[]) {
  const run = (subject: AttackSubject) => {
    let state: AttackState = initialState(subject.original);
    for (const c of cands) state = applyCandidate(state, c, subject.field);
    return {
      fields: subject.fields(state.seq),
      input: subject.toInput(state.seq),
      edits: state.edits,
      origin: subject.fullOrigin(state.origin),
    };
  };
  return { windowed: run(makeSubject(example, { window })), whole: run(makeSubject(example)) };
}

describe('edits at the window boundary', () => {
  const ex = text('one two three. four five');

  it('an insertion right after the window lands where it lands without a window', () => {
    const { windowed, whole } = both(ex, 3, [{ wordIndex: 3, after: 'NEW', type: 't', op: 'insert' }]);
    expect(whole.fields).toEqual({ text: 'one two three. NEW four five' });
    expect(windowed.fields).toEqual(whole.fields);
    expect(whole.edits[0]!.start).toBe(15);
    expect(windowed.edits).toEqual(whole.edits);
  });

  it('deleting the last word of the window takes the gap after it, as without a window', () => {
    const { windowed, whole } = both(ex, 3, [{ wordIndex: 2, after: '', type: 't', op: 'delete' }]);
    expect(whole.fields).toEqual({ text: 'one two four five' });
    expect(windowed.fields).toEqual(whole.fields);
    expect(windowed.edits).toEqual(whole.edits);
  });

  it('an appended word is recorded where it lands', () => {
    const { whole } = both(text('one two'), 5, [{ wordIndex: 2, after: 'NEW', type: 't', op: 'insert' }]);
    expect(whole.fields).toEqual({ text: 'one two NEW' });
    expect(whole.edits[0]!.start).toBe(8);
    const closed = both(text('a film.'), 5, [{ wordIndex: 2, after: 'NEW', type: 't', op: 'insert' }]).whole;
    expect(closed.fields).toEqual({ text: 'a film NEW.' });
    expect(closed.edits[0]!.start).toBe(7);
  });

  it('an open head appends and deletes as the middle of a text does', () => {
    const head = WordSeq.parse('one two three. four').head(3);
    expect(head.toString()).toBe('one two three. ');
    expect(head.insert(3, 'NEW').toString()).toBe('one two three. NEW ');
    expect(head.delete(2).toString()).toBe('one two ');
    expect(head.delete(2).delete(1).delete(0).insert(0, 'X').toString()).toBe('X ');
  });
});

const VOCAB = ['a', 'film', 'good', 'nice', 'the', "isn't", 'well-made', 'ok', 'x2', 'café', 'naïve', 'Ελλάδα', '日本語', 'São'];
const GAPS = [' ', ' ', ' ', '  ', '\t', ' \t ', ', ', '. ', ' (', ') ', '—', '...', ' \n ', '\n\n', ' 🙂 ', ' « ', ' » '];
const EDGES = ['', '', ' ', '"', '.', ' .\n', '\t', '  ', '\n'];

function randomText(rng: Rng): string {
  const n = 2 + rng.int(12);
  let s = EDGES[rng.int(EDGES.length)]!;
  for (let i = 0; i < n; i++) s += VOCAB[rng.int(VOCAB.length)]! + (i + 1 < n ? GAPS[rng.int(GAPS.length)]! : '');
  return s + EDGES[rng.int(EDGES.length)]!;
}

/** A random edit inside a window of `length` words (inserting right after its last word included). */
function randomEdit(rng: Rng, length: number): WordCandidate {
  const after = rng.next() < 0.2 ? 'has grown' : VOCAB[rng.int(VOCAB.length)]!;
  const ops = length === 0 ? ['insert'] : length === 1 ? ['insert', 'replace', 'delete'] : ['insert', 'replace', 'delete', 'swap'];
  const op = ops[rng.int(ops.length)] as WordCandidate['op'];
  const wordIndex = op === 'insert' ? rng.int(length + 1) : op === 'swap' ? rng.int(length - 1) : rng.int(length);
  return { wordIndex, after, type: `t:${op}`, op };
}

describe('windowed and unwindowed attacks agree on every edit inside the window', () => {
  it.each(['text', 'pair', 'tokens'] as const)('%s: 400 random texts, windows and edit sequences', (kind) => {
    const rng = new Rng(`window-${kind}`);
    let compared = 0;
    for (let n = 0; n < 400; n++) {
      const s = randomText(rng);
      const words = WordSeq.parse(s).words;
      const example: Example =
        kind === 'text'
          ? text(s)
          : kind === 'pair'
            ? { kind: 'pair', id: 'p', textA: 'a premise.', textB: s, label: 'entailment' }
            : { kind: 'tokens', id: 'k', tokens: words.slice(), tags: words.map(() => 'O') };
      const window = 1 + rng.int(words.length - 1);
      // The edits are drawn on the window: each keeps inside what is left of it.
      const cands: WordCandidate[] = [];
      let length = window;
      for (let e = rng.int(4); e >= 0; e--) {
        const c = randomEdit(rng, length);
        cands.push(c);
        length += c.op === 'insert' ? 1 : c.op === 'delete' ? -1 : 0;
      }
      const { windowed, whole } = both(example, window, cands);
      expect(windowed.fields, `${JSON.stringify(s)} window ${window} ${JSON.stringify(cands)}`).toEqual(whole.fields);
      expect(windowed.input).toEqual(whole.input);
      expect(windowed.edits).toEqual(whole.edits);
      // No origin = no word inserted or deleted: every word where it was.
      const identity = Array.from({ length: words.length }, (_, k) => k);
      expect(windowed.origin ?? identity).toEqual(whole.origin ?? identity);
      compared++;
    }
    expect(compared).toBe(400);
  });

  it('every edit of a text is found at its recorded offset', () => {
    const rng = new Rng('offsets');
    for (let n = 0; n < 400; n++) {
      const s = randomText(rng);
      let state = initialState(WordSeq.parse(s));
      for (let e = rng.int(4); e >= 0; e--) {
        const c = randomEdit(rng, state.seq.length);
        const before = state.seq.toString();
        state = applyCandidate(state, c, 'text');
        const after = state.seq.toString();
        for (const edit of state.edits.slice(c.op === 'swap' ? -2 : -1)) {
          if (edit.after)
            expect(after.slice(edit.start, edit.start + edit.after.length), `${JSON.stringify(before)} ${JSON.stringify(c)}`).toBe(
              edit.after,
            );
          // A swap's second edit is positioned in the text after its first.
          if (edit.before && c.op !== 'swap') expect(before.slice(edit.start, edit.start + edit.before.length)).toBe(edit.before);
        }
      }
    }
  });
});

describe('an edit at each boundary position', () => {
  it('first and last word of the window, right after it and across it: the full text exact, the suffix untouched', () => {
    const rng = new Rng('boundary');
    let compared = 0;
    for (let n = 0; n < 150; n++) {
      const s = randomText(rng);
      const words = WordSeq.parse(s).words;
      for (let window = 1; window < words.length; window++) {
        const suffixStart = WordSeq.parse(s).offsetOf(window);
        const cands: WordCandidate[] = [
          { wordIndex: 0, after: 'NEW', type: 't', op: 'insert' },
          { wordIndex: 0, after: 'NEW', type: 't', op: 'replace' },
          { wordIndex: 0, after: '', type: 't', op: 'delete' },
          { wordIndex: window - 1, after: 'NEW', type: 't', op: 'insert' },
          { wordIndex: window - 1, after: 'NEW', type: 't', op: 'replace' },
          { wordIndex: window - 1, after: '', type: 't', op: 'delete' },
          { wordIndex: window, after: 'NEW', type: 't', op: 'insert' },
          ...(window >= 2 ? [{ wordIndex: window - 2, after: '', type: 't', op: 'swap' } as const] : []),
        ];
        for (const c of cands) {
          const { windowed, whole } = both(text(s), window, [c]);
          const label = `${JSON.stringify(s)} window ${window} ${JSON.stringify(c)}`;
          expect(windowed.fields, label).toEqual(whole.fields);
          expect(windowed.edits, label).toEqual(whole.edits);
          // Everything after the window's last gap is byte for byte the original's.
          const out = windowed.fields.text as string;
          expect(out.endsWith(s.slice(suffixStart)), label).toBe(true);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('an entity across the window boundary', () => {
  it('nothing may be inserted at the end of the window, even after an earlier insertion', () => {
    const example: Example = {
      kind: 'tokens',
      id: 'n',
      tokens: ['we', 'met', 'John', 'Smith', 'today'],
      tags: ['O', 'O', 'B-PER', 'I-PER', 'O'],
    };
    const subject = makeSubject(example, { window: 3 });
    const zone = editZone();
    const atEnd = (state: AttackState): WordCandidate => ({ wordIndex: state.seq.length, after: 'X', type: 't', op: 'insert' });
    const start = initialState(subject.original);
    expect(zone.allows!(start, atEnd(start), subject)).toBe(false);
    const moved = applyCandidate(start, { wordIndex: 0, after: 'so', type: 't', op: 'insert' }, 'tokens');
    expect(zone.allows!(moved, atEnd(moved), subject)).toBe(false);
    expect(zone.allows!(moved, { wordIndex: 1, after: 'X', type: 't', op: 'insert' }, subject)).toBe(true);
  });
});
