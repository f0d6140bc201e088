/** Sequence classification, single texts and pairs: one row per input, softmax over the logits. */
import { ModelError } from '../../util/errors.ts';
import type { ModelInput, ModelOutput } from '../types.ts';
import { labelName, type CodecContext, type Collector, type PlannedRow, type TaskCodec } from './codec.ts';
import { outputOf, softmax } from './session.ts';
import { assemble, longestFirst, specialCount } from './template.ts';

type ClassJob = { input: number };

export function classificationCodec(ctx: CodecContext): TaskCodec<ClassJob> {
  const { single, pair } = ctx.template;
  return {
    plan(input: ModelInput, index: number): PlannedRow<ClassJob>[] {
      if (input.kind === 'text') {
        const ids = ctx.pieces.textIds(input.text, ctx.maxLength - specialCount(single));
        return [{ row: assemble(single, ids), job: { input: index } }];
      }
      if (input.kind === 'pair') {
        // Each side capped at the whole budget first: longest_first truncation comes out the same.
        const budget = ctx.maxLength - specialCount(pair);
        const a = ctx.pieces.textIds(input.textA, budget);
        const b = ctx.pieces.textIds(input.textB, budget);
        const [nA, nB] = longestFirst(a.length, b.length, budget);
        return [{ row: assemble(pair, a.slice(0, nA), b.slice(0, nB)), job: { input: index } }];
      }
      throw new ModelError(`${ctx.id}: a text-classification model cannot take a '${input.kind}' input.`);
    },
    collector(inputs): Collector<ClassJob> {
      const classes: (number[] | undefined)[] = new Array(inputs.length);
      return {
        take(job, out, r) {
          const logits = outputOf(out, 'logits', ctx.id);
          const c = logits.dims[1]!;
          classes[job.input] = softmax(logits.data.subarray(r * c, (r + 1) * c));
        },
        result(i): ModelOutput {
          const probs = classes[i]!;
          return { kind: 'classes', labels: probs.map((_, k) => labelName(ctx.labels, k)), probs };
        },
      };
    },
  };
}
