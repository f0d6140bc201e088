/**
 * Views into a loaded transformers.js model for tests and diagnostics (the rows an input becomes, raw outputs
 * for hand-made ids), kept off the public ModelAdapter interface.
 */
import type { ModelAdapter, ModelInput } from '../types.ts';
import type { Nested } from './session.ts';
import type { EncodedRow } from './template.ts';

export interface TransformersInternals {
  /** Longest row fed to the model, special tokens included. */
  readonly maxLength: number;
  /** Whether the ONNX graph takes token_type_ids. */
  readonly usesTokenTypeIds: boolean;
  /** The rows the model sees for an input (several for long NER sentences and long QA contexts). */
  encode(input: ModelInput): EncodedRow[];
  /** Raw model outputs (e.g. `logits`, `start_logits`) for hand-made ids; rows are right-padded. */
  forward(inputIds: number[][], attentionMask?: number[][], tokenTypeIds?: number[][]): Promise<Record<string, Nested>>;
}

const registry = new WeakMap<ModelAdapter, TransformersInternals>();

export function registerInternals(adapter: ModelAdapter, internals: TransformersInternals): void {
  registry.set(adapter, internals);
}

/** The internals of an adapter made by loadTransformersModel; throws for any other adapter. */
export function transformersInternals(adapter: ModelAdapter): TransformersInternals {
  const found = registry.get(adapter);
  if (!found) throw new Error(`${adapter.info.id} is not a transformers.js model loaded by textstress`);
  return found;
}
