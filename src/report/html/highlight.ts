import type { Edit } from '../../text/edits.ts';

/** Unchanged text, or one change: [before, after, index of the edit type in the report's type list]. */
export type Segment = string | [string, string, number];

/**
 * Rebuilds a field as unchanged pieces and changes from its edits, so that both the original and the perturbed
 * text can be drawn with every edit highlighted. Edits apply in order, each at `start` in the text as it was
 * before that edit. When the edits do not reproduce the perturbed text (an edit kind this function does not
 * know), falls back to a word-level diff of the two texts, labelled with the edits' types in order.
 */
export function textSegments(original: string, perturbed: string, edits: readonly Edit[], typeIndex: (t: string) => number): Segment[] {
  const replayed = replay(original, edits, typeIndex);
  if (replayed && join(replayed, 1) === perturbed && join(replayed, 0) === original) return replayed;
  return wordDiff(original.split(/(\s+)/), perturbed.split(/(\s+)/), edits, typeIndex);
}

/** Token lists (NER): edits name the token by wordIndex. */
export function tokenSegments(
  original: readonly string[],
  perturbed: readonly string[],
  edits: readonly Edit[],
  typeIndex: (t: string) => number,
): Segment[] {
  if (original.length === perturbed.length) {
    const typeAt = new Map<number, string>();
    for (const e of edits) typeAt.set(e.wordIndex, e.type);
    const out: Segment[] = [];
    original.forEach((tok, i) => {
      if (i > 0) out.push(' ');
      const after = perturbed[i]!;
      const type = typeAt.get(i);
      if (tok === after && type === undefined) out.push(tok);
      else out.push([tok, after, typeIndex(type ?? edits[0]?.type ?? 'edit')]);
    });
    return merge(out);
  }
  return wordDiff(spaced(original), spaced(perturbed), edits, typeIndex);
}

function spaced(tokens: readonly string[]): string[] {
  return tokens.flatMap((t, i) => (i === 0 ? [t] : [' ', t]));
}

function join(segs: readonly Segment[], side: 0 | 1): string {
  return segs.map((s) => (typeof s === 'string' ? s : s[side])).join('');
}

function replay(original: string, edits: readonly Edit[], typeIndex: (t: string) => number): Segment[] | undefined {
  let segs: Segment[] = [original];
  for (const e of edits) {
    const next = applyEdit(segs, e, typeIndex(e.type));
    if (!next) return undefined;
    segs = next;
  }
  return segs;
}

const current = (s: Segment): string => (typeof s === 'string' ? s : s[1]);

/** Replaces [start, start + before.length) of the current text; an edit touching an earlier change joins it. */
function applyEdit(segs: readonly Segment[], e: Edit, type: number): Segment[] | undefined {
  const text = join(segs, 1);
  let lo = e.start;
  let hi = e.start + e.before.length;
  if (lo < 0 || hi > text.length || text.slice(lo, hi) !== e.before) return undefined;
  let pos = 0;
  for (const s of segs) {
    const end = pos + current(s).length;
    if (typeof s !== 'string') {
      const touches = lo === hi ? lo > pos && lo < end : lo < end && hi > pos;
      if (touches) {
        lo = Math.min(lo, pos);
        hi = Math.max(hi, end);
      }
    }
    pos = end;
  }
  const after = text.slice(lo, e.start) + e.after + text.slice(e.start + e.before.length, hi);
  const out: Segment[] = [];
  let before = '';
  let placed = false;
  const place = (): void => {
    if (placed) return;
    placed = true;
    out.push([before, after, type]);
  };
  pos = 0;
  for (const s of segs) {
    const cur = current(s);
    const end = pos + cur.length;
    if (end <= lo) {
      out.push(s);
    } else if (pos >= hi) {
      place();
      out.push(s);
    } else if (typeof s === 'string') {
      const a = Math.max(lo - pos, 0);
      const b = Math.min(hi - pos, cur.length);
      if (a > 0) out.push(s.slice(0, a));
      before += s.slice(a, b);
      if (b < cur.length) {
        place();
        out.push(s.slice(b));
      }
    } else {
      before += s[0];
    }
    pos = end;
  }
  place();
  return merge(out.filter((s) => s !== ''));
}

function merge(segs: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (typeof s === 'string' && typeof last === 'string') out[out.length - 1] = last + s;
    else out.push(s);
  }
  return out;
}

/** Longest-common-subsequence diff over word/space pieces; changed runs get the edits' types in order. */
function wordDiff(a: readonly string[], b: readonly string[], edits: readonly Edit[], typeIndex: (t: string) => number): Segment[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [[a.join(''), b.join(''), typeIndex(edits[0]?.type ?? 'edit')]];
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const out: Segment[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  let before = '';
  let after = '';
  const flush = (): void => {
    if (!before && !after) return;
    const type = edits[Math.min(k, edits.length - 1)]?.type ?? 'edit';
    k++;
    out.push([before, after, typeIndex(type)]);
    before = '';
    after = '';
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flush();
      out.push(a[i]!);
      i++;
      j++;
    } else if (j < m && (i >= n || dp[i]![j + 1]! >= dp[i + 1]![j]!)) after += b[j++]!;
    else before += a[i++]!;
  }
  flush();
  return merge(out);
}
