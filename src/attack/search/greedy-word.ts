import { currentIndexOf, type Scored } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';
import { rankWords, type WordTarget } from './word-importance.ts';

/**
 * Adv-BERT's Algorithm 1: walk words in target order (max / min importance, or random); at each word try
 * every allowed edit in one batch and keep the one that lowers the true label's score most; stop as soon
 * as the goal is reached or no word may be edited any more (the K budget is a max-edits constraint).
 */
export class GreedyWordSearch implements SearchMethod {
  readonly name: string;

  constructor(readonly target: WordTarget) {
    this.name = `greedy-word(${target})`;
  }

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    const { order } = await rankWords(ctx, this.target);
    let current: Scored = ctx.initial;
    const trace: Scored[] = [];
    for (const o of order) {
      if (current.status.done) break;
      // Order is by original position; inserts/deletes may have moved the word (or removed it).
      const i = currentIndexOf(current.state, o);
      if (i < 0 || !ctx.modifiable(current.state, i)) continue;
      const options = ctx.expand(current.state, [i]);
      if (options.length === 0) continue;
      const scored = await ctx.evaluate(options.map((o) => o.state));
      let best = scored[0]!;
      for (const s of scored) if (s.status.score > best.status.score) best = s;
      current = best;
      trace.push(best);
    }
    return { final: current, trace };
  }
}
