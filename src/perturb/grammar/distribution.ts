import { GRAMMAR_ERROR_TYPES, type GrammarErrorType } from './confusion-sets.ts';

/**
 * Default error-type distribution for the probabilistic ("average case") transformation, estimated from
 * NUCLE, the NUS Corpus of Learner English (Dahlmeier, Ng & Wu 2013), as published in the CoNLL-2014 shared
 * task overview (Ng et al. 2014, Table 3: error-type counts in the NUCLE training data, 1,397 essays).
 * Counts used (NUCLE category → our type), as transcribed from that table:
 *   ArtOrDet 6,658 · Prep 2,404 · Trans 1,377 · Nn 3,779 · SVA 1,527 · Vform 1,453 ·
 *   Wci (wrong collocation/idiom) 5,300 → Wchoice · WOinc 698 + WOadv 347 = 1,045 → Worder.
 * Normalised over these eight types (sum 23,543). Other NUCLE categories (Rloc-, Mec, Vt, Wform, …) have no
 * counterpart among the eight and are left out. Override with --error-types TYPE=WEIGHT,… .
 */
export const NUCLE_COUNTS: Readonly<Record<GrammarErrorType, number>> = {
  ArtOrDet: 6658,
  Prep: 2404,
  Trans: 1377,
  Nn: 3779,
  SVA: 1527,
  Vform: 1453,
  Wchoice: 5300,
  Worder: 1045,
};

export type ErrorDistribution = Partial<Record<GrammarErrorType, number>>;

/** The NUCLE-based default, as probabilities summing to 1. */
export const DEFAULT_ERROR_DISTRIBUTION: Readonly<Record<GrammarErrorType, number>> = normalise(NUCLE_COUNTS);

export function normalise(weights: ErrorDistribution): Record<GrammarErrorType, number> {
  const total = GRAMMAR_ERROR_TYPES.reduce((s, t) => s + Math.max(0, weights[t] ?? 0), 0);
  const out = {} as Record<GrammarErrorType, number>;
  for (const t of GRAMMAR_ERROR_TYPES) out[t] = total > 0 ? Math.max(0, weights[t] ?? 0) / total : 0;
  return out;
}
