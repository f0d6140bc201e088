/**
 * Answer spans over a QA context before and after an attack: the gold answers and the model's answer of each
 * side laid over the context's edits (highlight.ts segments), as pieces the example browser draws
 * (draw.client.js). Offsets are UTF-16 offsets (JS string indices), as the SQuAD loader and the QA models give them.
 */
import type { Segment } from './highlight.ts';

/** Span bits of a run of characters: inside a gold answer, inside the model's answer (both: 3). */
export const GOLD = 1;
export const PRED = 2;

/** A span [start, end) of one side's text and its bit (GOLD or PRED). */
export interface Span {
  start: number;
  end: number;
  bit: number;
}

/** Characters under the same spans: [text, bits]. */
export type Run = [string, number];

/**
 * One piece of a context, both sides at once:
 * - a string: the same text before and after, inside no span;
 * - [text, bits before, bits after]: the same text on both sides, inside spans;
 * - { b, a, t }: an edit of type index t, its text before and after, each split into runs by its own side's spans;
 * - { f }: pieces far from every span, folded until the reader expands the context;
 * - { cut }: inside a fold, that many characters of a very long context left out of the report.
 */
export type QaPiece = string | [string, number, number] | { b: Run[]; a: Run[]; t: number } | { f: QaPiece[] } | { cut: number };

/**
 * Lays each side's spans over the segments. A side's offsets are into that side's text (the segments joined with
 * their before, resp. after, texts); pieces are split wherever a span of either side starts or ends.
 */
export function overlaySpans(segs: readonly Segment[], before: readonly Span[], after: readonly Span[]): QaPiece[] {
  const out: QaPiece[] = [];
  let pb = 0;
  let pa = 0;
  for (const s of segs) {
    if (typeof s === 'string') {
      const cuts = cutPoints(s.length, [before, pb], [after, pa]);
      for (let i = 0; i + 1 < cuts.length; i++) {
        const text = s.slice(cuts[i], cuts[i + 1]);
        const fb = bitsAt(before, pb + cuts[i]!);
        const fa = bitsAt(after, pa + cuts[i]!);
        const last = out[out.length - 1];
        // A cut where both sides keep their spans (another gold answer starts inside one) joins back up.
        if (Array.isArray(last) && last[1] === fb && last[2] === fa) last[0] += text;
        else if (fb || fa) out.push([text, fb, fa]);
        else if (typeof last === 'string') out[out.length - 1] = last + text;
        else out.push(text);
      }
    } else {
      out.push({ b: runs(s[0], pb, before), a: runs(s[1], pa, after), t: s[2] });
    }
    pb += typeof s === 'string' ? s.length : s[0].length;
    pa += typeof s === 'string' ? s.length : s[1].length;
  }
  return out;
}

/** Offsets in [0, length] where a span of any of the lists (each shifted by its offset) starts or ends, sorted. */
function cutPoints(length: number, ...lists: [readonly Span[], number][]): number[] {
  const cuts = new Set<number>([0, length]);
  for (const [spans, offset] of lists) {
    for (const x of spans) for (const c of [x.start - offset, x.end - offset]) if (c > 0 && c < length) cuts.add(c);
  }
  return [...cuts].sort((a, b) => a - b);
}

function bitsAt(spans: readonly Span[], pos: number): number {
  let bits = 0;
  for (const x of spans) if (x.start <= pos && pos < x.end) bits |= x.bit;
  return bits;
}

function runs(text: string, offset: number, spans: readonly Span[]): Run[] {
  if (text === '') return [];
  const cuts = cutPoints(text.length, [spans, offset]);
  const out: Run[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) out.push([text.slice(cuts[i], cuts[i + 1]), bitsAt(spans, offset + cuts[i]!)]);
  return out;
}

/** Options of {@link foldPieces}. */
export interface FoldOptions {
  /** Characters kept visible on each side of a span (default 120). */
  keep?: number;
  /** Folds shorter than this stay visible (default 40). */
  minFold?: number;
  /** Most characters one fold carries; the middle of a longer one is left out (default 4000). */
  maxFold?: number;
}

const isPlain = (p: QaPiece): p is string => typeof p === 'string';
const hasSpan = (p: QaPiece): boolean =>
  Array.isArray(p) ? p[1] !== 0 || p[2] !== 0 : typeof p === 'object' && 'b' in p && [...p.b, ...p.a].some((r) => r[1] !== 0);

/** Characters a piece takes on the page (the longer side of an edit). */
function width(p: QaPiece): number {
  if (typeof p === 'string') return p.length;
  if (Array.isArray(p)) return p[0].length;
  if ('b' in p) return Math.max(...[p.b, p.a].map((rs) => rs.reduce((n, r) => n + r[0].length, 0)));
  if ('f' in p) return p.f.reduce((n, q) => n + width(q), 0);
  return 0;
}

