/** A word: a run of letters/digits, with inner apostrophes or hyphens (global: matchAll works on a copy). */
export const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/**
 * A text as words and the gaps between them, so that words can be replaced, inserted or deleted while
 * every other character (spacing, punctuation) stays exactly as it was.
 * Invariant: text = gaps[0] + words[0] + gaps[1] + … + words[n-1] + gaps[n].
 */
export class WordSeq {
  readonly words: readonly string[];
  readonly gaps: readonly string[];
  /**
   * More text follows the last gap (the head of a text cut after N words): the last gap then separates the last
   * word from the next one, so appending and deleting the last word do what they do in the middle of a text, and
   * head + rest reads exactly as the whole text edited the same way.
   */
  readonly openEnd: boolean;

  constructor(words: readonly string[], gaps: readonly string[], openEnd = false) {
    if (gaps.length !== words.length + 1) {
      throw new Error(`WordSeq needs ${words.length + 1} gaps for ${words.length} words, got ${gaps.length}`);
    }
    this.words = words;
    this.gaps = gaps;
    this.openEnd = openEnd;
  }

  /** Words are runs of letters/digits (with inner apostrophes or hyphens); punctuation stays in gaps. */
  static parse(text: string): WordSeq {
    const words: string[] = [];
    const gaps: string[] = [];
    let last = 0;
    for (const m of text.matchAll(WORD)) {
      gaps.push(text.slice(last, m.index));
      words.push(m[0]);
      last = m.index + m[0].length;
    }
    gaps.push(text.slice(last));
    return new WordSeq(words, gaps);
  }

  /** Pre-split tokens (NER) joined by single spaces. */
  static fromTokens(tokens: readonly string[]): WordSeq {
    const gaps = tokens.length === 0 ? [''] : ['', ...tokens.slice(1).map(() => ' '), ''];
    return new WordSeq(tokens.slice(), gaps);
  }

  get length(): number {
    return this.words.length;
  }

  toString(): string {
    let out = this.gaps[0]!;
    for (let i = 0; i < this.words.length; i++) out += this.words[i]! + this.gaps[i + 1]!;
    return out;
  }

  /** The first n words, open at the end: what follows them is the rest of the text. */
  head(n: number): WordSeq {
    return new WordSeq(this.words.slice(0, n), this.gaps.slice(0, n + 1), true);
  }

  /** Character offset of word i in toString() (i = length: where the text after the last word starts). */
  offsetOf(i: number): number {
    let pos = this.gaps[0]!.length;
    for (let j = 0; j < i; j++) pos += this.words[j]!.length + this.gaps[j + 1]!.length;
    return pos;
  }

  replace(i: number, word: string): WordSeq {
    const words = this.words.slice();
    words[i] = word;
    return new WordSeq(words, this.gaps, this.openEnd);
  }

  /**
   * Words i … i + n − 1 and the gaps between them become the one text `text` (which may hold several words: "do
   * not" for "don't", or one: "don't" for "do not"); the gaps before and after the span stay.
   */
  replaceSpan(i: number, n: number, text: string): WordSeq {
    if (n === 1) return this.replace(i, text);
    if (n < 1 || i < 0 || i + n > this.words.length) throw new RangeError(`replaceSpan(${i}, ${n}) outside ${this.words.length} words`);
    const words = [...this.words.slice(0, i), text, ...this.words.slice(i + n)];
    const gaps = [...this.gaps.slice(0, i + 1), ...this.gaps.slice(i + n)];
    return new WordSeq(words, gaps, this.openEnd);
  }

  /** The same gaps around other words (one per word). */
  withWords(words: readonly string[]): WordSeq {
    return new WordSeq(words, this.gaps, this.openEnd);
  }

  /**
   * Removes word i and the gap after it, keeping outer spacing; the last word of a closed text takes the gap
   * before it instead, so the text keeps its final punctuation.
   */
  delete(i: number): WordSeq {
    const words = this.words.slice();
    const gaps = this.gaps.slice();
    words.splice(i, 1);
    if (this.openEnd || i + 1 < gaps.length - 1) gaps.splice(i + 1, 1);
    else gaps.splice(i, 1);
    return new WordSeq(words, gaps, this.openEnd);
  }

  /**
   * Inserts a word before position i, after the gap that precedes that word and followed by a single space.
   * Appending (i = length) to a closed text puts the word before the final gap ("film indeed ."); an open one
   * appends as before a following word.
   */
  insert(i: number, word: string): WordSeq {
    const words = this.words.slice();
    const gaps = this.gaps.slice();
    words.splice(i, 0, word);
    if (this.openEnd) gaps.splice(i + 1, 0, ' ');
    else if (this.words.length === 0) gaps.push('');
    else if (i === this.words.length) gaps.splice(i, 0, ' ');
    else gaps.splice(i + 1, 0, ' ');
    return new WordSeq(words, gaps, this.openEnd);
  }
}
