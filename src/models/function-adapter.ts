/**
 * Wraps a plain function as a model, for library users whose model lives in their own code:
 *
 *   const model = createFunctionModel(async (inputs) => inputs.map(classify), { id: 'function:mine', task: 'text-classification' });
 *
 * The function's answers are checked like an HTTP endpoint's (one per input, right kind, one tag per word);
 * anything wrong, thrown or rejected becomes a ModelError naming the function.
 */
import { ModelError, TextstressError } from '../util/errors.ts';
import { checkInputKind, checkOutputs } from './schema.ts';
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput } from './types.ts';

export type ModelFunction = (inputs: ModelInput[]) => Promise<ModelOutput[]> | ModelOutput[];

export interface FunctionModelOptions {
  /** Largest batch handed to the function at once (default 64). */
  maxBatchSize?: number;
  /** Subword pieces for the subword view. */
  tokenize?: (text: string) => Promise<string[]> | string[];
  close?: () => Promise<void> | void;
}

export function createFunctionModel(fn: ModelFunction, info: ModelInfo, opts: FunctionModelOptions = {}): ModelAdapter {
  const maxBatchSize = opts.maxBatchSize ?? 64;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new ModelError(`maxBatchSize must be a positive integer, got ${opts.maxBatchSize}.`);
  }
  const name = info.id.startsWith('function:') ? info.id : `function:${info.id}`;

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
        if (err instanceof TextstressError) throw err;
        throw new ModelError(`the model function ${name} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
      }
      const checked = checkOutputs(info.task, batch, raw, info.labels);
      if (!checked.ok) {
        throw new ModelError(`the model function ${name} returned a malformed answer: ${checked.problem}.`, {
          hint: 'It must return one output per input, in order (see ModelOutput in src/models/types.ts).',
          affectsAll: checked.modelWide,
        });
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
