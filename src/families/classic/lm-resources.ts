/**
 * The resources a TextBugger, BAE or TextFooler run opens from its settings (word vectors, a sentence encoder, a
 * masked LM), what the run records about them (summary.json `details.resources`: what was used, or what was used
 * instead and why), and what each example cost them (`resource_queries` in its result, summed in the summary).
 */
import type { EmbeddingsInfo, WordEmbeddings } from '../../data/embeddings/index.ts';
import { SentenceSimilarity, type SimilarityOptions } from '../../core/sentence-similarity.ts';
import type { AttackSubject } from '../../core/subject.ts';
import type { MaskedLm } from '../../models/lm/masked-lm.ts';
import type { BuildContext, ResultsDigest } from '../../recipes/registry/define.ts';
import { bootstrapMean, type Interval } from '../../stats/index.ts';
import type { Attack } from '../../core/attack.ts';
import type { Constraint } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { GreedyWordSwapWIR, type WirMethod } from '../../core/search/greedy-wir.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import type { Transformation } from '../../core/transformation.ts';
import type { EDITABLE_FIELDS } from '../../recipes/shared.ts';
import { classicSubject, textAttackDetails } from './shared.ts';

/** What a recipe asks for (null: not given). */
export interface ResourceSpecs {
  embeddings?: string | null;
  sentenceEncoder?: string | null;
  mlm?: string | null;
  /** The recipe's sentence-similarity constraint, used when there is a sentence encoder. */
  similarity?: SimilarityOptions;
}

/**
 * Per-example counters (an example is one subject; examples run concurrently): what each example asked for, distinct,
 * so that a result does not depend on which example happened to fill a shared cache first.
 */
export class ExampleCounts {
  private readonly counts = new WeakMap<AttackSubject, Map<string, Set<string>>>();

  /** Records that the example asked `key` for these items (words searched, masked texts filled). */
  add(subject: AttackSubject, key: string, items: readonly string[]): void {
    const c = this.counts.get(subject) ?? new Map<string, Set<string>>();
    this.counts.set(subject, c);
    const set = c.get(key) ?? new Set<string>();
    c.set(key, set);
    for (const x of items) set.add(x);
  }

  of(subject: AttackSubject): Record<string, number> {
    return Object.fromEntries([...(this.counts.get(subject) ?? new Map<string, Set<string>>())].map(([k, v]) => [k, v.size]));
  }
}

/** The opened resources of one run. */
export interface LmResources {
  embeddings?: WordEmbeddings;
  similarity?: SentenceSimilarity;
  mlm?: MaskedLm;
  counts: ExampleCounts;
  /** What each example cost the resources, for its result. */
  resourceQueries(subject: AttackSubject): Record<string, number>;
  close(): Promise<void>;
}

/** Opens what the specs name; a failure closes what was opened before it. */
export async function openLmResources(ctx: BuildContext, specs: ResourceSpecs): Promise<LmResources> {
  const opened: { close(): Promise<void> }[] = [];
  const counts = new ExampleCounts();
  try {
    const embeddings = specs.embeddings ? await ctx.openEmbeddings(specs.embeddings) : undefined;
    if (embeddings) opened.push(embeddings);
    const encoder = specs.sentenceEncoder && specs.similarity ? await ctx.openSentenceEncoder(specs.sentenceEncoder) : undefined;
    if (encoder) opened.push(encoder);
    const mlm = specs.mlm ? await ctx.openMaskedLm(specs.mlm) : undefined;
    if (mlm) opened.push(mlm);
    const similarity = encoder && specs.similarity ? new SentenceSimilarity(encoder, specs.similarity) : undefined;
    return {
      ...(embeddings ? { embeddings } : {}),
      ...(similarity ? { similarity } : {}),
      ...(mlm ? { mlm } : {}),
      counts,
      resourceQueries(subject) {
        const out = counts.of(subject);
        if (similarity) {
          const c = similarity.countFor(subject);
          out.sentence_encoder_texts = c.texts;
          out.sentence_encoder_requests = c.requests;
        }
        return out;
      },
      async close() {
        for (const r of opened.reverse()) await r.close();
      },
    };
  } catch (err) {
    for (const r of opened.reverse()) await r.close().catch(() => undefined);
    throw err;
  }
}

