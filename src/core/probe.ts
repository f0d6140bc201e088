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
import { guardUnmappable, UNMAPPABLE_CLEAN } from './goals/types.ts';
import type { ExampleResult } from './result.ts';
import { exampleFields, exampleInput, makeSubject, type SubjectOptions } from './subject.ts';

/** One rewritten version of an example: gold annotations already re-aligned, edits recorded for the report. */
export interface Variant {
  example: Example;
  edits: Edit[];
  /** The strings put in (e.g. the replacement names), kept per variant for analyses (ProbeRecord.samples). */
  names?: string[];
  /**
   * Each of `names` as the variant's text holds its first use: in the case it took there (a headline's MARIA), after a
   * space when it followed one (" Maria"), so that its pieces can be counted as the model saw them.
   */
  seen?: string[];
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
  skipReason?(example: Example): string | undefined | Promise<string | undefined>;
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
 * Whether a variant's answer is the clean one, the rewrite aside. A tagger's tags are compared token by token
 * outside the rewritten spans, and inside each by entity structure (a two-token name tagged B-PER I-PER and its
 * one-token replacement tagged B-PER answer the same); an answer span is compared with the rewrites undone in it
 * (the answer "John" to a question about John is the same answer as "Maria" once John became Maria).
 */
export function sameUnderEdits(clean: Prediction, variant: Prediction, edits: readonly Edit[]): boolean {
  if (clean.tags && variant.tags) {
    const spans = edits
      .filter((e) => e.field === 'tokens')
      .map((e) => ({ at: e.wordIndex, before: wordCount(e.before), after: wordCount(e.after) }));
    if (spans.every((s) => s.before === s.after)) return samePrediction(clean, variant);
    return JSON.stringify(collapse(clean.tags, spans, 'before')) === JSON.stringify(collapse(variant.tags, spans, 'after'));
  }
  if (clean.answer || variant.answer) {
    let text = variant.answer?.text ?? '';
    for (const e of edits) if (e.after) text = text.split(e.after).join(e.before);
    return text === (clean.answer?.text ?? '');
  }
  return samePrediction(clean, variant);
}

const wordCount = (s: string): number => (s ? s.split(' ').length : 0);

/**
 * Tags as units: one per token outside the rewritten spans, one per span holding its entity structure (I- tags
 * continuing an entity and repeated O dropped). `side` says whether the tags are of the original tokens or of the
 * rewritten ones (span positions are those of the rewritten example, in order).
 */
function collapse(
  tags: readonly string[],
  spans: readonly { at: number; before: number; after: number }[],
  side: 'before' | 'after',
): string[] {
  const out: string[] = [];
  let i = 0;
  let shift = 0; // original index = rewritten index − shift
  for (const s of spans) {
    const start = side === 'after' ? s.at : s.at - shift;
    const len = side === 'after' ? s.after : s.before;
    out.push(...tags.slice(i, start));
    const unit: string[] = [];
    for (const t of tags.slice(start, start + len)) {
      const prev = unit[unit.length - 1];
      if (t === 'O' ? prev === 'O' : t.startsWith('I-') && prev !== undefined && prev.slice(2) === t.slice(2)) continue;
      unit.push(t);
    }
    out.push(unit.join(' '));
    i = start + len;
    shift += s.after - s.before;
  }
  out.push(...tags.slice(i));
  return out;
}

/**
 * Runs a probe on one example: the clean answer, then all variants in one batch. The result holds the worst
 * variant as `perturbed` (best in `probe.best`); `succeeded` when any variant changed the prediction, `skipped` when
 * the probe has nothing to vary.
 */
export async function probeExample(probe: Probe, example: Example, session: QuerySession, rng: Rng): Promise<ExampleResult> {
  const subject = makeSubject(example, probe.subject);
  const [clean] = await session.query([exampleInput(example)]);
  const initial = guardUnmappable(probe.goal.create(example, clean!)).evaluate(clean!);
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
  const why = (initial.prediction.unmappable !== undefined ? UNMAPPABLE_CLEAN : undefined) ?? (await probe.skipReason?.(example));
  if (why) return unchanged(why);
  const variants = await probe.variants(example, rng, probe.budget);
  if (variants.length === 0) return unchanged(`${probe.name}: no variant could be made`);

  const outputs = await session.query(variants.map((v) => exampleInput(v.example)));
  const scored: { v: Variant; s: GoalStatus }[] = variants.map((v, k) => ({
    v,
    s: guardUnmappable(probe.goal.create(v.example, clean!)).evaluate(outputs[k]!),
  }));
  // Worst: lowest metric, then highest attack score, then first drawn; best: the reverse.
  let worst = scored[0]!;
  let best = scored[0]!;
  for (const x of scored) {
    if (x.s.metric < worst.s.metric || (x.s.metric === worst.s.metric && x.s.score > worst.s.score)) worst = x;
    if (x.s.metric > best.s.metric || (x.s.metric === best.s.metric && x.s.score < best.s.score)) best = x;
  }
  const changed = scored.filter((x) => !sameUnderEdits(initial.prediction, x.s.prediction, x.v.edits)).length;
  const samples = variants.some((v) => v.names)
    ? scored.map((x) => ({ names: x.v.names ?? [], metric: x.s.metric, ...(x.v.seen ? { seen: x.v.seen } : {}) }))
    : undefined;
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
      best: {
        fields: exampleFields(best.v.example),
        ...movedGold(example, best.v.example),
        prediction: best.s.prediction,
        correct: best.s.correct,
        edits: best.v.edits,
      },
      ...(samples ? { samples } : {}),
    },
  };
}
