/**
 * RESEMBLE (Balasubramanian et al. 2020) as a model adapter: it wraps any text classifier (single texts and pairs)
 * so that every attack, suite and `serve` can run against the defended model. For each input of a batch it finds
 * the mentions of one entity type, builds M canonical inputs (every mention replaced by canonical entity m), asks
 * the inner model for the originals and all canonical inputs in ONE batch, and mixes them by Eq. (2) (eq2.ts).
 * Token classification (NER) and QA models are not supported: Eq. (2) mixes class distributions.
 */
import { applyPlan, forcedPlan } from '../entities/replace.ts';
import type { EntityType, Mention, MentionAnnotator } from '../entities/types.ts';
import type { Example } from '../data/types.ts';
import type { ClassOutput, ModelAdapter, ModelInput, ModelOutput } from '../models/types.ts';
import { QueryEngine, type QueryEngineStats } from '../query/engine.ts';
import { ModelError } from '../util/errors.ts';
import { resembleCombine } from './eq2.ts';

/** What the wrapper needs of a config: the type, the canonical entities and T. */
export interface ResembleSettings {
  type: EntityType;
  canonical: readonly string[];
  temperature: number;
}

/** Counters of a defended model: its own inputs and the inner model's queries (canonical ones included). */
export interface ResembleStats {
  /** Inputs answered by the defended model. */
  inputs: number;
  /** Of those, inputs with at least one mention of the type (the others pass through unchanged). */
  withMentions: number;
  /** Canonical inputs built (M per input with mentions). */
  canonicalInputs: number;
  /** The inner model's query engine: requests, cache hits, real inferences, batches. */
  inner: QueryEngineStats;
}

/** A defended model: an adapter, plus its counters and the inner engine it queries through. */
export interface ResembleModel extends ModelAdapter {
  readonly stats: ResembleStats;
  /** The cache + batching engine in front of the inner model (shared with callers that also query the inner model). */
  readonly innerEngine: QueryEngine;
  readonly settings: ResembleSettings;
}

/** Options of {@link resembleModel}. */
export interface ResembleModelOptions {
  /** The engine in front of the inner model (default: a new one); pass one to share its cache with undefended queries. */
  engine?: QueryEngine;
}

/** A model input as an example, for annotators and applyPlan (the label is unused). */
function asExample(input: ModelInput, i: number): Example {
  if (input.kind === 'text') return { kind: 'text', id: String(i), text: input.text, label: '' };
  if (input.kind === 'pair') return { kind: 'pair', id: String(i), textA: input.textA, textB: input.textB, label: '' };
  throw unsupported(input.kind);
}

function asInput(ex: Example): ModelInput {
  if (ex.kind === 'text') return { kind: 'text', text: ex.text };
  if (ex.kind === 'pair') return { kind: 'pair', textA: ex.textA, textB: ex.textB };
  throw unsupported(ex.kind);
}

function unsupported(what: string): ModelError {
  return new ModelError(`RESEMBLE defends text classifiers only (single texts and pairs), not ${what} models or inputs.`, {
    hint: 'NER (token classification) and QA models are not supported by --defence.',
  });
}

function classes(out: ModelOutput): ClassOutput {
  if (out.kind !== 'classes') throw unsupported(out.kind);
  return out;
}

/** The defended adapter around `inner` (see the file comment). */
export function resembleModel(
  inner: ModelAdapter,
  settings: ResembleSettings,
  annotator: MentionAnnotator,
  opts: ResembleModelOptions = {},
): ResembleModel {
  if (inner.info.task !== 'text-classification') throw unsupported(inner.info.task);
  if (settings.canonical.length === 0) throw new ModelError('RESEMBLE needs at least one canonical entity.');
  if (!(settings.temperature > 0)) throw new ModelError(`RESEMBLE's temperature must be > 0, got ${settings.temperature}.`);
  const engine = opts.engine ?? new QueryEngine(inner);
  const stats: ResembleStats = { inputs: 0, withMentions: 0, canonicalInputs: 0, inner: engine.stats };

  const predict = async (inputs: ModelInput[]): Promise<ModelOutput[]> => {
    const examples = inputs.map(asExample);
    const mentions = await annotator.annotate(examples);
    const typed: Mention[][] = mentions.map((ms) => ms.filter((m) => m.type === settings.type));
    // Canonical inputs of input i: canon[i] (empty without mentions).
    const canon: ModelInput[][] = examples.map((ex, i) =>
      typed[i]!.length === 0
        ? []
        : settings.canonical.map((name) => asInput(applyPlan(ex, typed[i]!, forcedPlan(typed[i]!, settings.type, name)).example)),
    );
    stats.inputs += inputs.length;
    stats.withMentions += canon.filter((c) => c.length > 0).length;
    stats.canonicalInputs += canon.reduce((n, c) => n + c.length, 0);
    // One engine call: the engine cuts it into the inner model's batches and answers repeats from its cache.
    const outs = await engine.query([...inputs, ...canon.flat()]);
    let next = inputs.length;
    return inputs.map((_, i) => {
      const orig = classes(outs[i]!);
      const mine = canon[i]!.map(() => classes(outs[next++]!).probs);
      if (mine.length === 0) return orig;
      const confidence = typed[i]!.reduce((c, m) => c * m.confidence, 1);
      return { kind: 'classes', labels: orig.labels, probs: resembleCombine(orig.probs, mine, confidence, settings.temperature) };
    });
  };

  const adapter: ResembleModel = {
    info: { ...inner.info, id: `resemble(${inner.info.id})` },
    predict,
    stats,
    innerEngine: engine,
    settings: { ...settings, canonical: settings.canonical.slice() },
    ...(inner.maxBatchSize !== undefined ? { maxBatchSize: inner.maxBatchSize } : {}),
    ...(inner.concurrency !== undefined ? { concurrency: inner.concurrency } : {}),
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
  if (inner.tokenize) adapter.tokenize = (text) => inner.tokenize!(text);
  return adapter;
}

/** What a defended model did, for summary.json's `process` (counted since the model was opened); undefined for other models. */
export function defenceStats(model: ModelAdapter): Record<string, unknown> | undefined {
  const m = model as Partial<ResembleModel>;
  if (!m.stats || !m.innerEngine || !m.settings) return undefined;
  const s = m.stats;
  return {
    defence: 'resemble',
    type: m.settings.type,
    canonical: m.settings.canonical,
    temperature: m.settings.temperature,
    inputs: s.inputs,
    inputs_with_mentions: s.withMentions,
    canonical_inputs: s.canonicalInputs,
    inner_requests: s.inner.requests,
    inner_cache_hits: s.inner.cacheHits,
    inner_model_inferences: s.inner.inferences,
    inner_batches: s.inner.flushes,
  };
}
