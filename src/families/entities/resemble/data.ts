/**
 * What RESEMBLE's fitting and Table 5 share: the classification examples of a dataset with their mentions of one
 * entity type and their gold label as a model label index. Examples without such a mention are not applicable
 * (counted, never scored).
 */
import { goalFor } from '../../../recipes/context.ts';
import type { Dataset, PairExample, TextExample } from '../../../data/types.ts';
import type { EntityType, Mention, MentionAnnotator } from '../../../entities/types.ts';
import type { ClassOutput, ModelAdapter, ModelInput, ModelOutput } from '../../../models/types.ts';
import { TextstressError } from '../../../util/errors.ts';

/** A classification example with a mention of the type. */
export interface Applicable {
  example: TextExample | PairExample;
  /** Its mentions of the type (at least one). */
  mentions: Mention[];
  /** The gold label as the model's label index. */
  gold: number;
  /** Eq. (2)'s c: the product of the mentions' confidences. */
  confidence: number;
}

/** A dataset read for RESEMBLE. */
export interface Prepared {
  type: EntityType;
  examples: number;
  items: Applicable[];
  /** Examples with no mention of the type. */
  notApplicable: number;
}

/** The reason an example is not applicable (as the entity probe words it). */
export const notApplicableReason = (type: EntityType): string => `no ${type} entity`;

/** Reads every example, annotates them (in chunks of 256) and keeps those with a mention of `type`. */
export async function prepare(
  model: ModelAdapter,
  dataset: Dataset,
  annotator: MentionAnnotator,
  type: EntityType,
  labelMap: Record<string, string> = {},
): Promise<Prepared> {
  if (model.info.task !== 'text-classification') {
    throw new TextstressError(
      `RESEMBLE is for text classifiers (single texts and pairs); ${model.info.id} is a ${model.info.task} model.`,
      {
        hint: 'NER and QA models are not supported.',
      },
    );
  }
  const examples: (TextExample | PairExample)[] = [];
  for await (const e of dataset.examples()) {
    if (e.kind !== 'text' && e.kind !== 'pair') {
      throw new TextstressError(`RESEMBLE needs classification data (single texts or pairs), got ${e.kind} examples.`, {
        where: e.source ?? dataset.info.path,
      });
    }
    examples.push(e);
  }
  const { labels } = goalFor(model.info, dataset.info, labelMap, new Set(examples.map((e) => e.label)));
  const items: Applicable[] = [];
  for (let i = 0; i < examples.length; i += 256) {
    const chunk = examples.slice(i, i + 256);
    const found = await annotator.annotate(chunk);
    chunk.forEach((example, j) => {
      const mentions = found[j]!.filter((m) => m.type === type);
      if (mentions.length === 0) return;
      const confidence = mentions.reduce((c, m) => c * m.confidence, 1);
      items.push({ example, mentions, gold: labels!.indexOf(example.label), confidence });
    });
  }
  return { type, examples: examples.length, items, notApplicable: examples.length - items.length };
}

/** The model input of a classification example. */
export function inputOf(e: TextExample | PairExample): ModelInput {
  return e.kind === 'text' ? { kind: 'text', text: e.text } : { kind: 'pair', textA: e.textA, textB: e.textB };
}

/** Class probabilities of an output (RESEMBLE only sees classifiers). */
export function probsOf(out: ModelOutput): number[] {
  return (out as ClassOutput).probs;
}

/** Whether the top class is the gold one. */
export function correct(probs: readonly number[], gold: number): boolean {
  let best = 0;
  for (let j = 1; j < probs.length; j++) if (probs[j]! > probs[best]!) best = j;
  return best === gold;
}

/** Mean of booleans as a share; null over none. */
export function share(xs: readonly boolean[]): number | null {
  return xs.length === 0 ? null : xs.filter(Boolean).length / xs.length;
}
