import type { WordCandidate } from '../../text/edits.ts';
import { currentIndexOf, type AttackState, type Scored } from '../state.ts';
import type { SearchContext, SearchMethod, SearchOutcome } from './types.ts';

/** Options of {@link GeneticSearch}; defaults: population 60, generation rate 0.23. */
export interface GeneticOptions {
  /** Members per generation (the paper: 60). */
  population?: number;
  /** Generations as a fraction of the sentence's word count (the paper: at most 23%); at least 1. */
  generationRate?: number;
}

/** A member's genotype: at most one edit per original word position ("slot"), proposed on the original. */
type Genes = ReadonlyMap<number, WordCandidate>;

/** A gene set replayed on the original text, with its memo key. */
interface Built {
  genes: Genes;
  state: AttackState;
  key: string;
}

interface Member {
  genes: Genes;
  scored: Scored;
}

/**
 * Genetic search (the grammar-error paper's Algorithm 3, after Alzantot et al. 2018). A member is a set of
 * edits keyed by original word position, so members of different lengths (inserts, deletes) can still be
 * crossed. Each generation: stop if a member reaches the goal; keep the elite (best member); fill the rest
 * with children of two parents drawn in proportion to fitness (the goal score: 1 − P(true label)), made by
 * uniform crossover (each position's edit from either parent) and then mutation (Alzantot's Perturb: a
 * random editable position, every edit possible there tried, the best kept). All of a generation's
 * mutations are scored in ONE ctx.evaluate call. Genes are replayed through ctx.expand on the current
 * text, so every constraint (budget, zones, no repeats) holds; a gene that no longer applies is dropped.
 */
export class GeneticSearch implements SearchMethod {
  readonly name: string;
  private readonly population: number;
  private readonly generationRate: number;

  constructor(opts: GeneticOptions = {}) {
    this.population = opts.population ?? 60;
    this.generationRate = opts.generationRate ?? 0.23;
    this.name = `genetic(pop=${this.population}, gen=${this.generationRate})`;
  }

