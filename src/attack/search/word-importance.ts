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
  const { initial, subject } = ctx;
  const eligible: number[] = [];
  for (let i = 0; i < initial.state.seq.length; i++) if (ctx.modifiable(initial.state, i)) eligible.push(i);
  const importance = new Map<number, number>();
  if (target === 'random') return { order: ctx.rng.shuffle(eligible), importance };
  // Occluded copies are scored a batch at a time: a copy is the whole input, so long inputs get smaller batches.
  const size = statesPerBatchOf(subject, initial.state.seq);
  for (let from = 0; from < eligible.length; from += size) {
    const chunk = eligible.slice(from, from + size);
    const occluded = chunk.map((i) => ({
      seq: subject.occlude(initial.state.seq, i),
      edits: initial.state.edits,
      modified: initial.state.modified,
    }));
    const scored: Scored[] = await ctx.evaluate(occluded);
    chunk.forEach((i, k) => importance.set(i, scored[k]!.status.score - initial.status.score));
  }
  const sign = target === 'max' ? -1 : 1;
  const order = eligible
    .map((i, pos) => ({ i, pos }))
    .sort((a, b) => sign * (importance.get(a.i)! - importance.get(b.i)!) || a.pos - b.pos)
    .map((x) => x.i);
  return { order, importance };
}
