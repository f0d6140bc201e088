/**
 * Scoring names on examples: every mention of the type replaced by one name (forcedPlan), the variant and the
 * original scored by the task's goal, all of one call's inputs sent to the model together (the query engine cuts
 * them into shared batches and answers repeats from its cache).
 */
import type { GoalFactory } from '../../../core/goals/index.ts';
import { exampleInput } from '../../../core/subject.ts';
import { f1, type EntityCounts } from '../../../data/entities.ts';
import type { Example } from '../../../data/types.ts';
import { applyPlan, forcedPlan } from '../../../entities/index.ts';
import type { EntityType, Mention } from '../../../entities/types.ts';
import type { ModelInput, ModelOutput } from '../../../models/types.ts';

/** An example with its mentions (of every type the annotator found). */
export interface Item {
  example: Example;
  mentions: Mention[];
}

/** One answer as the task scores it. */
export interface Scored {
  /** The goal's per-example metric: 1/0 accuracy, the sentence's entity F1, answer F1. */
  metric: number;
  correct: boolean;
  entities?: EntityCounts;
  em?: number;
  f1?: number;
}

/** A name to try on some items. */
export interface Job {
  name: string;
  items: readonly Item[];
}

/** A job's scores: the originals and the variants, item by item. */
export interface JobScores {
  original: Scored[];
  variant: Scored[];
}

type Query = (inputs: readonly ModelInput[]) => Promise<ModelOutput[]>;

/** The item with every mention of `type` replaced by `name`. */
export function variantOf(item: Item, type: EntityType, name: string): Example {
  return applyPlan(item.example, item.mentions, forcedPlan(item.mentions, type, name)).example;
}

function scored(goal: GoalFactory, example: Example, clean: ModelOutput, out: ModelOutput): Scored {
  const s = goal.create(example, clean).evaluate(out);
  const p = s.prediction;
  return {
    metric: s.metric,
    correct: s.correct,
    ...(p.entities ? { entities: p.entities } : {}),
    ...(p.em !== undefined ? { em: p.em } : {}),
    ...(p.f1 !== undefined ? { f1: p.f1 } : {}),
  };
}

/** Scores every job's variants against the originals; one query call for all (each original asked once). */
export async function scoreJobs(jobs: readonly Job[], type: EntityType, goal: GoalFactory, query: Query): Promise<JobScores[]> {
  const originals = new Map<Item, number>();
  for (const job of jobs) for (const item of job.items) if (!originals.has(item)) originals.set(item, originals.size);
  const variants = jobs.map((job) => job.items.map((item) => variantOf(item, type, job.name)));
  const outs = await query([...[...originals.keys()].map((i) => exampleInput(i.example)), ...variants.flat().map(exampleInput)]);
  const originalScores = new Map<Item, { out: ModelOutput; s: Scored }>();
  for (const [item, k] of originals) originalScores.set(item, { out: outs[k]!, s: scored(goal, item.example, outs[k]!, outs[k]!) });
  let at = originals.size;
  return jobs.map((job, j) => ({
    original: job.items.map((item) => originalScores.get(item)!.s),
    variant: job.items.map((item, i) => scored(goal, variants[j]![i]!, originalScores.get(item)!.out, outs[at++]!)),
  }));
}

/** How many variants scored below / above their original (the task metric fell / rose). */
export function compare(scores: JobScores): { n: number; worse: number; better: number } {
  let worse = 0;
  let better = 0;
  scores.variant.forEach((v, i) => {
    const o = scores.original[i]!.metric;
    if (v.metric < o) worse++;
    else if (v.metric > o) better++;
  });
  return { n: scores.variant.length, worse, better };
}

/** A split's numbers: the task's headline metric and the ones it is made of; null over zero examples. */
export interface SplitMetrics {
  n: number;
  /** Accuracy (classifiers), corpus entity F1 (taggers), answer F1 (QA). */
  metric: number | null;
  /** Share of examples answered correctly (taggers: every entity right). */
  accuracy: number | null;
  /** QA only: exact match. */
  em?: number | null;
}

/** The split metrics of scored answers (`kind`: the examples' kind, which decides the headline metric). */
export function splitMetrics(xs: readonly Scored[], kind: Example['kind']): SplitMetrics {
  const n = xs.length;
  const mean = (f: (s: Scored) => number): number | null => (n ? xs.reduce((a, s) => a + f(s), 0) / n : null);
  const accuracy = mean((s) => (s.correct ? 1 : 0));
  if (kind === 'tokens') {
    const c = xs.reduce(
      (a, s) => ({ tp: a.tp + (s.entities?.tp ?? 0), fp: a.fp + (s.entities?.fp ?? 0), fn: a.fn + (s.entities?.fn ?? 0) }),
      { tp: 0, fp: 0, fn: 0 },
    );
    return { n, metric: n ? f1(c) : null, accuracy };
  }
  if (kind === 'qa') return { n, metric: mean((s) => s.f1 ?? 0), accuracy, em: mean((s) => s.em ?? 0) };
  return { n, metric: accuracy, accuracy };
}