  async search(ctx: SearchContext): Promise<SearchOutcome> {
    const initial = ctx.initial.state;
    const slots: number[] = [];
    const options = new Map<number, WordCandidate[]>();
    for (let i = 0; i < initial.seq.length; i++) {
      if (!ctx.modifiable(initial, i)) continue;
      const here = ctx.expand(initial, [i]).map((o) => o.candidate);
      if (here.length === 0) continue;
      slots.push(i);
      options.set(i, here);
    }
    if (slots.length === 0) return { final: ctx.initial, trace: [] };
    const generations = Math.max(1, Math.floor(this.generationRate * initial.seq.length));
    const trace: Scored[] = [];

    /** Replays genes in slot order on the original text; drops genes that no longer apply. Memoised: the
     *  elite, unchanged children and repeated mutations rebuild the same gene sets again and again. */
    const built = new Map<string, Built>();
    const build = (genes: Genes): Built => {
      const key = [...genes.keys()]
        .sort((a, b) => a - b)
        .map((slot) => geneKey(slot, genes.get(slot)!))
        .join('\u0001');
      let hit = built.get(key);
      if (!hit) {
        // Bounded: a long run of generations over a long text would otherwise keep every state it ever built.
        if (built.size >= MEMO_LIMIT) built.clear();
        built.set(key, (hit = { ...replay(genes), key }));
      }
      return hit;
    };
    /**
     * Each gene set's verdict, once: a member carried into the next generation, a child equal to its parent and the
     * same mutation of identical members are scored from here, not asked of the model again (same genes, same
     * replayed text and alignment, same verdict). Bounded as `built` is.
     */
    const verdicts = new Map<string, Scored>();
    const score = async (states: readonly Built[]): Promise<Scored[]> => {
      if (verdicts.size + states.length > MEMO_LIMIT) verdicts.clear();
      const ask = [...new Map(states.filter((b) => !verdicts.has(b.key)).map((b) => [b.key, b])).values()];
      const got = ask.length ? await ctx.evaluate(ask.map((b) => b.state)) : [];
      ask.forEach((b, k) => verdicts.set(b.key, got[k]!));
      return states.map((b) => verdicts.get(b.key)!);
    };
    const replay = (genes: Genes): { genes: Genes; state: AttackState } => {
      let state = initial;
      const kept = new Map<number, WordCandidate>();
      for (const slot of [...genes.keys()].sort((a, b) => a - b)) {
        const gene = genes.get(slot)!;
        const i = currentIndexOf(state, slot);
        if (i < 0 || !ctx.modifiable(state, i)) continue;
        const match = ctx.expand(state, [i]).find((o) => sameEdit(o.candidate, gene));
        if (!match) continue;
        state = match.state;
        kept.set(slot, gene);
      }
      return { genes: kept, state };
    };

    /**
     * Alzantot's Perturb for many members at once: one batch scores every variant. `spread` gives member k
     * the k-th position of a shuffled round-robin instead of an independent draw (used for the first
     * generation, so that 60 members try every position of a sentence of up to 60 words).
     */
    const mutate = async (members: Genes[], spread = false): Promise<Member[]> => {
      const variants: (Built & { owner: number })[] = [];
      const order = spread ? ctx.rng.shuffle(slots) : [];
      members.forEach((genes, owner) => {
        const current = build(genes);
        variants.push({ owner, ...current });
        const slot = spread ? order[owner % order.length] : this.pickSlot(ctx, current, slots);
        if (slot === undefined) return;
        for (const cand of options.get(slot)!) {
          const next = new Map(current.genes);
          next.set(slot, cand);
          const b = build(next);
          if (b.genes.has(slot)) variants.push({ owner, ...b });
        }
      });
      const scored = await score(variants);
      const best: (Member | undefined)[] = members.map(() => undefined);
      scored.forEach((s, k) => {
        const v = variants[k]!;
        const cur = best[v.owner];
        if (!cur || s.status.score > cur.scored.status.score) best[v.owner] = { genes: v.genes, scored: s };
      });
      return best.map((m) => m!);
    };

    let pop = await mutate(
      Array.from({ length: this.population }, () => new Map()),
      true,
    );
    for (let g = 0; ; g++) {
      const elite = bestOf(pop);
      trace.push(elite.scored);
      if (elite.scored.status.done || g >= generations) return { final: elite.scored, trace };
      const fitness = pop.map((m) => Math.max(0, m.scored.status.score));
      const children: Genes[] = [];
      for (let k = 1; k < this.population; k++) {
        const a = pop[ctx.rng.weighted(fitness)]!.genes;
        const b = pop[ctx.rng.weighted(fitness)]!.genes;
        children.push(this.crossover(ctx, a, b));
      }
      pop = [elite, ...(await mutate(children))];
    }
  }

  /** Uniform crossover over slots: each position takes its edit (or none) from either parent. */
  private crossover(ctx: SearchContext, a: Genes, b: Genes): Genes {
    const child = new Map<number, WordCandidate>();
    const all = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
    for (const slot of all) {
      const pick = ctx.rng.next() < 0.5 ? a.get(slot) : b.get(slot);
      if (pick) child.set(slot, pick);
    }
    return child;
  }

  /**
   * A random slot where a gene can go: a slot the member already edits (its edit may change), or a new
   * one that is still editable (the budget may be spent).
   */
  private pickSlot(ctx: SearchContext, built: { genes: Genes; state: AttackState }, slots: readonly number[]): number | undefined {
    for (const slot of ctx.rng.shuffle(slots)) {
      if (built.genes.has(slot)) return slot;
      const i = currentIndexOf(built.state, slot);
      if (i >= 0 && ctx.modifiable(built.state, i)) return slot;
    }
    return undefined;
  }
}

const MEMO_LIMIT = 20_000;

function bestOf(pop: readonly Member[]): Member {
  let best = pop[0]!;
  for (const m of pop) if (m.scored.status.score > best.scored.status.score) best = m;
  return best;
}

function geneKey(slot: number, c: WordCandidate): string {
  return `${slot}\u0000${c.type}\u0000${c.op ?? 'replace'}\u0000${c.after}`;
}

function sameEdit(a: WordCandidate, b: WordCandidate): boolean {
  return a.type === b.type && (a.op ?? 'replace') === (b.op ?? 'replace') && a.after === b.after;
}
