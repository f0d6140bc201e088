/**
 * The ModelAdapter over a transformers.js tokenizer and ONNX session. Only the tokenizer's vocabulary work
 * (normalise, pre-tokenise, WordPiece/BPE) and the ONNX session come from transformers.js; textstress builds
 * the model inputs itself (see template.ts and the task codecs), because the library's own paths go wrong in
 * ways that are silent (../shared/README.md "transformers.js pitfalls", docs/http-model-api.md).
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import { checkInputKind } from '../schema.ts';
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput } from '../types.ts';
import type { Collector, PlannedRow, TaskCodec } from './codec.ts';
import { runsOf, type RunLimits } from './batching.ts';
import type { OnnxSession } from './session.ts';
import { cooperative } from '../../util/yield.ts';

export class TransformersModel implements ModelAdapter {
  /** One ONNX run at a time: callers gain nothing from handing it more than one batch at once. */
  readonly concurrency = 1;
  /** Rows per ONNX run, at most. */
  readonly maxBatchSize: number;
  /** Tokens per ONNX run (rows × padded length), at most. */
  readonly maxBatchTokens: number;
  /** What one more ONNX run costs, in tokens of compute (see runsOf). */
  readonly runOverhead: number;

  constructor(
    readonly info: ModelInfo,
    limits: RunLimits,
    private readonly tok: PreTrainedTokenizer,
    private readonly session: OnnxSession,
    private readonly codec: TaskCodec<unknown>,
  ) {
    this.maxBatchSize = limits.rows;
    this.maxBatchTokens = limits.tokens;
    this.runOverhead = limits.overhead;
  }

  async tokenize(text: string): Promise<string[]> {
    return this.tok.tokenize(text);
  }

  async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
    inputs.forEach((input, i) => {
      const problem = checkInputKind(this.info.task, input, i);
      if (problem) throw new ModelError(`${this.info.id}: ${problem}.`);
    });
    // Tokenizing is synchronous: a turn of the event loop between long inputs lets SIGTERM in (a 600,000-character
    // text takes a second or more, and a batch holds dozens).
    const planned: PlannedRow<unknown>[] = [];
    const breathe = cooperative();
    for (const [i, input] of inputs.entries()) {
      planned.push(...this.codec.plan(input, i));
      await breathe();
    }
    const collector: Collector<unknown> = this.codec.collector(inputs);
    const lengths = planned.map((p) => p.row.inputIds.length);
    for (const run of runsOf(lengths, { rows: this.maxBatchSize, tokens: this.maxBatchTokens, overhead: this.runOverhead })) {
      const batch = run.map((i) => planned[i]!);
      const out = await this.session.run(batch.map((p) => p.row));
      batch.forEach(({ job }, r) => collector.take(job, out, r));
    }
    return inputs.map((_, i) => collector.result(i));
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}
