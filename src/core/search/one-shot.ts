import type { Rng } from '../../util/rng.ts';
import type { AttackState } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';

/** Rewrites a whole state at once (e.g. noise on every word), touching only modifiable words. */
export type WholeTextTransform = (state: AttackState, rng: Rng, modifiable: (index: number) => boolean, field: string) => AttackState;

/** No search at all: apply the transform once and score the result (the stress-test noise setting). */
export class OneShotSearch implements SearchMethod {
  readonly incremental = false;
  constructor(
    readonly name: string,
    private readonly transform: WholeTextTransform,
  ) {}

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    const state = this.transform(ctx.initial.state, ctx.rng, (i) => ctx.modifiable(ctx.initial.state, i), ctx.subject.field);
    if (state.edits.length === 0) return { final: ctx.initial, trace: [] };
    const [scored] = await ctx.evaluate([state]);
    // No trace: the edits arrive all at once, so there is no accuracy-per-edit curve to draw.
    return { final: scored!, trace: [] };
  }
}
