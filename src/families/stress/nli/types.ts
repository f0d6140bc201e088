/**
 * What the NLI stress rules take and give: a premise/hypothesis pair with its gold label in, zero or more
 * generated pairs out, each naming its test, its gold label (the rule's where the rule sets one) and what
 * was changed.
 */
import type { NliLabel, NliScheme } from './labels.ts';

/** The stress tests of Naik et al. (2018) as Aspillaga et al. (2020) run them. */
export const NLI_STRESS_TESTS = [
  'word-overlap',
  'negation',
  'length-mismatch',
  'tautology',
  'spelling',
  'antonymy',
  'numerical',
  'premise-removed',
] as const;
/** One of {@link NLI_STRESS_TESTS}. */
export type NliStressTest = (typeof NLI_STRESS_TESTS)[number];

/** The paper's families of tests. */
export const NLI_TEST_FAMILY: Readonly<Record<NliStressTest, 'distraction' | 'noise' | 'competence' | 'annotation-artifacts'>> = {
  'word-overlap': 'distraction',
  negation: 'distraction',
  'length-mismatch': 'distraction',
  tautology: 'distraction',
  spelling: 'noise',
  antonymy: 'competence',
  numerical: 'competence',
  'premise-removed': 'annotation-artifacts',
};

/** The competence tests: their golds are set by the rule, so they report accuracy (per gold label), no reduction. */
export const NLI_COMPETENCE_TESTS: readonly NliStressTest[] = NLI_STRESS_TESTS.filter((t) => NLI_TEST_FAMILY[t] === 'competence');

/** A premise/hypothesis pair with its gold label. */
export interface NliPair {
  id: string;
  premise: string;
  hypothesis: string;
  label: string;
}

/** One change a rule made. */
export interface NliEdit {
  /** The field of the generated pair that holds the change. */
  field: 'premise' | 'hypothesis';
  /**
   * Character offset of `from` in the text the change was made to: the original field, or the premise for a
   * hypothesis made from the premise (see {@link StressPair.hypothesisFrom}).
   */
  at: number;
  /** The text replaced ("" for an insertion). */
  from: string;
  /** The text put there ("" for a removal). */
  to: string;
}

/** A generated pair. */
export interface StressPair {
  /** `<original id>:<variant>`, unique per original pair. */
  id: string;
  /** The id of the pair it was made from. */
  sourceId: string;
  test: NliStressTest;
  /** The rule variant, e.g. "tautology-premise-3", "numerical-more-than". */
  variant: string;
  premise: string;
  hypothesis: string;
  /** Gold label in the run's scheme. */
  label: NliLabel;
  /** "rule" when the rule set the label (antonymy, numerical), else "original". */
  labelFrom: 'rule' | 'original';
  /** "premise" when the hypothesis is an edited copy of the premise (competence tests). */
  hypothesisFrom: 'premise' | 'hypothesis';
  edits: NliEdit[];
}

/** Options every rule takes. */
export interface NliRuleOptions {
  /** Label scheme of the data; default "3-way". */
  scheme?: NliScheme;
  /** Seed of the rules that choose at random (spelling, antonymy, numerical); default 0. */
  seed?: number | string;
}
