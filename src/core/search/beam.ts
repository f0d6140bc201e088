import { createHash } from 'node:crypto';
import type { AttackState, Scored } from '../state.ts';
import { statesPerBatchOf, type SearchContext, type SearchMethod, type SearchOutcome } from './types.ts';

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
      const step = await this.step(ctx, beam);
      if (!step) break;
      beam = step.beam;
      if (step.success) {
        trace.push(step.success);
        return { final: step.success, trace };
      }
      trace.push(beam[0]!);
    }
    return { final: beam[0]!, trace };
  }

  /**
   * One step: every child of every beam state, scored in chunks of CHUNK (one model batch each) so that memory
   * stays bounded for long texts, while the result is what ranking all children at once gives: the best `width`
   * (stable: ties keep proposal order) and the best child that reaches the goal.
   */
  private async step(ctx: SearchContext, beam: readonly Scored[]): Promise<{ beam: Scored[]; success?: Scored } | undefined> {
    const seen = new Set<string>();
    let top: { s: Scored; k: number }[] = [];
    let success: { s: Scored; k: number } | undefined;
    let proposed = 0;
    let pending: AttackState[] = [];
    const chunk = statesPerBatchOf(ctx.subject, beam[0]!.state.seq);
    const flush = async (): Promise<void> => {
      if (!pending.length) return;
      const scored = await ctx.evaluate(pending);
      const base = proposed - pending.length;
      const ranked = [...top, ...scored.map((s, i) => ({ s, k: base + i }))].sort(
        (a, b) => b.s.status.score - a.s.status.score || a.k - b.k,
      );
      top = ranked.slice(0, this.width);
      for (const x of ranked) {
        if (!x.s.status.done) continue;
        if (!success || x.s.status.score > success.s.status.score || (x.s.status.score === success.s.status.score && x.k < success.k))
          success = x;
        break;
      }
      pending = [];
    };
    for (const parent of beam) {
      const positions: number[] = [];
      for (let i = 0; i < parent.state.seq.length; i++) if (ctx.modifiable(parent.state, i)) positions.push(i);
      for (const candidate of ctx.candidates(parent.state, positions)) {
        const state = ctx.apply(parent.state, candidate);
        // Different edit paths can reach the same text; score it once. Long texts are keyed by a hash.
        const text = state.seq.toString();
        const key = text.length > 512 ? createHash('sha1').update(text).digest('base64') : text;
        if (seen.has(key)) continue;
        seen.add(key);
        pending.push(state);
        proposed++;
        if (pending.length >= chunk) await flush();
      }
    }
    await flush();
    if (proposed === 0) return undefined;
    return { beam: top.map((x) => x.s), ...(success ? { success: success.s } : {}) };
  }
}
