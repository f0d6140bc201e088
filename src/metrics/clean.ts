import { QaF1Drop, type Goal, type GoalFactory } from '../core/goals/index.ts';
import { guardUnmappable } from '../core/goals/types.ts';
import { makeSubject, type SubjectOptions } from '../core/subject.ts';
import type { Example } from '../data/types.ts';
import { addCounts, f1, type EntityCounts } from '../data/entities.ts';
import type { QueryEngine } from '../query/engine.ts';
import { bootstrap, sameValueBounds, wilson, type Interval } from '../stats/index.ts';

/** Metrics of the model on unattacked examples, from {@link evaluateClean}; rates are fractions (0–1). */
export interface CleanMetrics {
  n: number;
  /** null over zero examples. */
  accuracy: number | null;
  /** Per gold label: examples and accuracy, with its Wilson 95% interval (classification). */
  per_label?: Record<string, { n: number; accuracy: number; accuracy_interval: Interval }>;
  /** NER: the share of words (tokens of the data) whose predicted tag is the gold tag, over `tokens` words. */
  token_accuracy?: number | null;
  tokens?: number;
  /** NER: corpus entity F1, precision, recall; null when there was nothing to score (no gold entity, none predicted). */
  entity_f1?: number | null;
  entity_precision?: number | null;
  entity_recall?: number | null;
  /** Extractive QA: mean exact match and answer F1 (SQuAD v1.1, best over the gold answers); null over zero examples. */
  exact_match?: number | null;
  f1?: number | null;
  queries: number;
  wall_seconds: number;
  /**
   * 95% intervals of the figures above, by their names (issue 34, as every run's summary has them): Wilson for the
   * shares (accuracy, exact match), a seeded bootstrap over examples for F1, entity precision and recall (corpus
   * figures of the resampled sentences' counts) — a cautious bound where every example gave one value. Token
   * accuracy's is a bootstrap over sentences too (the words of one sentence are not independent).
   */
  intervals: Partial<
    Record<'accuracy' | 'token_accuracy' | 'entity_f1' | 'entity_precision' | 'entity_recall' | 'exact_match' | 'f1', Interval>
  >;
}

/** What {@link evaluateClean} is told besides the data: the subject's options and the bootstrap's seed. */
export interface CleanOptions extends SubjectOptions {
  /** Seed of the bootstrap intervals (default 0). */
  seed?: number;
}

