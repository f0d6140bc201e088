import type { ModelInput, ModelOutput } from '../types.ts';
import type { PieceEncoder } from './pieces.ts';
import type { RawOutput } from './session.ts';
import type { EncodedRow, Template } from './template.ts';

/** What every task codec needs to know about the model. */
export interface CodecContext {
  id: string;
  template: Template;
  pieces: PieceEncoder;
  /** Longest row, special tokens included. */
  maxLength: number;
  /** Model label names by output index. */
  labels: readonly string[];
}

/** A row the model sees, and the task's note on where its output goes. */
export interface PlannedRow<J> {
  row: EncodedRow;
  job: J;
}

/** Gathers the rows' outputs of one predict() call into one ModelOutput per input. */
export interface Collector<J> {
  take(job: J, out: Record<string, RawOutput>, row: number): void;
  result(input: number): ModelOutput;
}

/**
 * One task's encoding and decoding: which rows an input becomes (several for long NER sentences and long QA
 * contexts) and how the rows' outputs make the answer.
 */
export interface TaskCodec<J> {
  plan(input: ModelInput, index: number): PlannedRow<J>[];
  collector(inputs: readonly ModelInput[]): Collector<J>;
}

/** Label name of output index k (LABEL_k when the config names none). */
export function labelName(labels: readonly string[], k: number): string {
  return labels[k] ?? `LABEL_${k}`;
}
