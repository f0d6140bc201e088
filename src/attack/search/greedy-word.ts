import { currentIndexOf, type Scored } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';
import { rankWords, type WordTarget } from './word-importance.ts';

export interface GreedyWordOptions {
  /**
   * Visit only the first `words` words of the target order, Adv-BERT's "top-K words": a word that offers
   * no allowed edit still uses up its place, and the trace gets one point per visited word (unchanged
   * state for such a word), so trace[k − 1] is the state after the top k words. Default: walk the whole
   * order, passing over words without edits, until the budget constraint stops further edits (the first
   * K *editable* words).
   */
  words?: number;
}

/**
 * Adv-BERT's Algorithm 1: walk words in target order (max / min importance, or random); at each word try
 * every allowed edit the transformation proposes in one batch and keep the one that lowers the true
 * label's score most; stop as soon as the goal is reached or no word may be edited any more (the K budget
 * is a max-edits constraint, or `words` when set).
 */
export class GreedyWordSearch implements SearchMethod {
  readonly name: string;

  constructor(
    readonly target: WordTarget,
    readonly opts: GreedyWordOptions = {},
  ) {
    this.name = opts.words === undefined ? `greedy-word(${target})` : `greedy-word(${target}, top ${opts.words})`;
  }

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    const { order } = await rankWords(ctx, this.target);
    const slots = this.opts.words;
    const visit = slots === undefined ? order : order.slice(0, slots);
    let current: Scored = ctx.initial;
    const trace: Scored[] = [];
    for (const o of visit) {
      if (current.status.done) break;
      // Order is by original position; inserts/deletes may have moved the word (or removed it).
      const i = currentIndexOf(current.state, o);
      const options = i < 0 || !ctx.modifiable(current.state, i) ? [] : ctx.expand(current.state, [i]);
      if (options.length === 0) {
        // In top-K mode the word keeps its place in the trace, so traces count words, not edits.
        if (slots !== undefined) trace.push(current);
        continue;
      }
      const scored = await ctx.evaluate(options.map((o) => o.state));
      let best = scored[0]!;
      for (const s of scored) if (s.status.score > best.status.score) best = s;
      current = best;
      trace.push(best);
    }
    return { final: current, trace };
  }
}
