/**
 * The QA stress suite on the spine (Aspillaga et al. 2020, Table 4, on SQuAD v1.1): AddSent and AddOneSent (the
 * worst of Jia & Liang's adversarial copies of a question), AddAny and AddCommon (distractors searched
 * against other models, the worst set kept, as the paper's Table 4; and the same search against the model itself,
 * on questions it had right, as rows of their own), and noise on every context word with the gold spans re-mapped. A case's
 * `gold` is the original answers at their offsets and `perturbedGold` the answers in its edited context, so the
 * report can draw both; it is scored on the answer texts (SQuAD EM/F1, best over the gold answers).
 */
import type { AdaptiveContext, NotApplicable, ScoredCase, StressCase, StressSuite, StressTest } from '../../../core/stress-suite.ts';
import { asSpans } from '../../../core/goals/types.ts';
import { bestOverGold } from '../../../data/answers.ts';
import type { Example, QaAnswer, QaExample } from '../../../data/types.ts';
import type { ModelOutput } from '../../../models/types.ts';
import type { NoiseType } from '../../../perturb/noise/noise.ts';
import { addAnyExample, type AddAnyVariant } from './add-any.ts';
import { checkAnswerOffsets } from './checks.ts';
import { qaContextNoise } from './noise.ts';
import type { Edit } from '../../../text/edits.ts';
import { TextstressError } from '../../../util/errors.ts';
import type { AdversarialSet } from './adversarial.ts';
import type { QaStressTest } from './settings.ts';
import type { TransferCopy, TransferSet, TransferSets } from './transfer.ts';

/** What the suite is built from. */
export interface QaSuiteOptions {
  tests: readonly QaStressTest[];
  seed: number;
  /** The adversarial files of AddSent / AddOneSent (null: not found, so the test applies to no question). */
  adversarial: { addsent: AdversarialSet | null; addonesent: AdversarialSet | null };
  /** Whether a question may get AddAny/AddCommon (the run's cap, by its position in the run). */
  adaptive: (id: string) => boolean;
  adaptiveLimit: number;
  /** The alternative adversarial sets of the AddAny / AddCommon rows, per type (those used and those left out). */
  transfer: Record<AddAnyVariant, TransferSets>;
  /** Identity of the model under test (recorded with the adversaries searched against it). */
  target: string;
}

type QaCase = StressCase<QaAnswer[]>;
type Ctx = AdaptiveContext<QaAnswer[]>;

const input = (question: string, context: string) => ({ kind: 'qa' as const, question, context });

/** One edit for the text `after` made by inserting into (or changing the middle of) `before`. */
export function middleEdit(before: string, after: string, type: string, field: string): Edit {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  const wordIndex = before.slice(0, p).split(/\s+/).filter(Boolean).length;
  return { type, field, wordIndex, start: p, before: before.slice(p, before.length - s), after: after.slice(p, after.length - s) };
}

/** The worst copy (lowest F1, the first on a tie) of an original question, as Jia & Liang score AddSent. */
async function worstCopy(
  x: QaExample,
  set: AdversarialSet | null,
  test: 'addsent' | 'addonesent',
  ctx: Ctx,
): Promise<ScoredCase<QaAnswer[]>[] | NotApplicable> {
  const name = test === 'addsent' ? 'AddSent' : 'AddOneSent';
  if (!set) return { notApplicable: `no ${name} file found (pass --${test})` };
  const copies = set.copies.get(x.id);
  if (!copies?.length) return { notApplicable: `no adversarial copy of this question in the ${name} file` };
  const cases: QaCase[] = copies.map((c) => ({
    test,
    input: input(c.question, c.context),
    gold: x.answers,
    perturbedGold: c.answers,
    text: { question: c.question, context: c.context },
    edits: [middleEdit(x.context, c.context, `distraction:${test}`, 'context')],
  }));
  const scored = await ctx.evaluate(cases);
  let worst = 0;
  for (let i = 1; i < scored.length; i++) if (scored[i]!.score.metrics!.f1! < scored[worst]!.score.metrics!.f1!) worst = i;
  return [{ ...scored[worst]!, note: { copies: copies.length, copy: copies[worst]!.id } }];
}

/** AddAny / AddCommon on a question the model had right, within the run's cap. */
async function addAny(
  x: QaExample,
  variant: AddAnyVariant,
  o: QaSuiteOptions,
  ctx: Ctx,
): Promise<ScoredCase<QaAnswer[]>[] | NotApplicable> {
  if (!o.adaptive(x.id)) return { notApplicable: `beyond the first ${o.adaptiveLimit} questions of the run (--adaptive-limit)` };
  if (ctx.original.score.metrics!.f1 === 0) return { notApplicable: 'the model had it wrong (F1 = 0): nothing to attack' };
  const out = await addAnyExample(x, ctx.session, { variant, seed: o.seed });
  if (out.status === 'skipped') return { notApplicable: out.skipReason };
  // The final distractor was already asked for: the engine answers it again from its cache.
  const [scored] = await ctx.evaluate([
    {
      test: variant,
      input: input(x.question, out.example.context),
      gold: x.answers,
      perturbedGold: out.example.answers,
      text: { question: x.question, context: out.example.context },
      edits: out.edits,
    },
  ]);
  return [
    {
      ...scored!,
      note: { source: o.target, distractor: out.sentence, rounds: out.rounds, steps: out.steps, stopped_early: out.stoppedEarly },
    },
  ];
}

