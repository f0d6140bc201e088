import { QaF1Drop, type Goal, type GoalFactory } from '../attack/goals/index.ts';
import { guardUnmappable } from '../attack/goals/types.ts';
import { makeSubject, type SubjectOptions } from '../attack/subject.ts';
import type { Example } from '../data/types.ts';
import { addCounts, f1, type EntityCounts } from '../data/entities.ts';
import type { QueryEngine } from '../query/engine.ts';
import { bootstrap, type Interval } from '../stats/interval.ts';

/** Metrics of the model on unattacked examples, from {@link evaluateClean}; rates are fractions (0–1). */
export interface CleanMetrics {
  n: number;
  /** null over zero examples. */
  accuracy: number | null;
  /** Per gold label: examples and accuracy (classification). */
  per_label?: Record<string, { n: number; accuracy: number }>;
  /**
   * NER: the share of words (tokens of the data) whose predicted tag is the gold tag, over `tokens` words; its 95%
   * interval is a bootstrap over sentences (the words of one sentence are not independent).
   */
  token_accuracy?: number | null;
  tokens?: number;
  token_accuracy_interval?: Interval;
  /** NER: corpus entity F1, precision, recall; null when there was nothing to score (no gold entity, none predicted). */
  entity_f1?: number | null;
  entity_precision?: number | null;
  entity_recall?: number | null;
  /** Extractive QA: mean exact match and answer F1 (SQuAD v1.1, best over the gold answers); null over zero examples. */
  exact_match?: number | null;
  f1?: number | null;
  queries: number;
  wall_seconds: number;
}

/** Clean (unattacked) metrics, with the examples sent to the model in large shared batches. */
export async function evaluateClean(
  examples: AsyncIterable<Example>,
  engine: QueryEngine,
  goal: GoalFactory,
  subject: SubjectOptions = {},
  chunk = 512,
): Promise<CleanMetrics> {
  const started = Date.now();
  let n = 0;
  let correct = 0;
  let entities: EntityCounts = { tp: 0, fp: 0, fn: 0 };
  let sawEntities = false;
  const qa = goal instanceof QaF1Drop;
  let emSum = 0;
  let f1Sum = 0;
  const perLabel: Record<string, { n: number; correct: number }> = {};
  // NER: right tags and words per sentence (two numbers a sentence, for the bootstrap over sentences).
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
  };
  if (Object.keys(perLabel).length) {
    metrics.per_label = Object.fromEntries(Object.entries(perLabel).map(([label, s]) => [label, { n: s.n, accuracy: s.correct / s.n }]));
  }
  if (tagWords.length) {
    const ratio = (idx: Uint32Array): number | null => {
      let right = 0;
      let words = 0;
      for (const i of idx) {
        right += tagRight[i]!;
        words += tagWords[i]!;
      }
      return words ? right / words : null;
    };
    const interval = bootstrap(tagWords.length, ratio, { seed: 'eval/token_accuracy' });
    metrics.token_accuracy = interval.value;
    metrics.tokens = tagWords.reduce((a, b) => a + b, 0);
    metrics.token_accuracy_interval = interval;
  }
  if (sawEntities) {
    metrics.entity_f1 = f1(entities);
    metrics.entity_precision = entities.tp + entities.fp ? entities.tp / (entities.tp + entities.fp) : null;
    metrics.entity_recall = entities.tp + entities.fn ? entities.tp / (entities.tp + entities.fn) : null;
  }
  if (qa) {
    metrics.exact_match = n ? emSum / n : null;
    metrics.f1 = n ? f1Sum / n : null;
  }
  return metrics;
}
