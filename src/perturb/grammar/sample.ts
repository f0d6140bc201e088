import type { WordCandidate } from '../../text/edits.ts';
import type { Rng } from '../../util/rng.ts';
import { GRAMMAR_ERROR_TYPES } from './confusion-sets.ts';
import { DEFAULT_ERROR_DISTRIBUTION, normalise, type ErrorDistribution } from './distribution.ts';

/**
 * How Wchoice's synonyms weigh when one is drawn: `ranked` = 1/(sense rank + 1), most frequent sense first (our
 * default); `uniform` = every synonym alike, as the paper does for Wchoice (it counts NUCLE only for ArtOrDet, Prep
 * and Trans).
 */
export const WCHOICE_WEIGHTS = ['ranked', 'uniform'] as const;
export type WchoiceWeights = (typeof WCHOICE_WEIGHTS)[number];

export interface SampleOptions {
  /** Default `ranked`. */
  wchoiceWeights?: WchoiceWeights;
}

/**
 * The probabilistic transformation's choice among the errors possible in a text: first an error type from
 * the distribution (renormalised over the types that apply somewhere in this text), then a position where
 * that type applies, uniformly, then one of that position's candidates by its confusion weight. Returns the
 * index into `candidates`, or -1 when there are none.
 */
export function sampleGrammarError(
  candidates: readonly WordCandidate[],
  rng: Rng,
  distribution: ErrorDistribution = DEFAULT_ERROR_DISTRIBUTION,
  opts: SampleOptions = {},
): number {
  if (candidates.length === 0) return -1;
  const p = normalise(distribution);
  const types = GRAMMAR_ERROR_TYPES.filter((t) => p[t] > 0 && candidates.some((c) => c.type === `grammar:${t}`));
  if (types.length === 0) return -1;
  const type = `grammar:${types[rng.weighted(types.map((t) => p[t]))]!}`;
  const ofType = candidates.map((c, k) => ({ c, k })).filter((x) => x.c.type === type);
  const positions = [...new Set(ofType.map((x) => x.c.wordIndex))];
  const position = positions[rng.int(positions.length)]!;
  const here = ofType.filter((x) => x.c.wordIndex === position);
  const weights = here.map((x) => (opts.wchoiceWeights === 'uniform' && x.c.type === 'grammar:Wchoice' ? 1 : weightOf(x.c)));
  return here[rng.weighted(weights)]!.k;
}

function weightOf(c: WordCandidate): number {
  const w = (c as WordCandidate & { weight?: unknown }).weight;
  return typeof w === 'number' ? w : 1;
}
