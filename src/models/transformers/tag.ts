/**
 * Token classification (NER): one tag per input word, read at one of the word's pieces (TaggingOptions). The words
 * are encoded as the sentence they make, joined by single spaces: every word but the first after a space. A
 * sentence longer than the model takes is split into rows at word boundaries (the transformers.js pipeline drops
 * the words past the limit).
 */
import { ModelError } from '../../util/errors.ts';
import type { ModelInput, ModelOutput, WordPiece } from '../types.ts';
import { labelName, type CodecContext, type Collector, type PlannedRow, type TaskCodec } from './codec.ts';
import { argmax, outputOf, softmax } from './session.ts';
import { assemble, specialCount } from './template.ts';

type TagJob = { input: number; firstPiece: number[]; wordOffset: number };

/** How a tagger's words become pieces and which piece gives each word its tag: the conventions taggers are trained with. */
export interface TaggingOptions {
  /** The piece a word's tag is read from (default `first-nonempty`). */
  wordPiece: WordPiece;
  /**
   * Encode the first word after a space too, like every other word (byte-level BPE: `ĠEU` instead of `EU`), as Hugging
   * Face's `is_split_into_words=True` with `add_prefix_space=True` does. Default false: the first word as the
   * tokenizer encodes the start of a text (with its own add_prefix_space, if it has one).
   */
  firstWordSpace: boolean;
}

export const DEFAULT_TAGGING: TaggingOptions = { wordPiece: 'first-nonempty', firstWordSpace: false };

export function taggingCodec(ctx: CodecContext, opts: TaggingOptions = DEFAULT_TAGGING): TaskCodec<TagJob> {
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
      input.tokens.forEach((w, i) => {
        // As in the sentence the words make (a word after a row break was after a space in it too).
        const spacing = { prefixSpace: i > 0 || opts.firstWordSpace };
        const wp = ctx.pieces.word(w, spacing).ids.slice(0, budget);
        if (ids.length + wp.length > budget) flush();
        const k = opts.wordPiece === 'first' ? 0 : ctx.pieces.firstCharPiece(w, spacing);
        first.push(ids.length + Math.min(k, wp.length - 1));
        ids.push(...wp);
      });
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
