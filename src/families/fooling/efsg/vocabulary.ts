/**
 * D_task of EFSG (Di Giovanni & Brambilla): the word distribution of a task's training texts. Words are the
 * whitespace-separated tokens with punctuation stripped from their edges (tokens that are only punctuation are
 * dropped); case is kept as the data has it. Draws are proportional to frequency (cumulative counts + binary search).
 */
import type { Rng } from '../../../util/rng.ts';

/** Word types by descending count (ties: code-point order), with cumulative counts for drawing. */
export interface Vocabulary {
  words: string[];
  counts: number[];
  /** cumulative[i] = counts[0] + … + counts[i]. */
  cumulative: number[];
  /** Tokens counted (= the last cumulative count). */
  total: number;
}

const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** The words of a text as D_task counts them. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(/\s+/)) {
    const word = token.replace(EDGE_PUNCTUATION, '');
    if (word !== '') out.push(word);
  }
  return out;
}

/** Counts the words of every text; a stable order makes draws reproducible from the seed alone. */
export function buildVocabulary(texts: Iterable<string>): Vocabulary {
  const counts = new Map<string, number>();
  for (const text of texts) for (const w of wordsOf(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const entries = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const cumulative: number[] = [];
  let total = 0;
  for (const [, c] of entries) cumulative.push((total += c));
  return { words: entries.map((e) => e[0]), counts: entries.map((e) => e[1]), cumulative, total };
}

/** Index of the first cumulative count above r (r uniform in [0, total)). */
export function drawIndex(cumulative: readonly number[], total: number, rng: Rng): number {
  const r = rng.next() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** One word drawn from D_task. */
export function drawWord(vocab: Vocabulary, rng: Rng): string {
  return vocab.words[drawIndex(vocab.cumulative, vocab.total, rng)]!;
}
