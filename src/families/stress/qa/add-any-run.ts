/**
 * AddAny / AddCommon over many questions on one query engine, and their tally. Questions run `concurrency` at a
 * time, each on its own engine session; the engine gathers the queries issued at the same time into shared model
 * batches (cross-example batching), so with every question in step, one model call carries one step of all of
 * them. `concurrency: 1` runs one question after another: one model call per question per step.
 */
import type { QaExample } from '../../../data/types.ts';
import type { QueryEngine } from '../../../query/engine.ts';
import { TextstressError } from '../../../util/errors.ts';
import type { EmF1 } from './adversarial-squad.ts';
import { addAnyExample, type AddAnyOptions, type AddAnyOutcome } from './add-any.ts';

/** Options of {@link runAddAny}. */
export interface RunAddAnyOptions extends AddAnyOptions {
  /** Questions worked on at once, whose steps share model batches (default 32; 1 = no cross-example batching). */
  concurrency?: number;
}

/**
 * Runs AddAny or AddCommon on every question and returns the outcomes in input order. A question's outcome is
 * the same at any concurrency: its random choices are seeded by the seed and its id, and its choices depend only
 * on the model's answers to its own inputs (so on any adapter that answers an input the same whatever batch it
 * comes in, as the in-process ONNX models do; tested). The first error (a failed model call, an answer not at
 * its offset, the examples' source failing) stops the run: no new question starts, and it is thrown once the
 * questions in flight have finished.
 */
export async function runAddAny(
  examples: Iterable<QaExample> | AsyncIterable<QaExample>,
  engine: QueryEngine,
  opts: RunAddAnyOptions,
): Promise<AddAnyOutcome[]> {
  const concurrency = opts.concurrency ?? 32;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TextstressError(`concurrency must be a positive integer, got ${concurrency}.`, { where: 'AddAny options' });
  }
  const it = Symbol.asyncIterator in examples ? examples[Symbol.asyncIterator]() : examples[Symbol.iterator]();
  const out: AddAnyOutcome[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure) {
      let item: IteratorResult<QaExample>;
      try {
        item = await it.next();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (item.done || failure) return;
      const at = next++;
      try {
        out[at] = await addAnyExample(item.value, engine.session(), opts);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failure) throw failure.error;
  return out;
}

/** The tally of a set of outcomes: Jia & Liang's original vs adversarial EM/F1 (each 0–1), and the cost. */
export interface AddAnySummary {
  /** Questions given: attacked + skipped. */
  questions: number;
  attacked: number;
  skipped: number;
  /** Skipped questions per reason. */
  skipReasons: Record<string, number>;
  /** Mean EM/F1 over the attacked questions on the original paragraph, and with the final distractor; null over none. */
  original: EmF1 | null;
  adversarial: EmF1 | null;
  /** Attacked questions whose search stopped at F1 = 0 before spending its budget. */
  stoppedEarly: number;
  /** Mean model queries per attacked question (the clean one included); null over none. */
  queriesPerQuestion: number | null;
}

/** Tallies outcomes of {@link runAddAny} (or of addAnyExample one by one). */
export function summarizeAddAny(outcomes: readonly AddAnyOutcome[]): AddAnySummary {
  const skipReasons: Record<string, number> = {};
  const sum = { em: 0, f1: 0, advEm: 0, advF1: 0, queries: 0 };
  let attacked = 0;
  let stoppedEarly = 0;
  for (const o of outcomes) {
    if (o.status === 'skipped') {
      skipReasons[o.skipReason] = (skipReasons[o.skipReason] ?? 0) + 1;
      continue;
    }
    attacked++;
    sum.em += o.clean.em;
    sum.f1 += o.clean.f1;
    sum.advEm += o.attacked.em;
    sum.advF1 += o.attacked.f1;
    sum.queries += o.queries;
    if (o.stoppedEarly) stoppedEarly++;
  }
  const mean = (x: number): number | null => (attacked === 0 ? null : x / attacked);
  return {
    questions: outcomes.length,
    attacked,
    skipped: outcomes.length - attacked,
    skipReasons,
    original: attacked === 0 ? null : { em: sum.em / attacked, f1: sum.f1 / attacked },
    adversarial: attacked === 0 ? null : { em: sum.advEm / attacked, f1: sum.advF1 / attacked },
    stoppedEarly,
    queriesPerQuestion: mean(sum.queries),
  };
}
