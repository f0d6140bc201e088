/**
 * Token classification (NER): one tag per input word, read at the word's first piece. A sentence longer than the
 * model takes is split into rows at word boundaries (the transformers.js pipeline drops the words past the limit).
 */
import { ModelError } from '../../util/errors.ts';
import type { ModelInput, ModelOutput } from '../types.ts';
import { labelName, type CodecContext, type Collector, type PlannedRow, type TaskCodec } from './codec.ts';
import { argmax, outputOf, softmax } from './session.ts';
import { assemble, specialCount } from './template.ts';

type TagJob = { input: number; firstPiece: number[]; wordOffset: number };

export function taggingCodec(ctx: CodecContext): TaskCodec<TagJob> {
  const { single } = ctx.template;
  return {
    plan(input: ModelInput, index: number): PlannedRow<TagJob>[] {
      if (input.kind !== 'tokens') throw new ModelError(`${ctx.id}: a token-classification model cannot take a '${input.kind}' input.`);
      const budget = ctx.maxLength - specialCount(single);
      const out: PlannedRow<TagJob>[] = [];
      let ids: number[] = [];
      let first: number[] = [];
      let wordOffset = 0;
      const flush = (): void => {
        const row = assemble(single, ids);
        out.push({ row, job: { input: index, firstPiece: first.map((f) => f + row.seqStart.A), wordOffset } });
        wordOffset += first.length;
        ids = [];
        first = [];
      };
      for (const w of input.tokens) {
        // Pre-split words are each encoded as if after a space, like Hugging Face's is_split_into_words with
        // add_prefix_space (which RoBERTa-style tokenizers require for pre-split input).
        const wp = ctx.pieces.word(w, { prefixSpace: true }).ids.slice(0, budget);
        if (ids.length + wp.length > budget) flush();
        first.push(ids.length);
        ids.push(...wp);
      }
      if (first.length) flush();
      return out;
    },
    collector(inputs): Collector<TagJob> {
      const tags = inputs.map((input) => {
        const n = input.kind === 'tokens' ? input.tokens.length : 0;
        return { tags: new Array<string>(n), scores: new Array<number>(n) };
      });
      return {
        take(job, out, r) {
          const logits = outputOf(out, 'logits', ctx.id);
          const [, width, c] = logits.dims as [number, number, number];
          const dest = tags[job.input]!;
          job.firstPiece.forEach((pos, w) => {
            const base = (r * width + pos) * c;
            const probs = softmax(logits.data.subarray(base, base + c));
            const k = argmax(probs);
            dest.tags[job.wordOffset + w] = labelName(ctx.labels, k);
            dest.scores[job.wordOffset + w] = probs[k]!;
          });
        },
        result(i): ModelOutput {
          return { kind: 'tags', tags: tags[i]!.tags, scores: tags[i]!.scores };
        },
      };
    },
  };
}
