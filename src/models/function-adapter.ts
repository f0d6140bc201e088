/**
 * Wraps a plain function as a model, for library users whose model lives in their own code:
 *
 *   const model = createFunctionModel(async (inputs) => inputs.map(classify), { id: 'function:mine', task: 'text-classification' });
 *
 * The function's answers are checked like an HTTP endpoint's (one per input, right kind, one tag per word);
 * anything wrong, thrown or rejected becomes a ModelError naming the function. To have textstress find the inputs
 * a function cannot answer (and fail only their examples), throw `new ModelError(why, { inputSpecific: true })`.
 */
import { ModelError, TextstressError } from '../util/errors.ts';
import { answering } from './failure.ts';
import { checkInputKind, checkLabelSet, checkOutputs } from './schema.ts';
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput } from './types.ts';

/** A model as a JS function: a batch of inputs in, one output per input, in order. */
export type ModelFunction = (inputs: ModelInput[]) => Promise<ModelOutput[]> | ModelOutput[];

/** Options of {@link createFunctionModel}. */
export interface FunctionModelOptions {
  /** Largest batch handed to the function at once (default 64). */
  maxBatchSize?: number;
  /** Subword pieces for the subword view. */
  tokenize?: (text: string) => Promise<string[]> | string[];
  close?: () => Promise<void> | void;
}

/**
 * A model adapter around a JS function; its answers are checked like an endpoint's. To blame one input, throw a
 * ModelError with `inputSpecific: true` (the engine then splits the batch to find it).
 */
export function createFunctionModel(fn: ModelFunction, info: ModelInfo, opts: FunctionModelOptions = {}): ModelAdapter {
  const maxBatchSize = opts.maxBatchSize ?? 64;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new ModelError(`maxBatchSize must be a positive integer, got ${opts.maxBatchSize}.`);
  }
  const name = info.id.startsWith('function:') ? info.id : `function:${info.id}`;
  checkLabelSet(info.labels, `the model function ${name}`);

  const predict = async (inputs: ModelInput[]): Promise<ModelOutput[]> => {
    inputs.forEach((input, i) => {
      const problem = checkInputKind(info.task, input, i);
      if (problem) throw new ModelError(`${name}: ${problem}.`);
    });
    const all: ModelOutput[] = [];
    for (let i = 0; i < inputs.length; i += maxBatchSize) {
      const batch = inputs.slice(i, i + maxBatchSize);
      let raw: unknown;
      try {
        raw = await fn(batch);
      } catch (err) {
        // A ModelError the function throws with inputSpecific says one of its inputs is at fault: the query
        // engine then splits the batch to find it. Anything else fails the whole batch.
        if (err instanceof ModelError && err.inputSpecific) {
          throw new ModelError(`the model function ${name} refused an input: ${err.message}`, {
            cause: err,
            inputSpecific: true,
            ...(err.hint ? { hint: err.hint } : {}),
          });
        }
        if (err instanceof TextstressError) throw err;
        throw new ModelError(`the model function ${name} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
      }
      const checked = checkOutputs(info.task, batch, raw, info.labels);
      if (!checked.ok) {
        throw new ModelError(
          `the model function ${name} returned a malformed answer: ${checked.problem}${answering(batch, checked.index)}.`,
          {
            hint: 'It must return one output per input, in order, with probabilities in [0, 1] that sum to 1 (see ModelOutput in src/models/types.ts).',
            inputSpecific: !checked.modelWide && checked.index !== undefined,
          },
        );
      }
      all.push(...checked.outputs);
    }
    return all;
  };

  const adapter: ModelAdapter = { info: { ...info }, maxBatchSize, predict };
  const tokenize = opts.tokenize;
  if (tokenize) adapter.tokenize = async (text) => tokenize(text);
  const close = opts.close;
  if (close) adapter.close = async () => close();
  return adapter;
}
