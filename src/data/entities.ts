/**
 * Entity mentions in IOB tag sequences, and entity-level scoring (exact span and type, as seqeval and
 * conlleval count them). Used by data loaders (IOB1 → IOB2), goals and metrics alike.
 */
/** An entity mention: tokens `start` (inclusive) to `end` (exclusive). */
export interface EntitySpan {
  type: string;
  start: number;
  end: number;
}

/** Splits "B-PER" into ["B", "PER"]; "O" and malformed tags give undefined. */
function splitTag(tag: string): [string, string] | undefined {
  const m = /^([BI])-(.+)$/.exec(tag);
  return m ? [m[1]!, m[2]!] : undefined;
}

/**
 * IOB1 → IOB2: an `I-X` that starts an entity (the previous tag is not of type X) becomes `B-X`.
 * `B-X` (IOB1's marker between two adjacent X entities) and `O` are kept; already-IOB2 input comes back
 * unchanged. Tags that are neither `O` nor `B-`/`I-` prefixed are copied as they are.
 */
export function iob1ToIob2(tags: readonly string[]): string[] {
  const out: string[] = [];
  let prevType: string | undefined;
  for (const tag of tags) {
    const t = splitTag(tag);
    if (t === undefined) {
      out.push(tag);
      prevType = undefined;
      continue;
    }
    const [prefix, type] = t;
    out.push(prefix === 'I' && prevType !== type ? `B-${type}` : tag);
    prevType = type;
  }
  return out;
}

/**
 * Entity spans of an IOB2 tag sequence, in order, `end` exclusive. Lenient like seqeval's default mode:
 * an `I-X` that does not continue an X entity starts a new one; any tag other than `B-`/`I-` ends the
 * current entity.
 */
export function entitySpans(tags: readonly string[]): EntitySpan[] {
  const spans: EntitySpan[] = [];
  let cur: EntitySpan | undefined;
  for (let i = 0; i < tags.length; i++) {
    const t = splitTag(tags[i]!);
    if (t === undefined) {
      if (cur) spans.push(cur);
      cur = undefined;
      continue;
    }
    const [prefix, type] = t;
    if (prefix === 'B' || cur === undefined || cur.type !== type) {
      if (cur) spans.push(cur);
      cur = { type, start: i, end: i + 1 };
    } else {
      cur.end = i + 1;
    }
  }
  if (cur) spans.push(cur);
  return spans;
}

/** Entity-level match counts. */
export interface EntityCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** Entity-level true/false positives and false negatives of predicted IOB2 tags against gold (exact span and type). */
export function entityCounts(gold: readonly string[], pred: readonly string[]): EntityCounts {
  const key = (s: EntitySpan): string => `${s.type}:${s.start}:${s.end}`;
  const goldSet = new Set(entitySpans(gold).map(key));
  const predSet = new Set(entitySpans(pred).map(key));
  let tp = 0;
  for (const k of predSet) if (goldSet.has(k)) tp++;
  return { tp, fp: predSet.size - tp, fn: goldSet.size - tp };
}

/** Sum of two entity counts. */
export function addCounts(a: EntityCounts, b: EntityCounts): EntityCounts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}

/** F1 from counts; null when there is nothing to find and nothing was found (F1 is undefined there). */
export function f1(c: EntityCounts): number | null {
  if (c.tp + c.fp + c.fn === 0) return null;
  return (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
}
