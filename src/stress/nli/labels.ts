/**
 * The NLI label schemes, in one place: 3-way (MNLI, SNLI, SICK) and 2-way (QNLI, RTE). A rule that sets a
 * gold label sets entailment or contradiction; in the 2-way scheme contradiction is not_entailment.
 */
import { TextstressError } from '../../util/errors.ts';

/** Label names of each scheme, in index order. */
export const NLI_LABEL_SCHEMES = {
  '3-way': ['entailment', 'neutral', 'contradiction'],
  '2-way': ['entailment', 'not_entailment'],
} as const;

/** "3-way" (entailment / neutral / contradiction) or "2-way" (entailment / not_entailment). */
export type NliScheme = keyof typeof NLI_LABEL_SCHEMES;

/** A label of either scheme. */
export type NliLabel = (typeof NLI_LABEL_SCHEMES)[NliScheme][number];

/** The labels a generation rule can set by itself. */
export type NliRuleLabel = 'entailment' | 'contradiction';

/** The label a rule's verdict has in `scheme`: contradiction is not_entailment in the 2-way scheme. */
export function nliRuleLabel(label: NliRuleLabel, scheme: NliScheme): NliLabel {
  return scheme === '2-way' && label === 'contradiction' ? 'not_entailment' : label;
}

/** Is `label` one of the scheme's names? */
export function isNliLabel(label: string, scheme: NliScheme): label is NliLabel {
  return (NLI_LABEL_SCHEMES[scheme] as readonly string[]).includes(label);
}

/**
 * Checks a pair's gold label against the scheme, so that a generated pair never carries a label the
 * scheme does not have. `id` names the pair in the error.
 */
export function checkNliLabel(label: string, scheme: NliScheme, id: string): NliLabel {
  if (isNliLabel(label, scheme)) return label;
  throw new TextstressError(`pair ${JSON.stringify(id)} has the label ${JSON.stringify(label)}, which is not in the ${scheme} NLI scheme (${NLI_LABEL_SCHEMES[scheme].join(', ')}).`, {
    hint: 'Map the dataset labels to these names (--label-map), or pick the other scheme.',
  });
}
