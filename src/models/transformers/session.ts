/**
 * The ONNX session behind a transformers.js model: right-padded rows in, named float outputs back, one run at a
 * time (onnxruntime sessions are not re-entrant, and a 2-core machine gains nothing from overlapping runs).
 */
import { Tensor, type PreTrainedModel } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import type { EncodedRow } from './template.ts';

/** One named output of a run, flat, with its shape. */
export interface RawOutput {
  data: Float32Array;
  dims: number[];
}

export type Nested = number | Nested[];

export class OnnxSession {
  /** Whether the graph takes token_type_ids (pair models need them, or they silently break). */
  readonly usesTokenTypeIds: boolean;
  private readonly inputNames: string[];
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly model: PreTrainedModel,
    private readonly id: string,
    private readonly padId: number,
  ) {
    const sessions = (model as unknown as { sessions?: Record<string, { inputNames?: string[] }> }).sessions;
    this.inputNames = sessions?.model?.inputNames ?? ['input_ids', 'attention_mask', 'token_type_ids'];
    this.usesTokenTypeIds = this.inputNames.includes('token_type_ids');
  }

  /** Runs the session on padded rows, one run at a time. */
  async run(rows: readonly EncodedRow[]): Promise<Record<string, RawOutput>> {
    const width = Math.max(1, ...rows.map((r) => r.inputIds.length));
    const n = rows.length;
    const ids = new BigInt64Array(n * width).fill(BigInt(this.padId));
    const mask = new BigInt64Array(n * width);
    const types = new BigInt64Array(n * width);
    rows.forEach((r, i) => {
      for (let t = 0; t < r.inputIds.length; t++) {
        ids[i * width + t] = BigInt(r.inputIds[t]!);
        mask[i * width + t] = 1n;
        types[i * width + t] = BigInt(r.tokenTypeIds[t] ?? 0);
      }
    });
    const all: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [n, width]),
      attention_mask: new Tensor('int64', mask, [n, width]),
      token_type_ids: new Tensor('int64', types, [n, width]),
    };
    const feeds: Record<string, Tensor> = {};
    for (const name of this.inputNames) if (all[name]) feeds[name] = all[name];
    const job = this.queue.then(async () => {
      if (this.closed) throw new ModelError(`the model ${this.id} was closed.`);
      const result = (await this.model(feeds)) as Record<string, Tensor>;
      const out: Record<string, RawOutput> = {};
      for (const [k, v] of Object.entries(result)) {
        // An fp16 graph (--dtype fp16 exported without float32 outputs) answers float16: widened here.
        if (v instanceof Tensor) out[k] = { data: (v.type === 'float32' ? v : v.to('float32')).data as Float32Array, dims: v.dims };
      }
      return out;
    });
    this.queue = job.catch(() => undefined);
    try {
      return await job;
    } catch (err) {
      if (err instanceof ModelError) throw err;
      throw new ModelError(`the model ${this.id} failed while running: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Raw outputs (e.g. `logits`, `start_logits`) for hand-made ids, as nested arrays. */
  async forward(inputIds: number[][], attentionMask?: number[][], tokenTypeIds?: number[][]): Promise<Record<string, Nested>> {
    const rows: EncodedRow[] = inputIds.map((ids, i) => {
      const m = attentionMask?.[i];
      const len = m ? m.reduce((a, b) => a + b, 0) : ids.length;
      return { inputIds: ids.slice(0, len), tokenTypeIds: (tokenTypeIds?.[i] ?? []).slice(0, len) };
    });
    const out = await this.run(rows);
    const result: Record<string, Nested> = {};
    for (const [k, { data, dims }] of Object.entries(out)) result[k] = reshape(data, dims);
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    await (this.model as unknown as { dispose?: () => Promise<unknown> }).dispose?.();
  }
}

/** The named output of a run, or a ModelError saying which outputs the graph has. */
export function outputOf(out: Record<string, RawOutput>, name: string, id: string): RawOutput {
  const t = out[name];
  if (!t) {
    throw new ModelError(`the model ${id} has no '${name}' output (it has ${Object.keys(out).join(', ') || 'none'}).`, {
      hint: 'Was it exported for the right task (optimum-cli export onnx --task …)?',
    });
  }
  return t;
}

function reshape(data: Float32Array, dims: readonly number[]): Nested {
  if (dims.length <= 1) return Array.from(data);
  const [d, ...rest] = dims as [number, ...number[]];
  const step = data.length / d;
  return Array.from({ length: d }, (_, i) => reshape(data.subarray(i * step, (i + 1) * step), rest));
}

export function softmax(xs: ArrayLike<number>, from = 0, to = xs.length): number[] {
  let max = -Infinity;
  for (let i = from; i < to; i++) max = Math.max(max, xs[i]!);
  const out: number[] = [];
  let sum = 0;
  for (let i = from; i < to; i++) {
    const e = Math.exp(xs[i]! - max);
    out.push(e);
    sum += e;
  }
  return out.map((e) => e / sum);
}

export function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}
