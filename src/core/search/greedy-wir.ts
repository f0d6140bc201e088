/**
 * TextAttack's GreedyWordSwapWIR (textattack/search_methods/greedy_word_swap_wir.py), the search of PWWS,
 * DeepWordBug, TextBugger, BAE and TextFooler: rank the editable words once by a word-importance method, then visit
 * them in that order; at each word score every allowed candidate in one batch and keep the best only when it
 * raises the goal score; stop at the first success (the most similar successful candidate of that step when a
 * constraint gives similarities) or when the words run out.
 */
import { currentIndexOf, type AttackState, type Scored } from '../state.ts';
import { statesPerBatchOf, type Expanded, type SearchContext, type SearchMethod, type SearchOutcome } from './types.ts';

/** TextAttack's word-importance-ranking (WIR) methods (its `gradient` needs model internals and is left out). */
export const WIR_METHODS = ['unk', 'delete', 'weighted-saliency', 'random'] as const;
/** One of {@link WIR_METHODS}. */
export type WirMethod = (typeof WIR_METHODS)[number];

/** How the words are ranked. */
export interface WirOptions {
  method: WirMethod;
  /** What `unk` and `weighted-saliency` put in a word's place (TextAttack: the literal "[UNK]"). */
  unkToken?: string;
  /**
   * weighted-saliency's ΔP: 'gain' (Ren et al. 2019, eq. 7: the best swap's drop in P(true class), i.e. its goal
   * score minus the original's) or 'score' (TextAttack's code: the best swap's goal score itself, 1 − P(true class),
   * which ranks differently). Default 'gain'.
   */
  deltaP?: 'gain' | 'score';
}

/** The default stand-in for a word: TextAttack's literal "[UNK]" (BERT's unknown token). */
export const UNK_TOKEN = '[UNK]';

/** Softmax of a vector (max-shifted, as torch's). */
export function softmax(xs: readonly number[]): number[] {
  if (xs.length === 0) return [];
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** Scores many states, a model batch at a time (long inputs: smaller batches). */
async function scoreAll(ctx: SearchContext, states: readonly AttackState[]): Promise<Scored[]> {
  const out: Scored[] = [];
  const size = statesPerBatchOf(ctx.subject, ctx.initial.state.seq);
  for (let from = 0; from < states.length; from += size) out.push(...(await ctx.evaluate(states.slice(from, from + size))));
  return out;
}

/**
 * The editable words of the initial state in WIR order, with each word's importance (absent for `random`). As
 * TextAttack: the words the pre-transformation constraints leave (stopwords, …), scored by the goal score of the
 * text with the word replaced by the unknown token (`unk`) or removed (`delete`); `weighted-saliency` (PWWS) is the
 * softmax of those `unk` saliencies times the best candidate's ΔP at that word (0 when it has no candidate);
 * descending, ties in text order.
 */
export async function rankByWir(
  ctx: SearchContext,
  opts: WirOptions,
): Promise<{ order: number[]; importance: Map<number, number>; swaps?: Map<number, Swaps> }> {
  const { initial } = ctx;
  const seq = initial.state.seq;
  const eligible: number[] = [];
  for (let i = 0; i < seq.length; i++) if (ctx.modifiable(initial.state, i)) eligible.push(i);
  const importance = new Map<number, number>();
  if (opts.method === 'random') return { order: ctx.rng.shuffle(eligible), importance };
  const unk = opts.unkToken ?? UNK_TOKEN;
  // Occluded copies carry no edits: they probe the model, they are never a result.
  const probe = (i: number): AttackState => ({
    seq: opts.method === 'delete' ? seq.delete(i) : seq.replace(i, unk),
    edits: initial.state.edits,
    modified: initial.state.modified,
  });
  const leaveOne = (await scoreAll(ctx, eligible.map(probe))).map((s) => s.status.score);
  let scores = leaveOne;
  let swaps: Map<number, Swaps> | undefined;
  if (opts.method === 'weighted-saliency') {
    const weights = softmax(leaveOne);
    swaps = await swapsAt(ctx, eligible);
    const best = eligible.map((i) => {
      const scored = swaps!.get(i)!.scored;
      return scored.length ? Math.max(...scored.map((s) => s.status.score)) : undefined;
    });
    const base = (opts.deltaP ?? 'gain') === 'gain' ? initial.status.score : 0;
    scores = eligible.map((_, k) => weights[k]! * (best[k] === undefined ? 0 : best[k] - base));
  }
  eligible.forEach((i, k) => importance.set(i, scores[k]!));
  const order = eligible
    .map((i, pos) => ({ i, pos, s: scores[pos]! }))
    .sort((a, b) => b.s - a.s || a.pos - b.pos)
    .map((x) => x.i);
  return { order, importance, ...(swaps ? { swaps } : {}) };
}

/** A word's allowed candidates on the initial text, applied, and their scores. */
export interface Swaps {
  options: Expanded[];
  scored: Scored[];
}

/**
 * For each word, its allowed candidates on the initial text and their scores. One model call per word, as
 * TextAttack's: the query engine batches the calls of concurrent examples together, and a per-example query budget
 * stops the ranking at the word where it runs out rather than at one huge batch.
 */
async function swapsAt(ctx: SearchContext, words: readonly number[]): Promise<Map<number, Swaps>> {
  const out = new Map<number, Swaps>();
  for (const i of words) {
    const options = await ctx.expandAsync(ctx.initial.state, [i]);
    const scored = options.length
      ? await scoreAll(
          ctx,
          options.map((x) => x.state),
        )
      : [];
    out.set(i, { options, scored });
  }
  return out;
}

/** TextAttack's GreedyWordSwapWIR; see the file comment. */
export class GreedyWordSwapWIR implements SearchMethod {
  readonly name: string;

  constructor(readonly wir: WirOptions) {
    this.name = `greedy-wir(${wir.method})`;
  }

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    const { order, swaps } = await rankByWir(ctx, this.wir);
    let current: Scored = ctx.initial;
    const trace: Scored[] = [];
    for (const o of order) {
      // Ranked on the original; an edit that added or removed words moved it (or removed it).
      const i = currentIndexOf(current.state, o);
      if (i < 0 || !ctx.modifiable(current.state, i)) continue;
      // Still on the initial text, a transformation that draws nothing offers what the ranking already scored there.
      const known = current === ctx.initial && ctx.proposes ? swaps?.get(o) : undefined;
      const options: Expanded[] = known ? known.options : await ctx.expandAsync(current.state, [i]);
      if (options.length === 0) continue;
      const scored =
        known?.scored ??
        (await scoreAll(
          ctx,
          options.map((x) => x.state),
        ));
      const ranked = scored
        .map((s, k) => ({ s, k, similarity: options[k]!.similarity }))
        .sort((a, b) => b.s.status.score - a.s.status.score || a.k - b.k);
      // A step that does not raise the score is not taken (TextAttack: "skip swaps which don't improve the score").
      if (!(ranked[0]!.s.status.score > current.status.score)) continue;
      current = ranked[0]!.s;
      if (current.status.done) {
        // Among the successful candidates at the top of the ranking, the most similar to the original.
        let best = current;
        let most = -Infinity;
        for (const r of ranked) {
          if (!r.s.status.done || r.similarity === undefined) break;
          if (r.similarity > most) {
            most = r.similarity;
            best = r.s;
          }
        }
        trace.push(best);
        return { final: best, trace };
      }
      trace.push(current);
    }
    return { final: current, trace };
  }
}
