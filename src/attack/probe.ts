/**
 * Probes: instead of searching for one adversarial edit path, evaluate B variants of an example (e.g. every
 * person name replaced by another sampled name, B times) and keep the worst and the best by the task's metric
 * (the entity paper's Algorithm 1). All variants of an example go to the model as one batch.
 */
import type { Example } from '../data/types.ts';
import type { QuerySession } from '../query/engine.ts';
import type { Edit } from '../text/edits.ts';
import type { Rng } from '../util/rng.ts';
import { goldOf, movedGold } from './attack.ts';
import type { GoalFactory, GoalStatus, Prediction } from './goals/index.ts';
import type { ExampleResult } from './result.ts';
import { exampleFields, exampleInput, makeSubject, type SubjectOptions } from './subject.ts';

/** One rewritten version of an example: gold annotations already re-aligned, edits recorded for the report. */
export interface Variant {
  example: Example;
  edits: Edit[];
}

/** A probe: draws `budget` rewritten variants of each example and reports the worst and best by the goal's `metric`. */
export interface Probe {
  readonly name: string;
  /** Scores each variant; `metric` ranks them (worst = lowest). */
  goal: GoalFactory;
  /** Variants per example (the paper's B). */
  budget: number;
  /** Which field the report shows as edited (default: the task's usual one). */
  subject?: SubjectOptions;
  /** Why there is nothing to probe in this example (e.g. no entity of the asked type), or undefined. */
  skipReason?(example: Example): string | undefined;
  /** Up to `budget` variants, drawn with the rng (with replacement: repeats are allowed). */
  variants(example: Example, rng: Rng, budget: number): Variant[] | Promise<Variant[]>;
}

/** Same answer: same top label, same tag sequence, or the same answer text. */
export function samePrediction(a: Prediction, b: Prediction): boolean {
  if (a.tags && b.tags) return a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags![i]);
  if (a.answer || b.answer) return (a.answer?.text ?? '') === (b.answer?.text ?? '');
  return a.label === b.label;
}

/**
 * Runs a probe on one example: the clean answer, then all variants in one batch. The result holds the worst
 * variant as `perturbed` (best in `probe.best`); `succeeded` when any variant changed the prediction, `skipped` when
 * the probe has nothing to vary.
 */
export async function probeExample(probe: Probe, example: Example, session: QuerySession, rng: Rng): Promise<ExampleResult> {
  const subject = makeSubject(example, probe.subject);
  const [clean] = await session.query([exampleInput(example)]);
  const initial = probe.goal.create(example, clean!).evaluate(clean!);
  const base = {
    id: example.id,
    ...(example.source ? { source: example.source } : {}),
    gold: goldOf(example),
    field: subject.field,
    original: exampleFields(example),
    original_prediction: initial.prediction,
    original_correct: initial.correct,
    // Probes rewrite whole examples (no window): every word of the field can be edited.
    num_words: subject.totalWords,
    trace: [],
  };
  const unchanged = (reason: string): ExampleResult => ({
    ...base,
    status: 'skipped',
    skip_reason: reason,
    perturbed: exampleFields(example),
    perturbed_prediction: initial.prediction,
    perturbed_correct: initial.correct,
    edits: [],
    words_perturbed: 0,
    perturbed_word_pct: 0,
    queries: session.queries,
    requests: session.requests,
    cache_hits: session.cacheHits,
  });
  const why = probe.skipReason?.(example);
  if (why) return unchanged(why);
  const variants = await probe.variants(example, rng, probe.budget);
  if (variants.length === 0) return unchanged(`${probe.name}: no variant could be made`);

  const outputs = await session.query(variants.map((v) => exampleInput(v.example)));
  const scored: { v: Variant; s: GoalStatus }[] = variants.map((v, k) => ({ v, s: probe.goal.create(v.example, clean!).evaluate(outputs[k]!) }));
  // Worst: lowest metric, then highest attack score, then first drawn; best: the reverse.
  let worst = scored[0]!;
  let best = scored[0]!;
  for (const x of scored) {
    if (x.s.metric < worst.s.metric || (x.s.metric === worst.s.metric && x.s.score > worst.s.score)) worst = x;
    if (x.s.metric > best.s.metric || (x.s.metric === best.s.metric && x.s.score < best.s.score)) best = x;
  }
  const changed = scored.filter((x) => !samePrediction(x.s.prediction, initial.prediction)).length;
  const words = worst.v.edits.length;
  return {
    ...base,
    status: changed > 0 ? 'succeeded' : 'failed',
    ...movedGold(example, worst.v.example),
    perturbed: exampleFields(worst.v.example),
    perturbed_prediction: worst.s.prediction,
    perturbed_correct: worst.s.correct,
    edits: worst.v.edits,
    words_perturbed: words,
    perturbed_word_pct: base.num_words ? (100 * words) / base.num_words : 0,
    queries: session.queries,
    requests: session.requests,
    cache_hits: session.cacheHits,
    probe: {
      variants: variants.length,
      changed,
      original_metric: initial.metric,
      worst_metric: worst.s.metric,
      best_metric: best.s.metric,
      best: { fields: exampleFields(best.v.example), prediction: best.s.prediction, correct: best.s.correct, edits: best.v.edits },
    },
  };
}