/** Why the AddAny / AddCommon row has no set to score a question on. */
function noSets(variant: AddAnyVariant, sets: TransferSets): string {
  const name = variant === 'addany' ? 'AddAny' : 'AddCommon';
  if (sets.excluded.length)
    return `every ${name} set given was generated against this model (left out, as in the paper): no set from another model`;
  return `no ${name} sets from other models (give --addany-from RUN or --addany-models M)`;
}

/** One set's adversary for a question: read from an earlier run, or searched now against the set's source model. */
async function adversaryOf(x: QaExample, set: TransferSet, variant: AddAnyVariant, seed: number): Promise<TransferCopy | string> {
  if (set.copies) {
    const c = set.copies.get(x.id);
    if (!c) return `no adversary for this question in the set ${set.name}`;
    if (c.question !== x.question || !c.context.startsWith(x.context))
      throw new TextstressError(
        `the ${variant} adversary of question ${x.id} in ${set.origin} was made from another question or paragraph.`,
        {
          hint: 'Give --addany-from runs over the same data as this run.',
        },
      );
    return c;
  }
  const out = await addAnyExample(x, set.model!.session(), { variant, seed });
  if (out.status === 'skipped') return out.skipReason;
  return { question: x.question, context: out.example.context, answers: out.example.answers, distractor: out.sentence };
}

/**
 * The paper's AddAny / AddCommon row on one question: the model scored on the question's adversary in every
 * alternative set (one case per set, its variant the set's name). A question missing from a set applies to none,
 * so that every set is scored over the same questions and the worst set can be picked (tables.ts).
 */
async function transferRow(
  x: QaExample,
  variant: AddAnyVariant,
  o: QaSuiteOptions,
  ctx: Ctx,
): Promise<ScoredCase<QaAnswer[]>[] | NotApplicable> {
  const sets = o.transfer[variant];
  if (sets.used.length === 0) return { notApplicable: noSets(variant, sets) };
  const found = await Promise.all(sets.used.map((set) => adversaryOf(x, set, variant, o.seed)));
  const missing = found.find((f): f is string => typeof f === 'string');
  if (missing !== undefined) return { notApplicable: missing };
  const copies = found as TransferCopy[];
  const scored = await ctx.evaluate(
    copies.map((c, i) => ({
      test: variant,
      variant: sets.used[i]!.name,
      input: input(x.question, c.context),
      gold: x.answers,
      perturbedGold: c.answers ?? x.answers,
      text: { question: x.question, context: c.context },
      edits: [middleEdit(x.context, c.context, `distraction:${variant}`, 'context')],
    })),
  );
  return scored.map((s, i) => ({
    ...s,
    // A set read from an earlier run keeps naming it; one searched here is this run's own (its results file).
    note: {
      source: sets.used[i]!.source,
      ...(sets.used[i]!.copies ? { origin: sets.used[i]!.origin } : {}),
      ...(copies[i]!.distractor ? { distractor: copies[i]!.distractor } : {}),
    },
  }));
}

/** One noise type on every context word outside the gold spans. */
function noiseCases(x: QaExample, type: NoiseType, seed: number): QaCase[] | NotApplicable {
  const n = qaContextNoise(x, type, { seed });
  if (n.eligible === 0) return { notApplicable: 'every context word is inside a gold answer' };
  const c = n.example;
  return [
    {
      test: `noise-${type}`,
      input: input(c.question, c.context),
      gold: x.answers,
      perturbedGold: c.answers,
      text: { question: c.question, context: c.context },
      edits: n.edits,
    },
  ];
}

/** The QA stress suite: SQuAD questions, every chosen test, SQuAD EM/F1 per case. */
export function qaStressSuite(o: QaSuiteOptions): StressSuite<QaExample, QaAnswer[]> {
  const test = (name: QaStressTest): StressTest<QaExample, QaAnswer[]> => {
    if (name === 'addsent' || name === 'addonesent')
      return { name, kind: 'adaptive', run: (x, ctx) => worstCopy(x, o.adversarial[name], name, ctx) };
    if (name === 'addany' || name === 'addcommon') return { name, kind: 'adaptive', run: (x, ctx) => transferRow(x, name, o, ctx) };
    if (name === 'addany-adaptive' || name === 'addcommon-adaptive') {
      const variant = name === 'addany-adaptive' ? 'addany' : 'addcommon';
      return { name, kind: 'adaptive', run: (x, ctx) => addAny(x, variant, o, ctx) };
    }
    const type = name.slice('noise-'.length) as NoiseType;
    return { name, cases: (x) => noiseCases(x, type, o.seed) };
  };
  return {
    name: 'stress-qa',
    read(example: Example): QaExample {
      if (example.kind !== 'qa')
        throw new TextstressError(
          `the QA stress tests need SQuAD-style questions, but ${example.source ?? example.id} is a ${example.kind} example.`,
        );
      if (example.answers.length === 0) {
        throw new TextstressError('the question has no gold answer: EM/F1 cannot be scored.', {
          where: example.source ?? example.id,
          hint: 'Remove the question or give it its answers.',
        });
      }
      checkAnswerOffsets(example, 'the QA stress tests');
      return example;
    },
    original: (x) => ({
      test: 'original',
      input: input(x.question, x.context),
      gold: x.answers,
      text: { question: x.question, context: x.context },
    }),
    score(c, output: ModelOutput) {
      const best = asSpans(output).spans[0];
      const golds = ((c.perturbedGold as QaAnswer[] | undefined) ?? c.gold).map((a) => a.text);
      const { em, f1 } = bestOverGold(best?.text ?? '', golds);
      return { prediction: best?.text ?? '', correct: em === 1, ...(best ? { confidence: best.score } : {}), metrics: { em, f1 } };
    },
    tests: o.tests.map(test),
  };
}