/** summary.json's record of one resource: what was used, or `off` and why. */
export type ResourceRecord = Record<string, unknown> & { used: boolean };

/** How word vectors are recorded. */
export function embeddingsRecord(info: EmbeddingsInfo | undefined, k: number, instead: string): ResourceRecord {
  return info
    ? { used: true, file: info.file, words: info.words, dim: info.dim, sha256: info.sha256, neighbours: k }
    : { used: false, instead, why: 'no --embeddings' };
}

/** How the sentence-similarity constraint is recorded. */
export function similarityRecord(sim: SentenceSimilarity | undefined, published: SimilarityOptions): ResourceRecord {
  const o = sim?.opts ?? published;
  const settings = {
    metric: o.metric,
    threshold: o.threshold,
    compare_against: o.compareAgainst,
    window: o.window,
    skip_shorter_than_window: o.skipShorterThanWindow,
  };
  return sim
    ? { used: true, encoder: sim.encoder.id, pooling: 'mean', ...settings }
    : { used: false, why: 'no --sentence-encoder: every candidate passes', ...settings };
}

/**
 * summary.json's `details`: TextAttack's figures, plus `resources` (what the run used) with the queries each resource
 * answered, summed over the results and averaged over the attacked (not skipped) examples with 95% intervals.
 */
export function lmDetails(seed: number, resources: Record<string, ResourceRecord>): () => ResultsDigest {
  const textattack = textAttackDetails(seed);
  return () => {
    const inner = textattack();
    const per = new Map<string, number[]>();
    let attacked = 0;
    return {
      add(r) {
        inner.add(r);
        if (r.status === 'skipped') return;
        const q = r.resource_queries ?? {};
        for (const k of new Set([...per.keys(), ...Object.keys(q)])) {
          // A counter first seen now was 0 for the attacked examples before it.
          if (!per.has(k))
            per.set(
              k,
              Array.from({ length: attacked }, () => 0),
            );
          per.get(k)!.push(q[k] ?? 0);
        }
        attacked++;
      },
      finish() {
        const queries: Record<string, { total: number; per_attacked_example: Interval }> = {};
        for (const [k, xs] of per) {
          queries[k] = {
            total: xs.reduce((a, b) => a + b, 0),
            per_attacked_example: bootstrapMean(xs, { seed: `${seed}\u0001resources.${k}` }),
          };
        }
        return { ...inner.finish(), resources: { ...resources, queries } };
      },
    };
  };
}

/** What the attack builders of TextBugger, BAE and TextFooler take besides their own settings. */
export interface LmAttackOptions {
  goal: GoalFactory;
  resources: LmResources;
  wir: WirMethod;
  unkToken: string;
  maxWords: number;
  subject: SubjectOptions;
}

/** The shared options from a recipe's settings and build context. */
export function lmAttackOptions(
  s: { wir: WirMethod; unkToken: string; maxWords: number; field: (typeof EDITABLE_FIELDS)[number] | null },
  ctx: BuildContext,
  resources: LmResources,
): LmAttackOptions {
  return { goal: ctx.goal, resources, wir: s.wir, unkToken: s.unkToken, maxWords: s.maxWords, subject: classicSubject(s.field, ctx) };
}

/** A recipe's transformation and constraints with TextAttack's greedy word-importance search, and the example's resource counts. */
export function lmAttack(name: string, transformation: Transformation, constraints: Constraint[], o: LmAttackOptions): Attack {
  return {
    name,
    transformation,
    constraints,
    goal: o.goal,
    search: new GreedyWordSwapWIR({ method: o.wir, unkToken: o.unkToken }),
    window: o.maxWords,
    subject: o.subject,
    resourceQueries: (subject) => o.resources.resourceQueries(subject),
  };
}

/** How the word swaps of a word-vector recipe are recorded: the vectors, or what stood in for them. */
export function wordSwapsRecord(r: LmResources, k: number): ResourceRecord {
  return embeddingsRecord(r.embeddings?.info, k, r.mlm ? `WordNet synonyms, then ${r.mlm.id}'s words` : 'WordNet synonyms');
}
