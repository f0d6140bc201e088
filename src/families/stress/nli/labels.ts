/**
 * The NLI label schemes, in one place: 3-way (MNLI, SNLI, SICK) and 2-way (QNLI, RTE). A rule that sets a
 * gold label sets entailment, neutral or contradiction; in the 2-way scheme the last two are not_entailment.
 */
import { TextstressError } from '../../../util/errors.ts';

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
export type NliRuleLabel = 'entailment' | 'neutral' | 'contradiction';

/** The label a rule's verdict has in `scheme`: neutral and contradiction are not_entailment in the 2-way scheme. */
export function nliRuleLabel(label: NliRuleLabel, scheme: NliScheme): NliLabel {
  return scheme === '2-way' && label !== 'entailment' ? 'not_entailment' : label;
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
  throw new TextstressError(
    `pair ${JSON.stringify(id)} has the label ${JSON.stringify(label)}, which is not in the ${scheme} NLI scheme (${NLI_LABEL_SCHEMES[scheme].join(', ')}).`,
    {
      hint: 'Map the dataset labels to these names (--label-map), or pick the other scheme.',
    },
  );
}

/** Spellings of the NLI labels that label sets use (SICK's ENTAILMENT, "not-entailment", "contradicts", …). */
const SPELLINGS: Readonly<Record<string, NliLabel>> = {
  entailment: 'entailment',
  entails: 'entailment',
  entailed: 'entailment',
  entail: 'entailment',
  neutral: 'neutral',
  contradiction: 'contradiction',
  contradicts: 'contradiction',
  contradict: 'contradiction',
  contradictory: 'contradiction',
  not_entailment: 'not_entailment',
  non_entailment: 'not_entailment',
  not_entailed: 'not_entailment',
  no_entailment: 'not_entailment',
};

/**
 * The NLI label a label name stands for, of either scheme: case, hyphens and spaces aside ("NOT-ENTAILMENT" →
 * not_entailment), with the common spellings ("entails", "contradictory"); undefined for anything else.
 */
export function nliLabelOf(name: string): NliLabel | undefined {
  return SPELLINGS[
    name
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
  ];
}

/** A label in `scheme`: in the 2-way scheme neutral and contradiction are not_entailment. */
export function inNliScheme(label: NliLabel, scheme: NliScheme): NliLabel {
  return scheme === '2-way' && (label === 'neutral' || label === 'contradiction') ? 'not_entailment' : label;
}

/** The scheme a set of NLI labels belongs to: 2-way when it holds not_entailment, 3-way when neutral or contradiction. */
export function nliSchemeOf(labels: Iterable<NliLabel>): NliScheme | undefined {
  const set = new Set(labels);
  if (set.has('not_entailment')) return '2-way';
  return set.has('neutral') || set.has('contradiction') ? '3-way' : undefined;
}
