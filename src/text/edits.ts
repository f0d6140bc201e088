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
  const texts = new Map<string, string>();
  return edits.map((e) => {
    const raw = fields[e.field];
    let text = texts.get(e.field) ?? (typeof raw === 'string' ? raw : (raw ?? []).join(' '));
    const spaced = e.start > 0 && text[e.start - 1] === ' ';
    text = text.slice(0, e.start) + e.after + text.slice(e.start + e.before.length);
    texts.set(e.field, text);
    return spaced;
  });
}
