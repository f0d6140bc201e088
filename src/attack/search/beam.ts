import type { AttackState, Scored } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';

/**
 * Beam search (the grammar-error paper's Algorithm 2): keep the `width` states that lower the true
 * label's probability most; at each step expand every beam state with every allowed edit at every
 * editable position, score all children in ONE ctx.evaluate call (one model batch, shared with other
 * examples by the query engine), keep the best `width`. Stops at the first step where a child reaches the
 * goal (the best such child is returned) or when nothing can be edited any more (the budget is a
 * constraint, e.g. maxEditRate).
 */
export class BeamSearch implements SearchMethod {
  readonly name: string;

  constructor(readonly width = 5) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`beam width must be a positive integer, got ${width}`);
    this.name = `beam(${width})`;
  }

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    let beam: Scored[] = [ctx.initial];
    const trace: Scored[] = [];
    for (;;) {
      const children: AttackState[] = [];
      const seen = new Set<string>();
      for (const parent of beam) {
        const positions: number[] = [];
        for (let i = 0; i < parent.state.seq.length; i++) if (ctx.modifiable(parent.state, i)) positions.push(i);
        for (const { state } of ctx.expand(parent.state, positions)) {
          // Different edit paths can reach the same text; score it once.
          const key = state.seq.toString();
          if (seen.has(key)) continue;
          seen.add(key);
          children.push(state);
        }
      }
      if (children.length === 0) break;
      const scored = await ctx.evaluate(children);
      // Stable sort: ties keep proposal order, so results are reproducible.
      const ranked = scored.map((s, k) => ({ s, k })).sort((a, b) => b.s.status.score - a.s.status.score || a.k - b.k);
      beam = ranked.slice(0, this.width).map((x) => x.s);
      const success = ranked.find((x) => x.s.status.done);
      if (success) {
        trace.push(success.s);
        return { final: success.s, trace };
      }
      trace.push(beam[0]!);
    }
    return { final: beam[0]!, trace };
  }
}
