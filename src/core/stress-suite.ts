/**
 * Stress tests (Naik et al. 2018; Aspillaga et al. 2020): per example, a fixed set of named tests, each making
 * rewritten copies of the example ("cases") with their own gold answer, or saying that it does not apply. The
 * unmodified example and every case a test makes from the example alone go to the model as one batch; an
 * adaptive test (a distractor improved over rounds, the worst of several adversarial copies) then queries the
 * model as often as it needs through the same session. Every query goes through the query engine, so the cases
 * of examples worked on at once share model batches.
 */
import type { Example } from '../data/types.ts';
import type { ModelInput, ModelOutput } from '../models/types.ts';
import type { QuerySession } from '../query/engine.ts';
import type { Edit } from '../text/edits.ts';
import { Rng } from '../util/rng.ts';
import { cooperative } from '../util/yield.ts';

/** One rewritten copy of an example, with its own gold answer (e.g. antonymy: contradiction). */
export interface StressCase<G = unknown> {
  /** The test that made it. */
  test: string;
  /** A finer name within the test (e.g. "tautology-premise-3"); default: the test's name. */
  variant?: string;
  /** What the model is asked. */
  input: ModelInput;
  /** Its gold answer: a label for classifiers, the gold answers for QA. Written to results as JSON. */
  gold: G;
  /** Its texts by field, as results and the report show them (e.g. premise and hypothesis). */
  text: Record<string, string>;
  /** What was changed, each edit's `field` a key of `text` and its `start` an offset in the original's text. */
  edits?: Edit[];
  /** For a field made from another field of the original (antonymy: the hypothesis from the premise): that field. */
  from?: Record<string, string>;
  /** QA: the gold answers at their offsets in the edited context (the browser draws them after the edit). */
  perturbedGold?: unknown;
}

/** How the model's answer to one case (or the original) is judged. */
export interface StressScore {
  /** The answer as results show it: a label, an answer text. */
  prediction: string;
  correct: boolean;
  /** How sure the model was of its answer (top class probability, span score), when it says. */
  confidence?: number;
  /** More per-case numbers in [0, 1], averaged per test beside accuracy (QA: em, f1). */
  metrics?: Record<string, number>;
}

/** A case with the model's answer and its score. */
export interface ScoredCase<G = unknown> {
  case: StressCase<G>;
  output: ModelOutput;
  score: StressScore;
  /** Anything an adaptive test wants kept with the case (rounds run, copies tried, …). */
  note?: Record<string, unknown>;
}

/** A test that does not apply to an example, and why (counted per test, never scored). */
export interface NotApplicable {
  notApplicable: string;
}

/** A test whose cases follow from the example alone: they go to the model in the example's one batch. */
export interface FixedStressTest<X = unknown, G = unknown> {
  name: string;
  kind?: 'fixed';
  /** The cases made from one example; none (or a NotApplicable) = the test does not apply to it. */
  cases(x: X, rng: Rng): StressCase<G>[] | NotApplicable;
  /** Why it made no case, when `cases` returns an empty list. */
  notApplicable?: string;
}

/** What an adaptive test may use while it works on one example. */
export interface AdaptiveContext<G = unknown> {
  /** Model answers to cases, scored, in order: one batch through the query engine (shared with other examples'). */
  evaluate(cases: readonly StressCase<G>[]): Promise<ScoredCase<G>[]>;
  /** The unmodified example, already answered and scored. */
  original: ScoredCase<G>;
  /** This test's own random stream on this example (derived from the seed, the example id and the test name). */
  rng: Rng;
  /** The example's query session (counts its distinct queries), for raw queries `evaluate` does not fit. */
  session: QuerySession;
}

/**
 * A test that queries the model while it builds its cases (Jia & Liang's AddAny: a distractor improved word by
 * word over rounds; AddSent: the worst of several adversarial copies). It returns the cases it settles on, scored.
 */
export interface AdaptiveStressTest<X = unknown, G = unknown> {
  name: string;
  kind: 'adaptive';
  run(x: X, ctx: AdaptiveContext<G>): Promise<ScoredCase<G>[] | NotApplicable>;
}

/** One named test of a stress suite: fixed cases, or an adaptive search. */
export type StressTest<X = unknown, G = unknown> = FixedStressTest<X, G> | AdaptiveStressTest<X, G>;

/**
 * A stress suite: how to read an example, its unmodified case, the tests in report order and how an answer is
 * scored. `X` is the suite's view of an example (e.g. a premise/hypothesis pair in its label scheme), `G` the
 * gold answer's type.
 */
export interface StressSuite<X = unknown, G = unknown> {
  readonly name: string;
  readonly tests: readonly StressTest<X, G>[];
  /** The example as the tests take it; a TextstressError naming the example when it cannot be read. */
  read(example: Example): X;
  /** The unmodified example as a case: each test's reduction is measured against it, on the same examples. */
  original(x: X): StressCase<G>;
  /** Judges one model answer against a case's gold. */
  score(c: StressCase<G>, output: ModelOutput): StressScore;
  /** Classifiers: golds and predictions are labels, and each test tallies gold × prediction (the error confusion). */
  confusion?: boolean;
  /** Tests left out of the worst-test figures (e.g. one compared with the majority class instead). */
  notInWorst?: readonly string[];
  /**
   * Tests whose cases carry golds of their own (set by the rule), so a reduction from the original answers on the
   * same examples compares different questions: their reduction is null and they stay out of max_reduction.
   */
  noReduction?: readonly string[];
}

