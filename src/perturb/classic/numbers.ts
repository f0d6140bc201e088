/**
 * CheckList's number edits (Ribeiro et al. 2020, as TextAttack's WordSwapChangeNumber makes them): a number written
 * in digits becomes other numbers in digits, one written in words other numbers in words (number-to-words, MIT).
 * English number words are read by a small parser of ours (integers: "twenty-five", "one hundred and five",
 * "three thousand"), checked against number-to-words' spelling of the value.
 */
import numberToWords from 'number-to-words';
import type { Rng } from '../../util/rng.ts';

// zero … nineteen, and twenty … ninety by tens, as number-to-words spells them.
const UNITS = Array.from({ length: 20 }, (_, i) => numberToWords.toWords(i));
const TENS = Array.from({ length: 10 }, (_, i) => (i < 2 ? '' : numberToWords.toWords(10 * i)));
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const VALUE = new Map<string, number>([
  ...UNITS.map((w, i) => [w, i] as const),
  ...TENS.flatMap((w, i) => (w ? [[w, 10 * i] as const] : [])),
]);

/** Is this word (lower case; hyphenated compounds split) part of a number written in words? "and" only between them. */
export function isNumberWord(word: string): boolean {
  return word
    .toLowerCase()
    .split('-')
    .every((p) => VALUE.has(p) || p === 'hundred' || p in SCALES);
}

/** The integer a run of number words spells ("twenty-five", "one hundred and five"), or undefined when it is not one. */
export function parseNumberWords(words: readonly string[]): number | undefined {
  const parts = words.flatMap((w) => w.toLowerCase().split('-')).filter((p) => p !== 'and');
  if (parts.length === 0) return undefined;
  let total = 0;
  let group = 0;
  let seen = false;
  for (const p of parts) {
    const v = VALUE.get(p);
    if (v !== undefined) {
      group += v;
      seen = true;
    } else if (p === 'hundred') {
      if (!seen) return undefined;
      group *= 100;
    } else if (p in SCALES) {
      if (!seen) return undefined;
      total += group * SCALES[p]!;
      group = 0;
    } else return undefined;
  }
  return total + group;
}

/** A number in words as number-to-words writes it ("twenty-five", "one hundred five"). */
export function numberInWords(n: number): string {
  return numberToWords.toWords(n);
}

/**
 * TextAttack's _alter_number: `n` draws from [max(x − c, 1), x + c) with c = |⌊x · maxChange⌋| + 1; none for 0, 2
 * and 4 (CheckList leaves "2 me", "4 you" alone) nor for negative numbers (TextAttack reads digits only).
 */
export function alterNumber(x: number, rng: Rng, n = 3, maxChange = 1): number[] {
  if (x === 0 || x === 2 || x === 4 || x < 0 || !Number.isSafeInteger(x)) return [];
  const change = Math.abs(Math.trunc(x * maxChange)) + 1;
  const low = Math.max(x - change, 1);
  const high = x + change;
  return Array.from({ length: n }, () => low + rng.int(high - low));
}
