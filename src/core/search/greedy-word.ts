import { currentIndexOf, type Scored } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';
import { byImportance, eligibleWords, occlusionImportance, rankWords, type WordTarget } from './word-importance.ts';

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
 * label's score most; stop as soon as the goal is reached or no word may be edited any more (the K
 * budget is a max-edits constraint, or `words` when set).
 *
 * Where the transformation tells without drawing from the rng whether it proposes an edit at a word
 * (`ctx.proposes`), a word that offers none is not occluded: passed over anyway, its importance is never needed.
 * Should it offer one after an edit (a grammar rule that now applies), it is occluded then and takes its place in
 * the order — so the walk, and everything the search returns, is the same as with every word ranked up front.
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
    if (ctx.worstCase && this.target !== 'random') return this.walk(ctx, await costliestFirst(ctx, this.target));
    if (ctx.proposes && this.target !== 'random' && this.opts.words === undefined) return this.lazy(ctx, this.target, ctx.proposes);
    return this.walk(ctx, (await rankWords(ctx, this.target)).order);
  }

  /** The walk over words in this order (original positions). */
  private async walk(ctx: SearchContext, order: readonly number[]): Promise<SearchOutcome> {
    const slots = this.opts.words;
    const visit = slots === undefined ? order : order.slice(0, slots);
    let current: Scored = ctx.initial;
    const trace: Scored[] = [];
    for (const o of visit) {
      if (current.status.done) break;
      const step = await this.step(ctx, current, o);
      if (!step) {
        // In top-K mode the word keeps its place in the trace, so traces count words, not edits.
        if (slots !== undefined) trace.push(current);
        continue;
      }
      current = step;
      trace.push(step);
    }
    return { final: current, trace };
  }

  /** At original word `o`: every allowed edit scored in one batch, the best kept (undefined: no edit there now). */
  private async step(ctx: SearchContext, current: Scored, o: number): Promise<Scored | undefined> {
    // Order is by original position; inserts/deletes may have moved the word (or removed it).
    const i = currentIndexOf(current.state, o);
    const options = i < 0 || !ctx.modifiable(current.state, i) ? [] : ctx.expand(current.state, [i]);
    if (options.length === 0) return undefined;
    const scored = await ctx.evaluate(options.map((x) => x.state));
    let best = scored[0]!;
    for (const s of scored) if (s.status.score > best.status.score) best = s;
    return best;
  }

  /**
   * The walk with words ranked as they come to offer an edit (see the class comment). Each time the state changes,
   * the words not yet ranked that now offer an edit are occluded and put in their place; one that falls before the
   * walk's position was passed over while it offered none, as the full order would have passed it.
   */
  private async lazy(ctx: SearchContext, target: 'max' | 'min', proposes: NonNullable<SearchContext['proposes']>): Promise<SearchOutcome> {
    const importance = new Map<number, number>();
    const cmp = byImportance(target, importance);
    const offers = (state: Scored, o: number): boolean => {
      const i = currentIndexOf(state.state, o);
      return i >= 0 && proposes(state.state, i);
    };
    let waiting = eligibleWords(ctx);
    const order: number[] = [];
    let next = 0;
    let current: Scored = ctx.initial;
    const rank = async (): Promise<void> => {
      const now = waiting.filter((o) => offers(current, o));
      if (!now.length) return;
      waiting = waiting.filter((o) => !now.includes(o));
      await occlusionImportance(ctx, now, importance);
      for (const o of now) {
        let j = order.findIndex((x) => cmp(x, o) > 0);
        if (j < 0) j = order.length;
        order.splice(j, 0, o);
        if (j < next) next++;
      }
    };
    await rank();
    const trace: Scored[] = [];
    while (next < order.length && !current.status.done) {
      const step = await this.step(ctx, current, order[next++]!);
      if (!step) continue;
      current = step;
      trace.push(step);
      await rank();
    }
    return { final: current, trace };
  }
}

/**
 * A dry run's order (SearchContext.worstCase): the importance is paid for as in a real run (every eligible word
 * occluded: at least what the lazy walk asks), but the words are walked most candidates first. Every word visited
 * that offers an edit takes one, so the walk's cost is the largest the goal could make it choose, on the initial
 * candidate counts (typos: a word's candidates depend on that word alone).
 */
async function costliestFirst(ctx: SearchContext, target: 'max' | 'min'): Promise<number[]> {
  const { order } = await rankWords(ctx, target);
  const count = new Map(order.map((i) => [i, ctx.expand(ctx.initial.state, [i]).length]));
  return order.slice().sort((a, b) => count.get(b)! - count.get(a)! || a - b);
}
