/**
 * Where a model's failure lies, for its error message: the engine sorts and splits batches, so an offset in a
 * batch means nothing to the user; the input itself does.
 */
import { ModelError, TextstressError, errorMessage } from '../util/errors.ts';
import type { ModelInput, ModelOutput } from './types.ts';

/** An input in a few words: its first 40 characters. */
function describeInput(input: ModelInput): string {
  const text =
    input.kind === 'text'
      ? input.text
      : input.kind === 'pair'
        ? input.textA
        : input.kind === 'tokens'
          ? input.tokens.join(' ')
          : input.question;
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > 40 ? `${flat.slice(0, 40)}…` : flat}"`;
}

/**
 * Which inputs a malformed answer was for, as the tail of an error message: the input of the output at fault, or
 * the size and first input of the request.
 */
export function answering(inputs: readonly ModelInput[], index?: number): string {
  if (inputs.length === 1) return ` (for the input ${describeInput(inputs[0]!)})`;
  if (index !== undefined && inputs[index]) return `; outputs[${index}] answers the input ${describeInput(inputs[index])}`;
  return inputs.length ? ` (for ${inputs.length} inputs, the first ${describeInput(inputs[0]!)})` : '';
}

/**
 * A predict() call in which some inputs were answered and others failed: an adapter throws it so that the answers
 * already paid for are kept (cached, counted) rather than thrown away with the batch. `outputs[i]` is input i's
 * answer, or undefined with its error in `errors[i]`. `exact` (openai:, one request per input): each error is its
 * input's own; otherwise (an HTTP endpoint, one request per sub-batch) an error may be any input's of its request,
 * and the query engine splits those inputs to find which. To a caller that does not look inside, it reads as the
 * first failure.
 */
export class PartialBatchError extends ModelError {
  constructor(
    readonly outputs: readonly (ModelOutput | undefined)[],
    readonly errors: readonly unknown[],
    readonly exact = true,
  ) {
    const first = errors.find((e) => e !== undefined);
    const inner = first instanceof TextstressError ? first : undefined;
    super(inner ? inner.message : errorMessage(first), {
      ...(inner?.where ? { where: inner.where } : {}),
      ...(inner?.hint ? { hint: inner.hint } : {}),
      cause: first,
    });
    this.name = 'PartialBatchError';
  }

  /** How many inputs were answered. */
  get answered(): number {
    return this.outputs.filter((o) => o !== undefined).length;
  }
}

/**
 * The answers of per-input calls, in order, or, when some failed, a PartialBatchError with those that came (paid
 * for: the query engine caches them); `why` may restate an error.
 */
export function outputsOrPartial(
  settled: readonly PromiseSettledResult<ModelOutput>[],
  why: (e: unknown) => unknown = (e) => e,
): ModelOutput[] {
  const outputs = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
  if (outputs.every((o) => o !== undefined)) return outputs;
  throw new PartialBatchError(
    outputs,
    settled.map((s) => (s.status === 'fulfilled' ? undefined : why(s.reason))),
  );
}

/**
 * The answers of one request per sub-batch (`settled[b]` answers `batches[b]`), in order; one failed request alone is
 * thrown as it is. When some failed among several, a PartialBatchError keeps the answers that came, and its errors
 * are not exact: an error belongs to a request of several inputs, and the engine splits them to find the input at
 * fault.
 */
export function batchOutputsOrPartial(
  batches: readonly (readonly ModelInput[])[],
  settled: readonly PromiseSettledResult<ModelOutput[]>[],
): ModelOutput[] {
  if (settled.every((s) => s.status === 'fulfilled')) return settled.flatMap((s) => s.value);
  if (settled.length === 1) throw (settled[0] as PromiseRejectedResult).reason;
  const outputs: (ModelOutput | undefined)[] = [];
  const errors: unknown[] = [];
  settled.forEach((s, b) => {
    for (let i = 0; i < batches[b]!.length; i++) {
      outputs.push(s.status === 'fulfilled' ? s.value[i] : undefined);
      errors.push(s.status === 'fulfilled' ? undefined : s.reason);
    }
  });
  throw new PartialBatchError(outputs, errors, false);
}
