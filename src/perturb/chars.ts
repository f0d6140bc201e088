/**
 * Character-level helpers shared by the typo sources and the noise functions: a word as a list of
 * characters (code points, so astral-plane letters are never split), splicing, joiner checks, and
 * the seeded candidate sampler.
 */
import type { Rng } from '../util/rng.ts';

/** Apostrophes and hyphens: the characters WordSeq allows inside a word, between letters/digits. */
export function isJoiner(ch: string): boolean {
  return ch === "'" || ch === '’' || ch === '-';
}

/** A word split into code points, with cheap splicing back into a string. */
export class Chars {
  readonly text: string;
  readonly cs: string[];
  /** Code-unit offset of each code point (plus the end), or null when every code point is one unit. */
  private readonly offs: number[] | null;
  /** True when the word contains an apostrophe or hyphen (results then need validating). */
  readonly hasJoiner: boolean;

  constructor(text: string) {
    this.text = text;
    let astral = false;
    let joiner = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) astral = true;
      else if (c === 39 || c === 45 || c === 0x2019) joiner = true;
    }
    this.hasJoiner = joiner;
    if (astral) {
      this.cs = Array.from(text);
      const offs = new Array<number>(this.cs.length + 1);
      let o = 0;
      for (let i = 0; i < this.cs.length; i++) {
        offs[i] = o;
        o += this.cs[i]!.length;
      }
      offs[this.cs.length] = o;
      this.offs = offs;
    } else {
      this.cs = text.split('');
      this.offs = null;
    }
  }

  get length(): number {
    return this.cs.length;
  }

  /** The text with code points [from, to) replaced by `r`. */
  splice(from: number, to: number, r: string): string {
    const a = this.offs ? this.offs[from]! : from;
    const b = this.offs ? this.offs[to]! : to;
    return this.text.slice(0, a) + r + this.text.slice(b);
  }
}

let lastChars: Chars | undefined;

/** new Chars(text), memoised for the last text (sources are called in a row on one word). */
export function charsOf(text: string): Chars {
  if (lastChars === undefined || lastChars.text !== text) lastChars = new Chars(text);
  return lastChars;
}

/** Number of code points. */
export function charLength(word: string): number {
  let n = word.length;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--; // low surrogate: second half of a pair
  }
  return n;
}

/**
 * Would WordSeq.parse read `s` back as one word? For strings made from a word's own letters, digits
 * and joiners that means: no joiner at either end and no two joiners in a row.
 */
export function isSingleToken(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (isJoiner(s[0]!) || isJoiner(s[n - 1]!)) return false;
  for (let i = 1; i < n; i++) if (isJoiner(s[i]!) && isJoiner(s[i - 1]!)) return false;
  return true;
}

let scratch = new Int32Array(64);

/**
 * The candidate sampler behind every typo source. Ops 0…total-1 each build one candidate (or null)
 * with `build(ctx, op)`. When total ≤ max every op is built, in op order, and the rng is not touched.
 * Otherwise ops are drawn without replacement with the rng (a lazy Fisher–Yates) until `max`
 * distinct candidates are found or the ops run out; the result is returned in op order (e.g. by
 * position in the word), so the same rng state always gives the same list. `exclude` (the original
 * word) and duplicates never appear; with `singleToken`, neither do strings WordSeq would split.
 * `distinct` promises that different ops always build different strings (skips the duplicate check).
 *
 * (build takes a context argument rather than being a closure so that hot paths allocate no
 * functions per word.)
 */
export function collect<C>(
  total: number,
  max: number,
  rng: Rng,
  exclude: string,
  build: (ctx: C, op: number) => string | null,
  ctx: C,
  singleToken = false,
  distinct = false,
): string[] {
  const out: string[] = [];
  if (total <= 0 || !(max > 0)) return out;
  // Small lists dedupe by scanning; big ones (maxCandidates: Infinity on long words) use a Set.
  const set = !distinct && total > 48 && max > 48 ? new Set<string>() : null;
  const scan = !distinct && set === null;
  if (total <= max) {
    for (let op = 0; op < total; op++) {
      const s = build(ctx, op);
      if (s === null || s === exclude || (singleToken && !isSingleToken(s))) continue;
      if (set) {
        if (set.has(s)) continue;
        set.add(s);
      } else if (scan && out.includes(s)) continue;
      out.push(s);
    }
    return out;
  }
  if (scratch.length < total) scratch = new Int32Array(Math.max(total, scratch.length * 2));
  const perm = scratch;
  for (let i = 0; i < total; i++) perm[i] = i;
  const ops: number[] = [];
  for (let i = 0; i < total && ops.length < max; i++) {
    const j = i + rng.int(total - i);
    const op = perm[j]!;
    perm[j] = perm[i]!;
    perm[i] = op;
    const s = build(ctx, op);
    if (s === null || s === exclude || (singleToken && !isSingleToken(s))) continue;
    if (set) {
      if (set.has(s)) continue;
      set.add(s);
    } else if (scan && out.includes(s)) continue;
    // insertion sort by op as we go: keeps `out` in op order
    let k = ops.length;
    ops.push(op);
    out.push(s);
    while (k > 0 && ops[k - 1]! > op) {
      ops[k] = ops[k - 1]!;
      out[k] = out[k - 1]!;
      k--;
    }
    ops[k] = op;
    out[k] = s;
  }
  return out;
}
