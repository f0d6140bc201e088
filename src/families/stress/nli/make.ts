/** Building generated pairs: ids, the label (the rule's or the original) and the per-pair random stream. */
import { Rng } from '../../../util/rng.ts';
import { checkNliLabel, nliRuleLabel, type NliRuleLabel } from './labels.ts';
import type { NliEdit, NliPair, NliRuleOptions, NliStressTest, StressPair } from './types.ts';

/** What a rule decided for one generated pair. */
export interface Made {
  variant: string;
  premise: string;
  hypothesis: string;
  /** Set by rules that know the answer; absent = the original gold label. */
  label?: NliRuleLabel;
  hypothesisFrom?: 'premise' | 'hypothesis';
  edits: NliEdit[];
}

/** The generated pair for one decision of a rule of `test`. */
export function makePair(pair: NliPair, test: NliStressTest, made: Made, opts: NliRuleOptions): StressPair {
  const scheme = opts.scheme ?? '3-way';
  const original = checkNliLabel(pair.label, scheme, pair.id);
  return {
    id: `${pair.id}:${made.variant}`,
    sourceId: pair.id,
    test,
    variant: made.variant,
    premise: made.premise,
    hypothesis: made.hypothesis,
    label: made.label === undefined ? original : nliRuleLabel(made.label, scheme),
    labelFrom: made.label === undefined ? 'original' : 'rule',
    hypothesisFrom: made.hypothesisFrom ?? 'hypothesis',
    edits: made.edits,
  };
}

/**
 * The random stream of one rule on one pair: derived from the seed, the pair id and the test, so a pair's
 * output does not depend on which pairs or tests came before it.
 */
export function pairRng(pair: NliPair, test: NliStressTest, opts: NliRuleOptions): Rng {
  return Rng.derive(opts.seed ?? 0, pair.id, test);
}