/** Clean (unattacked) metrics, with the examples sent to the model in large shared batches. */
export async function evaluateClean(
  examples: AsyncIterable<Example>,
  engine: QueryEngine,
  goal: GoalFactory,
  opts: CleanOptions = {},
  chunk = 512,
): Promise<CleanMetrics> {
  const { seed = 0, ...subject } = opts;
  const started = Date.now();
  let n = 0;
  let correct = 0;
  let entities: EntityCounts = { tp: 0, fp: 0, fn: 0 };
  let sawEntities = false;
  const qa = goal instanceof QaF1Drop;
  let emSum = 0;
  let f1Sum = 0;
  const perLabel: Record<string, { n: number; correct: number }> = {};
  const f1s: number[] = [];
  const counts: number[] = [];
  // NER: right tags and words per sentence.
  const tagRight: number[] = [];
  const tagWords: number[] = [];
  let batch: Example[] = [];
  const flush = async (): Promise<void> => {
    const subjects = batch.map((e) => makeSubject(e, subject));
    const outputs = await engine.query(subjects.map((s) => s.toInput(s.original)));
    batch.forEach((example, i) => {
      const out = outputs[i]!;
      const g: Goal = guardUnmappable(goal.create(example, out));
      const status = g.evaluate(out);
      n++;
      if (status.correct) correct++;
      if (example.kind === 'text' || example.kind === 'pair') {
        const slot = (perLabel[example.label] ??= { n: 0, correct: 0 });
        slot.n++;
        if (status.correct) slot.correct++;
      }
      const tags = status.prediction.tags;
      if (example.kind === 'tokens' && tags) {
        tagRight.push(example.tags.reduce((k, gold, w) => k + (tags[w] === gold ? 1 : 0), 0));
        tagWords.push(example.tags.length);
      }
      if (status.prediction.entities) {
        sawEntities = true;
        entities = addCounts(entities, status.prediction.entities);
      }
      emSum += status.prediction.em ?? 0;
      f1Sum += status.prediction.f1 ?? 0;
      // Per example, for the bootstrap intervals: its answer F1, or its entity counts (a few numbers each).
      if (qa) f1s.push(status.prediction.f1 ?? 0);
      if (status.prediction.entities) {
        const c = status.prediction.entities;
        counts.push(c.tp, c.fp, c.fn);
      }
    });
    batch = [];
  };
  for await (const example of examples) {
    batch.push(example);
    if (batch.length >= chunk) await flush();
  }
  if (batch.length) await flush();
  const metrics: CleanMetrics = {
    n,
    accuracy: n ? correct / n : null,
    queries: engine.stats.inferences,
    wall_seconds: (Date.now() - started) / 1000,
    intervals: { accuracy: wilson(correct, n) },
  };
  if (Object.keys(perLabel).length) {
    metrics.per_label = Object.fromEntries(
      Object.entries(perLabel).map(([label, s]) => [
        label,
        { n: s.n, accuracy: s.correct / s.n, accuracy_interval: wilson(s.correct, s.n) },
      ]),
    );
  }
  const boot = (name: string, units: number, stat: (idx: Uint32Array) => number | null): Interval => {
    const v = units ? stat(Uint32Array.from({ length: units }, (_, i) => i)) : null;
    return bootstrap(units, stat, {
      seed: `${seed}\u0001eval\u0001${name}`,
      ...(v === null ? {} : { degenerate: () => sameValueBounds(v, units, [0, 1]) }),
    });
  };
  if (tagWords.length) {
    const tokens = tagWords.reduce((a, b) => a + b, 0);
    metrics.token_accuracy = tokens ? tagRight.reduce((a, b) => a + b, 0) / tokens : null;
    metrics.tokens = tokens;
    metrics.intervals.token_accuracy = boot('token_accuracy', tagWords.length, (idx) => {
      let right = 0;
      let words = 0;
      for (const i of idx) {
        right += tagRight[i]!;
        words += tagWords[i]!;
      }
      return words ? right / words : null;
    });
  }
  if (sawEntities) {
    metrics.entity_f1 = f1(entities);
    metrics.entity_precision = entities.tp + entities.fp ? entities.tp / (entities.tp + entities.fp) : null;
    metrics.entity_recall = entities.tp + entities.fn ? entities.tp / (entities.tp + entities.fn) : null;
    // Corpus figures of the resampled sentences' summed counts.
    const sum = (idx: Uint32Array): EntityCounts => {
      const c = { tp: 0, fp: 0, fn: 0 };
      for (const i of idx) {
        c.tp += counts[3 * i]!;
        c.fp += counts[3 * i + 1]!;
        c.fn += counts[3 * i + 2]!;
      }
      return c;
    };
    const sentences = counts.length / 3;
    metrics.intervals.entity_f1 = boot('entity_f1', sentences, (idx) => f1(sum(idx)));
    metrics.intervals.entity_precision = boot('entity_precision', sentences, (idx) => {
      const c = sum(idx);
      return c.tp + c.fp ? c.tp / (c.tp + c.fp) : null;
    });
    metrics.intervals.entity_recall = boot('entity_recall', sentences, (idx) => {
      const c = sum(idx);
      return c.tp + c.fn ? c.tp / (c.tp + c.fn) : null;
    });
  }
  if (qa) {
    metrics.exact_match = n ? emSum / n : null;
    metrics.f1 = n ? f1Sum / n : null;
    // Exact match is right or wrong per question: Wilson.
    metrics.intervals.exact_match = wilson(Math.round(emSum), n);
    metrics.intervals.f1 = boot('f1', f1s.length, (idx) => {
      let t = 0;
      for (const i of idx) t += f1s[i]!;
      return idx.length ? t / idx.length : null;
    });
  }
  return metrics;
}
