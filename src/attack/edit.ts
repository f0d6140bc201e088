/**
 * One change made to an example's text, typed and positioned so reports can highlight and label it.
 * Positions refer to the text the edit was applied to (edits apply in order).
 */
export interface Edit {
  /** Family-qualified type, e.g. "typo:swap", "noise:middle-random", "grammar:Prep". */
  type: string;
  /** Which field of the example changed: "text", "textA", "textB", "question", "context", "tokens". */
  field: string;
  /** Index of the word (token) changed. */
  wordIndex: number;
  /** Character offset of the changed word in the field's text before this edit. */
  start: number;
  before: string;
  after: string;
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
}