/**
 * Folds what lies more than `keep` characters from every span (of either side) into { f } pieces, plain text and
 * edits alike, so a long context shows a window around the answers and expands on demand. Without any span, the
 * start stays visible.
 * Cuts in unchanged text move to a word boundary, and never split a surrogate pair.
 */
export function foldPieces(pieces: readonly QaPiece[], opts: FoldOptions = {}): QaPiece[] {
  const keep = opts.keep ?? 120;
  const minFold = opts.minFold ?? 40;
  // Visible windows [from, to) in page characters.
  const windows: [number, number][] = [];
  let pos = 0;
  for (const p of pieces) {
    const w = width(p);
    if (hasSpan(p)) windows.push([pos - keep, pos + w + keep]);
    pos += w;
  }
  if (windows.length === 0) windows.push([0, 2 * keep]);
  const visible = (a: number, b: number): boolean => windows.some(([lo, hi]) => a < hi && lo < b);

  // Split plain text at window edges, then mark each piece shown or folded.
  const marked: [QaPiece, boolean][] = [];
  pos = 0;
  for (const p of pieces) {
    const w = width(p);
    // Edits are folded whole (noise on every word leaves little plain text); spans make the windows, so stay shown.
    if (!isPlain(p)) marked.push([p, visible(pos, pos + w)]);
    else {
      const edges = windows.flatMap(([lo, hi]) => [lo - pos, hi - pos]).filter((c) => c > 0 && c < w);
      const cuts = [0, ...new Set(edges.map((c) => wordCut(p, c, visible(pos + c - 1, pos + c))))].sort((a, b) => a - b);
      cuts.push(w);
      for (let i = 0; i + 1 < cuts.length; i++) {
        if (cuts[i] === cuts[i + 1]) continue;
        marked.push([p.slice(cuts[i], cuts[i + 1]), visible(pos + cuts[i]!, pos + cuts[i + 1]!)]);
      }
    }
    pos += w;
  }

  const out: QaPiece[] = [];
  let folded: QaPiece[] = [];
  const flush = (): void => {
    if (folded.length && folded.reduce((n, q) => n + width(q), 0) >= minFold) out.push({ f: capFold(folded, opts.maxFold ?? 4000) });
    else out.push(...folded);
    folded = [];
  };
  for (const [p, shown] of marked) {
    if (!shown) folded.push(p);
    else {
      flush();
      out.push(p);
    }
  }
  flush();
  return joinPlain(out);
}

/**
 * Moves a cut at `c` to a word boundary within 24 characters, into the folded side (`leftShown`: the text left of
 * the cut is shown, so the cut moves right), and never into the middle of a surrogate pair.
 */
function wordCut(s: string, c: number, leftShown: boolean): number {
  const step = leftShown ? 1 : -1;
  for (let k = 0, i = c; k < 24 && i > 0 && i < s.length; k++, i += step) {
    if (/\s/.test(s[i - 1]!) !== /\s/.test(s[i]!)) return i;
  }
  return splitsPair(s, c) ? c - 1 : c;
}

/** A cut at `c` would separate the two halves of a surrogate pair. */
function splitsPair(s: string, c: number): boolean {
  const code = s.charCodeAt(c);
  return c > 0 && code >= 0xdc00 && code <= 0xdfff;
}

/** A fold of more than `max` characters keeps its first and last max/2 and says how many it left out. */
function capFold(pieces: QaPiece[], max: number): QaPiece[] {
  const total = pieces.reduce((n, q) => n + width(q), 0);
  if (total <= max) return pieces;
  const head = take(pieces, Math.floor(max / 2));
  const tail = take([...pieces].reverse(), Math.floor(max / 2), true).reverse();
  const kept = [...head, ...tail].reduce((n, q) => n + width(q), 0);
  return [...head, { cut: total - kept }, ...tail];
}

/** Whole pieces from the start (or, given reversed, from the end) up to n characters; plain text is sliced to fit. */
function take(pieces: readonly QaPiece[], n: number, fromEnd = false): QaPiece[] {
  const out: QaPiece[] = [];
  let left = n;
  for (const p of pieces) {
    const w = width(p);
    if (w <= left) {
      out.push(p);
      left -= w;
      continue;
    }
    if (isPlain(p) && left > 0) {
      let i = fromEnd ? p.length - left : left;
      if (splitsPair(p, i)) i += fromEnd ? 1 : -1;
      out.push(fromEnd ? p.slice(i) : p.slice(0, i));
    }
    break;
  }
  return out;
}

function joinPlain(pieces: readonly QaPiece[]): QaPiece[] {
  const out: QaPiece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (typeof p === 'string' && typeof last === 'string') out[out.length - 1] = last + p;
    else if (p !== '') out.push(p);
  }
  return out;
}
