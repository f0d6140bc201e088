/**
 * US QWERTY layout as data, and key adjacency derived from it once at load time.
 *
 * Keys are placed on a grid in key widths: each row's first key sits at ROW_X (the digit row starts
 * with the backtick at 0; Tab is 1.5 keys wide, Caps Lock 1.75, left Shift 2.25). Two keys are
 * neighbours when they are next to each other in a row, or in the row directly above/below with
 * centres less than one key width apart horizontally. That gives the usual picture: o ~ i p 9 0 k l,
 * a ~ s q w z, m ~ n , j k.
 */
export const QWERTY_ROWS: readonly string[] = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
/** The same keys with Shift held. */
export const QWERTY_SHIFTED_ROWS: readonly string[] = ['~!@#$%^&*()_+', 'QWERTYUIOP{}|', 'ASDFGHJKL:"', 'ZXCVBNM<>?'];
/** Horizontal position of each row's first key, in key widths. */
export const QWERTY_ROW_X: readonly number[] = [0, 1.5, 1.75, 2.25];

interface Key {
  plain: string;
  shifted: string;
}

/** Physical neighbours of each key, keyed by its unshifted character; order: left, right, row above, row below. */
const NEIGHBOUR_KEYS = new Map<string, Key[]>();

for (let r = 0; r < QWERTY_ROWS.length; r++) {
  const row = QWERTY_ROWS[r]!;
  for (let i = 0; i < row.length; i++) {
    const x = QWERTY_ROW_X[r]! + i;
    const keys: Key[] = [];
    const add = (rr: number, j: number) => keys.push({ plain: QWERTY_ROWS[rr]![j]!, shifted: QWERTY_SHIFTED_ROWS[rr]![j]! });
    if (i > 0) add(r, i - 1);
    if (i + 1 < row.length) add(r, i + 1);
    for (const rr of [r - 1, r + 1]) {
      if (rr < 0 || rr >= QWERTY_ROWS.length) continue;
      const other = QWERTY_ROWS[rr]!;
      for (let j = 0; j < other.length; j++) {
        if (Math.abs(QWERTY_ROW_X[rr]! + j - x) < 1) add(rr, j);
      }
    }
    NEIGHBOUR_KEYS.set(row[i]!, keys);
  }
}

const isLetterKey = (k: Key) => k.plain >= 'a' && k.plain <= 'z';
const isDigitKey = (k: Key) => k.plain >= '0' && k.plain <= '9';

const EMPTY: readonly string[] = [];
/** One cache per (digits, symbols, shifted) combination. */
const caches: Map<string, readonly string[]>[] = Array.from({ length: 8 }, () => new Map());

/**
 * Characters a finger meant for `ch` (a lower-case letter, digit or unshifted symbol) may hit instead.
 * Letters come back in lower case (callers restore case). Digit-row keys give their digit when
 * `digits` (default true); with `symbols`, punctuation keys are included too, at Shift level when
 * `shifted` (the intended character was upper case: O → ")" besides "0"). Unknown characters have none.
 */
export function keyNeighbours(ch: string, opts: { digits?: boolean; symbols?: boolean; shifted?: boolean } = {}): readonly string[] {
  return neighboursOf(ch, opts.digits ?? true, opts.symbols ?? false, opts.shifted ?? false);
}

/** keyNeighbours with positional flags (hot path: no options object). */
export function neighboursOf(ch: string, digits: boolean, symbols: boolean, shifted: boolean): readonly string[] {
  shifted = shifted && symbols;
  const cache = caches[(digits ? 1 : 0) | (symbols ? 2 : 0) | (shifted ? 4 : 0)]!;
  const hit = cache.get(ch);
  if (hit) return hit;
  const keys = NEIGHBOUR_KEYS.get(ch);
  if (!keys) return EMPTY;
  const out: string[] = [];
  for (const k of keys) {
    if (isLetterKey(k)) out.push(k.plain);
    else if (isDigitKey(k)) {
      if (digits) out.push(k.plain);
      if (shifted) out.push(k.shifted);
    } else if (symbols) out.push(shifted ? k.shifted : k.plain);
  }
  cache.set(ch, out);
  return out;
}

const letterCache = new Map<string, readonly string[]>();

/** Letter keys next to `ch` (lower case), e.g. "h" → g j y u b n. */
export function letterNeighbours(ch: string): readonly string[] {
  const hit = letterCache.get(ch);
  if (hit) return hit;
  const keys = NEIGHBOUR_KEYS.get(ch);
  const out = keys ? keys.filter(isLetterKey).map((k) => k.plain) : [];
  letterCache.set(ch, out);
  return out;
}
