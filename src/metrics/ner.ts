import { entitySpans } from '../data/index.ts';

/** Entity-level match counts (exact span and type, as seqeval/conlleval count them). */
export interface EntityCounts {
  tp: number;
  fp: number;
  fn: number;
}

export function entityCounts(gold: readonly string[], pred: readonly string[]): EntityCounts {
  const key = (s: { type: string; start: number; end: number }): string => `${s.type}:${s.start}:${s.end}`;
  const goldSet = new Set(entitySpans(gold.slice()).map(key));
  const predSet = new Set(entitySpans(pred.slice()).map(key));
  let tp = 0;
  for (const k of predSet) if (goldSet.has(k)) tp++;
  return { tp, fp: predSet.size - tp, fn: goldSet.size - tp };
}

export function addCounts(a: EntityCounts, b: EntityCounts): EntityCounts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}

/** F1 from counts; 1 when there is nothing to find and nothing was found. */
export function f1(c: EntityCounts): number {
  if (c.tp + c.fp + c.fn === 0) return 1;
  return (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
}