/** One case of a result line, as results.jsonl keeps it. */
export interface StressCaseResult {
  test: string;
  variant: string;
  text: Record<string, string>;
  gold: unknown;
  prediction: string;
  correct: boolean;
  confidence?: number;
  metrics?: Record<string, number>;
  edits?: Edit[];
  from?: Record<string, string>;
  perturbed_gold?: unknown;
  note?: Record<string, unknown>;
}

/** One line of a stress run's results.jsonl: an example, its original answer, and every case of every test. */
export interface StressResult {
  id: string;
  source?: string;
  original: Omit<StressCaseResult, 'test' | 'variant' | 'edits' | 'from' | 'note'>;
  cases: StressCaseResult[];
  /** Tests that made no case for this example, with why. */
  not_applicable: Record<string, string>;
  /** Distinct inputs this example sent to the model, and all it asked for. */
  queries: number;
  requests: number;
}

const isNotApplicable = (x: unknown): x is NotApplicable => typeof x === 'object' && x !== null && 'notApplicable' in x;

/**
 * Runs a suite's tests on one example: the original and every fixed test's cases in one batch, then the adaptive
 * tests (at once, each with its own random stream). `seed` is the run's seed: each test draws from a stream
 * derived from it, the example id and the test's name, so a test makes the same cases whichever others run.
 */
export async function stressExample<X, G>(
  suite: StressSuite<X, G>,
  example: Example,
  session: QuerySession,
  seed: number | string,
): Promise<StressResult> {
  const x = suite.read(example);
  const rngOf = (test: string): Rng => Rng.derive(seed, example.id, test);
  const notApplicable: Record<string, string> = {};
  const fixed: StressCase<G>[] = [];
  // A test on a long text (QA noise on a 600k-character context) is CPU work of its own: signals wait for no more than one.
  const breathe = cooperative();
  for (const test of suite.tests) {
    if (test.kind === 'adaptive') continue;
    await breathe();
    const made = test.cases(x, rngOf(test.name));
    if (isNotApplicable(made) || made.length === 0) {
      notApplicable[test.name] = isNotApplicable(made) ? made.notApplicable : (test.notApplicable ?? 'no case could be made');
    } else {
      for (const c of made) fixed.push({ ...c, test: test.name });
    }
  }
  const evaluate = async (cases: readonly StressCase<G>[]): Promise<ScoredCase<G>[]> => {
    const outputs = await session.query(cases.map((c) => c.input));
    return cases.map((c, i) => ({ case: c, output: outputs[i]!, score: suite.score(c, outputs[i]!) }));
  };
  const [original, ...scored] = await evaluate([suite.original(x), ...fixed]);
  const adaptive = suite.tests.filter((t): t is AdaptiveStressTest<X, G> => t.kind === 'adaptive');
  const found = await Promise.all(adaptive.map((t) => t.run(x, { evaluate, original: original!, rng: rngOf(t.name), session })));
  // Cases in the suite's test order, fixed or adaptive.
  const byTest = new Map<string, ScoredCase<G>[]>();
  for (const s of scored) byTest.set(s.case.test, [...(byTest.get(s.case.test) ?? []), s]);
  adaptive.forEach((t, i) => {
    const got = found[i]!;
    if (isNotApplicable(got) || got.length === 0)
      notApplicable[t.name] = isNotApplicable(got) ? got.notApplicable : 'no case could be made';
    else
      byTest.set(
        t.name,
        got.map((s) => ({ ...s, case: { ...s.case, test: t.name } })),
      );
  });
  const o = original!;
  return {
    id: example.id,
    ...(example.source ? { source: example.source } : {}),
    original: { text: o.case.text, gold: o.case.gold, ...scoreFields(o.score) },
    cases: suite.tests.flatMap((t) => (byTest.get(t.name) ?? []).map(caseResult)),
    not_applicable: notApplicable,
    queries: session.queries,
    requests: session.requests,
  };
}

function scoreFields(s: StressScore): Pick<StressCaseResult, 'prediction' | 'correct' | 'confidence' | 'metrics'> {
  return {
    prediction: s.prediction,
    correct: s.correct,
    ...(s.confidence !== undefined ? { confidence: Math.round(s.confidence * 1e4) / 1e4 } : {}),
    ...(s.metrics ? { metrics: s.metrics } : {}),
  };
}

function caseResult<G>(s: ScoredCase<G>): StressCaseResult {
  const c = s.case;
  return {
    test: c.test,
    variant: c.variant ?? c.test,
    text: c.text,
    gold: c.gold,
    ...scoreFields(s.score),
    ...(c.edits?.length ? { edits: c.edits } : {}),
    ...(c.from ? { from: c.from } : {}),
    ...(c.perturbedGold !== undefined ? { perturbed_gold: c.perturbedGold } : {}),
    ...(s.note ? { note: s.note } : {}),
  };
}
