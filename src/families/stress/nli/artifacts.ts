/**
 * Annotation-artifacts test (Gururangan et al. 2018, as Aspillaga et al. 2020 run it): the premise removed.
 * A model that still beats the majority class reads the label off the hypothesis alone; the caller compares
 * its accuracy with the majority-class rate. The gold label is the original one; the premise is "".
 */
import { makePair } from './make.ts';
import type { NliPair, NliRuleOptions, StressPair } from './types.ts';

/** The pair with an empty premise. */
export function nliPremiseRemoved(pair: NliPair, opts: NliRuleOptions = {}): StressPair[] {
  return [
    makePair(
      pair,
      'premise-removed',
      {
        variant: 'premise-removed',
        premise: '',
        hypothesis: pair.hypothesis,
        edits: [{ field: 'premise', at: 0, from: pair.premise, to: '' }],
      },
      opts,
    ),
  ];
}
