import type { Scored } from '../state.ts';
import { statesPerBatchOf, type SearchContext } from './types.ts';

/** Which words a word-targeted search edits first: most / least important by occlusion, or a seeded random order. */
export const WORD_TARGETS = ['max', 'min', 'random'] as const;
/** One of {@link WORD_TARGETS}. */
export type WordTarget = (typeof WORD_TARGETS)[number];

/**
 * Orders the editable words of the initial state. max/min: by occlusion importance = how much the goal
 * score rises (the true label's probability drops) when the word is removed; ties keep text order.
 * random: a seeded shuffle. Returns the indices and, for max/min, the importance of each.
 */
export async function rankWords(ctx: SearchContext, target: WordTarget): Promise<{ order: number[]; importance: Map<number, number> }> {
  const eligible = eligibleWords(ctx);
  const importance = new Map<number, number>();
  if (target === 'random') return { order: ctx.rng.shuffle(eligible), importance };
  await occlusionImportance(ctx, eligible, importance);
  const order = eligible.slice().sort(byImportance(target, importance));
  return { order, importance };
}

/** The words of the initial state the constraints let the search edit, in text order. */
export function eligibleWords(ctx: SearchContext): number[] {
  const eligible: number[] = [];
  for (let i = 0; i < ctx.initial.state.seq.length; i++) if (ctx.modifiable(ctx.initial.state, i)) eligible.push(i);
  return eligible;
}

/**
 * Occlusion importance of these words of the initial state, into `importance`: how much the goal score rises when
 * the word is taken out. Occluded copies are scored a batch at a time: a copy is the whole input, so long inputs get
 * smaller batches.
 */
export async function occlusionImportance(ctx: SearchContext, words: readonly number[], importance: Map<number, number>): Promise<void> {
  const { initial, subject } = ctx;
  const size = statesPerBatchOf(subject, initial.state.seq);
  for (let from = 0; from < words.length; from += size) {
    const chunk = words.slice(from, from + size);
    const occluded = chunk.map((i) => ({
      seq: subject.occlude(initial.state.seq, i),
      edits: initial.state.edits,
      modified: initial.state.modified,
    }));
    const scored: Scored[] = await ctx.evaluate(occluded);
    chunk.forEach((i, k) => importance.set(i, scored[k]!.status.score - initial.status.score));
  }
}

/** The order of max/min targeting: most (least) important first, ties in text order. */
export function byImportance(target: 'max' | 'min', importance: ReadonlyMap<number, number>): (a: number, b: number) => number {
  const sign = target === 'max' ? -1 : 1;
  return (a, b) => sign * (importance.get(a)! - importance.get(b)!) || a - b;
}
