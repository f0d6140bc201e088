/**
 * Capitalisation patterns. Perturbations of lower-case, Title-case and UPPER-case words are computed
 * on the lower-case form and the pattern is put back afterwards ("The" → swap → "Hte", not "hTe";
 * "USA" → "UAS"). Mixed-case words ("iPhone", "McDonald") are perturbed in place, character by
 * character, each new letter taking the case of the letter it replaces or follows.
 */
export type CaseShape = 'lower' | 'upper' | 'title' | 'mixed';

let lastWord = '';
let lastShape: CaseShape = 'lower';

/** The word's capitalisation pattern (the last answer is memoised: sources are called in a row on one word). */
export function caseShape(word: string): CaseShape {
  if (word === lastWord) return lastShape;
  const shape = computeShape(word);
  lastWord = word;
  lastShape = shape;
  return shape;
}

function computeShape(word: string): CaseShape {
  const lower = word.toLowerCase();
  if (lower === word) return 'lower'; // also words with no cased letters (digits, CJK…)
  if (lower.length !== word.length) return 'mixed';
  const first = firstLen(word);
  if (word === word.toUpperCase()) return word.length === first ? 'title' : 'upper';
  if (word.slice(first) === lower.slice(first)) return 'title';
  return 'mixed';
}

/** The lower-case form a non-mixed word is perturbed in; mixed words are perturbed as they are. */
export function caseBase(word: string, shape: CaseShape): string {
  return shape === 'mixed' || shape === 'lower' ? word : word.toLowerCase();
}

/** Puts a lower/title/upper pattern back on a lower-case string; mixed leaves it as it is. */
export function applyShape(s: string, shape: CaseShape): string {
  switch (shape) {
    case 'upper':
      return s.toUpperCase();
    case 'title':
      return capitalise(s);
    default:
      return s;
  }
}

/**
 * Puts the capitalisation of `original` on `s`, a lower-case replacement word of any length
 * (replace-word, natural noise). Mixed-case originals are copied letter by letter when the lengths
 * match, else only a capital first letter is kept.
 */
export function shapeLike(s: string, original: string, shape: CaseShape = caseShape(original)): string {
  if (shape !== 'mixed') return applyShape(s, shape);
  if (s.length === original.length) {
    let out = '';
    for (let i = 0; i < s.length; i++) out += isUpper(original[i]!) ? s[i]!.toUpperCase() : s[i]!;
    return out;
  }
  return isUpper(original.slice(0, firstLen(original))) ? capitalise(s) : s;
}

/** `ch` in upper case when `ref` is an upper-case letter. */
export function matchCase(ch: string, ref: string | undefined): string {
  return ref !== undefined && isUpper(ref) ? ch.toUpperCase() : ch;
}

export function isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase();
}

export function capitalise(s: string): string {
  const n = firstLen(s);
  return s.slice(0, n).toUpperCase() + s.slice(n);
}

function firstLen(s: string): number {
  const c = s.charCodeAt(0);
  return c >= 0xd800 && c <= 0xdbff && s.length > 1 ? 2 : 1;
}
