/**
 * Belinkov & Bisk (2018) synthetic noise, as used in Naik et al.'s (2018) NLI stress tests. Each
 * function turns one word into its noisy form (or returns it unchanged when the noise cannot apply).
 *
 * Shared choices:
 *  - Apostrophes and hyphens stay where they are ("don't" keeps its apostrophe in place), so a noisy
 *    word is still one WordSeq word; only letters and digits move.
 *  - When a change is possible the result differs from the input: swap picks among pairs of
 *    different letters, the shuffles redraw (a uniform draw among the non-identity arrangements).
 *  - Capitalisation as in case.ts: "Hello" shuffles to "Lhelo", not "lHelo".
 */
import type { Rng } from '../../util/rng.ts';
import { applyShape, caseBase, caseShape, matchCase, shapeLike } from '../case.ts';
import { Chars, isJoiner } from '../chars.ts';
import { letterNeighbours } from '../keyboard.ts';
import { misspellingsOf } from '../misspellings.ts';

/** The Belinkov & Bisk noise types. */
export const NOISE_TYPES = ['swap', 'middle-random', 'fully-random', 'keyboard', 'natural'] as const;
/** One of {@link NOISE_TYPES}. */
export type NoiseType = (typeof NOISE_TYPES)[number];
/** Turns one word into its noisy form, or returns it unchanged when the noise cannot apply. */
export type NoiseFn = (word: string, rng: Rng) => string;

/** "swap": exchange one random pair of adjacent interior letters (words of ≥ 4 characters): noise → nosie. */
export function swapNoise(word: string, rng: Rng): string {
  const shape = caseShape(word);
  const cs = new Chars(caseBase(word, shape));
  const n = cs.length;
  if (n < 4) return word;
  const options: number[] = [];
  for (let i = 1; i + 2 < n; i++) {
    const a = cs.cs[i]!;
    const b = cs.cs[i + 1]!;
    if (a !== b && !isJoiner(a) && !isJoiner(b)) options.push(i);
  }
  if (options.length === 0) return word;
  const i = rng.pick(options);
  return applyShape(cs.splice(i, i + 2, cs.cs[i + 1]! + cs.cs[i]!), shape);
}

/** "middle-random": shuffle all letters but the first and the last (words of ≥ 4 characters): noise → nsioe. */
export function middleRandomNoise(word: string, rng: Rng): string {
  return shuffleNoise(word, rng, 4, 1);
}

/** "fully-random": shuffle all letters (words of ≥ 2 characters): noise → esoin. */
export function fullyRandomNoise(word: string, rng: Rng): string {
  return shuffleNoise(word, rng, 2, 0);
}

/**
 * "keyboard": replace one random letter by a letter key next to it on a QWERTY keyboard, keeping its
 * case: noise → noiwe. Only letters are replaced and only by letters (no digits).
 */
export function keyboardNoise(word: string, rng: Rng): string {
  const cs = new Chars(word);
  const options: number[] = [];
  for (let i = 0; i < cs.length; i++) {
    const c = cs.cs[i]!.toLowerCase();
    if (c.length === 1 && c >= 'a' && c <= 'z') options.push(i); // QWERTY letters; digits and other scripts stay
  }
  if (options.length === 0) return word;
  const i = rng.pick(options);
  const c = cs.cs[i]!;
  return cs.splice(i, i + 1, matchCase(rng.pick(letterNeighbours(c.toLowerCase())), c));
}

/**
 * "natural": replace the word by a misspelling people really make (misspellings.ts), picked at
 * random among all those listed for it, with the word's capitalisation; unchanged when none is
 * listed: because → becuase.
 */
export function naturalNoise(word: string, rng: Rng): string {
  const list = misspellingsOf(word);
  if (list.length === 0) return word;
  return shapeLike(rng.pick(list), word);
}

/** The noise function of each noise type. */
export const NOISE_FUNCTIONS: Readonly<Record<NoiseType, NoiseFn>> = {
  swap: swapNoise,
  'middle-random': middleRandomNoise,
  'fully-random': fullyRandomNoise,
  keyboard: keyboardNoise,
  natural: naturalNoise,
};

/** Whether a string names a noise type. */
export function isNoiseType(name: string): name is NoiseType {
  return (NOISE_TYPES as readonly string[]).includes(name);
}

/** Shuffles the non-joiner characters of [keep, n - keep) until the word changes. */
function shuffleNoise(word: string, rng: Rng, minChars: number, keep: number): string {
  const shape = caseShape(word);
  const cs = new Chars(caseBase(word, shape));
  const n = cs.length;
  if (n < minChars) return word;
  const at: number[] = [];
  for (let i = keep; i < n - keep; i++) if (!isJoiner(cs.cs[i]!)) at.push(i);
  const values = at.map((i) => cs.cs[i]!);
  const other = values.findIndex((v) => v !== values[0]);
  if (other < 0) return word; // nothing to rearrange: too short, or all the same letter
  let order = values;
  for (let tries = 0; tries < 32 && order === values; tries++) {
    const s = rng.shuffle(values);
    if (s.some((v, k) => v !== values[k])) order = s;
  }
  if (order === values) {
    // Astronomically unlikely (< 2^-32); keep the promise of a change deterministically.
    order = values.slice();
    [order[0], order[other]] = [values[other]!, values[0]!];
  }
  const out = cs.cs.slice();
  for (let k = 0; k < at.length; k++) out[at[k]!] = order[k]!;
  return applyShape(out.join(''), shape);
}
