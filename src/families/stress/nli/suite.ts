/**
 * The NLI stress suite on the spine: each pair read as premise and hypothesis (the user says which text is
 * which), every rule of src/families/stress/nli as a fixed test, and the model's answer read in the run's label scheme.
 * The model always gets the pair in the data's own order (textA, textB), whichever of them is the premise, so a
 * QNLI model trained on (question, sentence) is asked the way it was trained.
 */
import type { StressCase, StressSuite } from '../../../core/stress-suite.ts';
import type { Example } from '../../../data/types.ts';
import type { ModelInput, ModelOutput } from '../../../models/types.ts';
import type { Edit } from '../../../text/edits.ts';
import { NLI_RULES, type NliStressOptions } from './index.ts';
import { NLI_LABEL_SCHEMES, type NliLabel } from './labels.ts';
import { NLI_COMPETENCE_TESTS, type NliEdit, type NliPair, type NliStressTest, type StressPair } from './types.ts';
import { TextstressError } from '../../../util/errors.ts';
import type { NliLabelPlan } from './label-mapping.ts';

/** Why a test made no pair for a premise/hypothesis pair. */
export const NOT_APPLICABLE: Partial<Record<NliStressTest, string>> = {
  spelling: 'no hypothesis word of four or more letters to misspell',
  antonymy: 'no adjective or noun of the premise has a WordNet antonym in its sense and context',
  numerical: 'no count of two or more before a noun in the premise',
};

/** What the suite is built from. */
export interface NliSuiteOptions {
  tests: readonly NliStressTest[];
  labels: NliLabelPlan;
  /** Which text of the data's pairs is the premise (the other is the hypothesis). */
  premiseIs: 'textA' | 'textB';
  seed: number;
  maxTautologies: number;
}

/** The NLI stress suite: pairs read as premise/hypothesis with golds in the scheme, every chosen rule a test. */
export function nliStressSuite(o: NliSuiteOptions): StressSuite<NliPair, NliLabel> {
  const { scheme } = o.labels;
  const ruleOpts: NliStressOptions = { scheme, seed: o.seed, maxN: o.maxTautologies };
  const input = (premise: string, hypothesis: string): ModelInput =>
    o.premiseIs === 'textA' ? { kind: 'pair', textA: premise, textB: hypothesis } : { kind: 'pair', textA: hypothesis, textB: premise };
  const toCase = (p: StressPair): StressCase<NliLabel> => ({
    test: p.test,
    variant: p.variant,
    input: input(p.premise, p.hypothesis),
    gold: p.label,
    text: { premise: p.premise, hypothesis: p.hypothesis },
    edits: toEdits(p),
    ...(p.hypothesisFrom === 'premise' ? { from: { hypothesis: 'premise' } } : {}),
  });
  const schemeOfModel = (label: string, output: string[]): NliLabel => {
    const i = output.indexOf(label);
    return o.labels.model[i]! as NliLabel;
  };
  return {
    name: 'stress-nli',
    confusion: true,
    // The annotation-artifacts test is compared with the majority class, not counted as a failure of reading.
    notInWorst: ['premise-removed'],
    // The competence tests' golds are the rules' (antonymy: contradiction), not the pairs': a reduction from the
    // original answers would compare different questions, and the paper gives none.
    noReduction: NLI_COMPETENCE_TESTS,
    read(example: Example): NliPair {
      if (example.kind !== 'pair') {
        throw new TextstressError(
          `the NLI stress tests need premise/hypothesis pairs, but ${example.source ?? example.id} is a ${example.kind} example.`,
        );
      }
      const label = o.labels.data.get(example.label);
      if (label === undefined) {
        throw new TextstressError(
          `the gold label "${example.label}" cannot be mapped to the ${scheme} NLI labels (${NLI_LABEL_SCHEMES[scheme].join(', ')}).`,
          {
            where: example.source ?? example.id,
            hint: 'Map it with --label-map.',
          },
        );
      }
      const [premise, hypothesis] = o.premiseIs === 'textA' ? [example.textA, example.textB] : [example.textB, example.textA];
      return { id: example.id, premise, hypothesis, label };
    },
    original: (x) => ({
      test: 'original',
      input: input(x.premise, x.hypothesis),
      gold: x.label as NliLabel,
      text: { premise: x.premise, hypothesis: x.hypothesis },
    }),
    score(c, output: ModelOutput) {
      if (output.kind !== 'classes')
        throw new TextstressError(`the NLI stress tests need a classifier, but the model answered with ${output.kind}.`);
      // The scheme's probability of a label is the sum over the model labels it stands for (2-way on a 3-way
      // model: P(not_entailment) = P(neutral) + P(contradiction)).
      const probs = new Map<NliLabel, number>(NLI_LABEL_SCHEMES[scheme].map((l) => [l, 0]));
      output.labels.forEach((l, i) => {
        const nli = schemeOfModel(l, output.labels);
        probs.set(nli, (probs.get(nli) ?? 0) + output.probs[i]!);
      });
      let best: [NliLabel, number] = [NLI_LABEL_SCHEMES[scheme][0], -1];
      for (const [l, p] of probs) if (p > best[1]) best = [l, p];
      return { prediction: best[0], correct: best[0] === c.gold, confidence: best[1] };
    },
    tests: o.tests.map((test) => ({
      name: test,
      ...(NOT_APPLICABLE[test] ? { notApplicable: NOT_APPLICABLE[test] } : {}),
      cases: (x: NliPair) => NLI_RULES[test](x, ruleOpts).map(toCase),
    })),
  };
}

/**
 * A rule's edits as report edits, per field in text order, each `start` moved by the edits before it (a rule
 * gives every offset in the text it started from: "an old man" → "a young man" is two edits).
 */
export function toEdits(p: StressPair): Edit[] {
  const out: Edit[] = [];
  for (const field of ['premise', 'hypothesis'] as const) {
    let shift = 0;
    for (const e of p.edits.filter((x: NliEdit) => x.field === field).sort((a, b) => a.at - b.at)) {
      const start = e.at + shift;
      // The generated text before `start` is the source text with the earlier edits made: count its words.
      const wordIndex = p[field].slice(0, start).split(/\s+/).filter(Boolean).length;
      out.push({ type: `nli:${p.test}`, field, wordIndex, start, before: e.from, after: e.to });
      shift += e.to.length - e.from.length;
    }
  }
  return out;
}
