/**
 * A text as words and the gaps between them, so that words can be replaced, inserted or deleted while
 * every other character (spacing, punctuation) stays exactly as it was.
 * Invariant: text = gaps[0] + words[0] + gaps[1] + … + words[n-1] + gaps[n].
 */
const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu;

export class WordSeq {
  readonly words: readonly string[];
  readonly gaps: readonly string[];

  constructor(words: readonly string[], gaps: readonly string[]) {
    if (gaps.length !== words.length + 1) {
      throw new Error(`WordSeq needs ${words.length + 1} gaps for ${words.length} words, got ${gaps.length}`);
    }
    this.words = words;
    this.gaps = gaps;
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

  /** Character offset of word i in toString(). */
  offsetOf(i: number): number {
    let pos = this.gaps[0]!.length;
    for (let j = 0; j < i; j++) pos += this.words[j]!.length + this.gaps[j + 1]!.length;
    return pos;
  }

  replace(i: number, word: string): WordSeq {
    const words = this.words.slice();
    words[i] = word;
    return new WordSeq(words, this.gaps);
  }

  /** Removes word i and the gap after it (or before it, for the last word), keeping outer spacing. */
  delete(i: number): WordSeq {
    const words = this.words.slice();
    const gaps = this.gaps.slice();
    words.splice(i, 1);
    if (i + 1 < gaps.length - 1) gaps.splice(i + 1, 1);
    else gaps.splice(i, 1);
    return new WordSeq(words, gaps);
  }

  /** Inserts a word before position i (i = length appends), separated by a single space. */
  insert(i: number, word: string): WordSeq {
    const words = this.words.slice();
    const gaps = this.gaps.slice();
    words.splice(i, 0, word);
    if (this.words.length === 0) gaps.push('');
    else if (i === this.words.length) gaps.splice(i, 0, ' ');
    else gaps.splice(i + 1, 0, ' ');
    return new WordSeq(words, gaps);
  }
}
