import type { Rng } from '../../util/rng.ts';
import type { WordCandidate } from '../../text/edits.ts';
import type { AttackState } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';

/** Chooses one of the candidates possible in a text (index), or -1 for none. */
export type CandidatePicker = (candidates: readonly WordCandidate[], rng: Rng) => number;

/**
 * No search: put `count(words)` randomly sampled edits into the text, one after the other (each on the
 * text the previous one produced, so applicability stays right), then ask the model once. The "average
 * case" of the grammar-error paper; the picker decides how edits are sampled (e.g. by error type).
 */
export class RandomEditsSearch implements SearchMethod {
  readonly incremental = false;
  constructor(
    readonly name: string,
    private readonly count: (words: number) => number,
    private readonly pick: CandidatePicker,
  ) {}

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    let state: AttackState = ctx.initial.state;
    const wanted = this.count(state.seq.length);
    for (let e = 0; e < wanted; e++) {
      const positions: number[] = [];
      for (let i = 0; i < state.seq.length; i++) if (ctx.modifiable(state, i)) positions.push(i);
      // Only the chosen candidate is applied: a long text has many candidates, each a full copy once applied.
      const options = ctx.candidates(state, positions);
      const k = this.pick(options, ctx.rng);
      if (k < 0) break;
      state = ctx.apply(state, options[k]!);
    }
    if (state.edits.length === 0) return { final: ctx.initial, trace: [] };
    const [scored] = await ctx.evaluate([state]);
    return { final: scored!, trace: [scored!] };
  }
}
