/**
 * One change made to an example's text, typed and positioned so reports can highlight and label it.
 * Positions refer to the text the edit was applied to (edits apply in order).
 *
 * An edit may span several words: a sentence appended to a hypothesis ("and true is true"), a distractor
 * sentence inserted into a QA context, or one mention of a name replaced by a two-word name. Edits that
 * belong together (every mention of one name replaced the same way) share a `group`.
 */
export interface Edit {
  /** Family-qualified type, e.g. "typo:swap", "noise:middle-random", "grammar:Prep", "entity:PER". */
  type: string;
  /** Which field of the example changed: "text", "textA", "textB", "question", "context", "tokens". */
  field: string;
  /** Index of the (first) word or token changed; for an insertion, the word it was put before. */
  wordIndex: number;
  /** Character offset of the changed text in the field's text before this edit. */
  start: number;
  /** The text replaced ('' for an insertion); may hold several words. */
  before: string;
  /** The new text ('' for a deletion); may hold several words. */
  after: string;
  /** Edits made together as one change (e.g. every mention of one name), sharing this id. */
  group?: string;
}

/** A candidate word-level change proposed by a transformation, before the model has seen it. */
export interface WordCandidate {
  wordIndex: number;
  /** The new word (replace, insert); ignored for delete. */
  after: string;
  type: string;
  /**
   * Default "replace". "insert" puts `after` before word `wordIndex`; "delete" removes the word; "swap"
   * exchanges words `wordIndex` and `wordIndex + 1` (word-order errors) and is recorded as two replace
   * edits, since two words change.
   */
  op?: 'replace' | 'insert' | 'delete' | 'swap';
  /**
   * replace only: how many words, from `wordIndex` on, `after` replaces (default 1). CheckList's edits change
   * the number of words: "do not" → "don't" (span 2), "New York" → "Paris" (span 2); "don't" → "do not" is span 1
   * with a two-word `after`. The replaced span becomes one word position.
   */
  span?: number;
}

/**
 * Whether each edit followed a space in the text it was made in (false at the text's start and after any other
 * character): edits apply in order, each at its `start` in its field as the edits before it left it. `fields` are
 * the fields before any edit, a token list standing for its tokens joined by single spaces. Byte-level BPE and
 * SentencePiece encode that space into the word's first piece (`Ġoften`, `▁often`), so the pieces the model saw of an
 * edited word are those of the word with the space before it.
 */
export function spaceBefore(fields: Readonly<Record<string, string | readonly string[]>>, edits: readonly Edit[]): boolean[] {
  // Edits left to right (the usual case) are followed without rebuilding the text: per field, how much of the
  // original the edited text has taken in, its length and its last character. An edit before an earlier one falls
  // back to rebuilding that field's text (was every edit: quadratic, minutes on a 600,000-character text).
  const cursors = new Map<string, Cursor>();
  return edits.map((e) => {
    let c = cursors.get(e.field);
    if (!c) {
      const raw = fields[e.field];
      c = { original: typeof raw === 'string' ? raw : (raw ?? []).join(' '), taken: 0, length: 0, last: undefined };
      cursors.set(e.field, c);
    }
    if (c.text === undefined && e.start < c.length) c.text = c.last === undefined ? c.original : materialise(c);
    if (c.text !== undefined) {
      const spaced = e.start > 0 && c.text[e.start - 1] === ' ';
      c.text = c.text.slice(0, e.start) + e.after + c.text.slice(e.start + e.before.length);
      return spaced;
    }
    const gap = e.start - c.length;
    const before = gap > 0 ? c.original[c.taken + gap - 1] : c.last;
    c.pieces ??= [];
    c.pieces.push(c.original.slice(c.taken, c.taken + gap), e.after);
    c.taken += gap + e.before.length;
    c.length = e.start + e.after.length;
    c.last = e.after.length > 0 ? e.after[e.after.length - 1] : before;
    return e.start > 0 && before === ' ';
  });
}

/** A field's text as spaceBefore follows it: see there. */
interface Cursor {
  original: string;
  /** Characters of the original taken in (copied or replaced) so far. */
  taken: number;
  /** Length of the edited text up to there. */
  length: number;
  /** Its last character; undefined while nothing is taken in. */
  last: string | undefined;
  /** The edited text up to there, in pieces (only read when an edit goes back). */
  pieces?: string[];
  /** The whole edited text, once an edit went back. */
  text?: string;
}

function materialise(c: Cursor): string {
  return (c.pieces ?? []).join('') + c.original.slice(c.taken);
}
