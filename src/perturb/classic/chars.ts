/**
 * The four character edits of DeepWordBug (Gao et al. 2018), as TextAttack's word swaps make them
 * (WordSwapNeighboringCharacterSwap, …RandomCharacterSubstitution, …Deletion, …Insertion with random_one=True):
 * each proposes ONE edit of the word at a seeded random position; a word of one character gets none, and an edit
 * that leaves the word as it was (swapping "ee") is no candidate. TextBugger's character edits are the same
 * operations with the first and last character kept (`skipFirst`, `skipLast`) and a space as the inserted "letter".
 */
import type { Rng } from '../../util/rng.ts';

/** Letters inserted and substituted by default: Python's string.ascii_letters, as TextAttack. */
export const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Where an edit may fall, and what it may put in. */
export interface CharEditOptions {
  /** Never edit (or insert before) the first character. */
  skipFirst?: boolean;
  /** Never edit the last character (insertion: never insert before it). */
  skipLast?: boolean;
  /** Characters to insert or substitute, drawn uniformly (default ASCII_LETTERS). */
  letters?: string;
}

/** The DeepWordBug operations, in the order TextAttack's recipe composes them. */
export const CHAR_EDITS = ['swap', 'substitute', 'delete', 'insert'] as const;
/** One of {@link CHAR_EDITS}. */
export type CharEdit = (typeof CHAR_EDITS)[number];

const letter = (rng: Rng, opts: CharEditOptions): string => {
  const letters = Array.from(opts.letters ?? ASCII_LETTERS);
  return letters[rng.int(letters.length)]!;
};

/**
 * One edit of `word` (code points, so an emoji or accented letter is one character), or null when the word has
 * no room for it. Draws the position first, then the letter, as TextAttack does.
 */
export function charEdit(op: CharEdit, word: string, rng: Rng, opts: CharEditOptions = {}): string | null {
  const cs = Array.from(word);
  const n = cs.length;
  if (n <= 1) return null;
  const start = opts.skipFirst ? 1 : 0;
  let out: string[];
  switch (op) {
    case 'swap': {
      // Pairs (i, i + 1) for i in [start, end).
      const end = opts.skipLast ? n - 2 : n - 1;
      if (start >= end) return null;
      const i = start + rng.int(end - start);
      out = [...cs.slice(0, i), cs[i + 1]!, cs[i]!, ...cs.slice(i + 2)];
      break;
    }
    case 'substitute': {
      // TextAttack's substitution has no skip options: any position.
      const i = rng.int(n);
      out = [...cs.slice(0, i), letter(rng, opts), ...cs.slice(i + 1)];
      break;
    }
    case 'delete':
    case 'insert': {
      const end = opts.skipLast ? n - 1 : n;
      if (start >= end) return null;
      const i = start + rng.int(end - start);
      out = op === 'delete' ? [...cs.slice(0, i), ...cs.slice(i + 1)] : [...cs.slice(0, i), letter(rng, opts), ...cs.slice(i)];
      break;
    }
  }
  const edited = out.join('');
  return edited === word ? null : edited;
}
