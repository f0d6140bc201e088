/**
 * A masked language model loads like any other folder (so that runs, suites and reports name it), but answers no
 * attack queries: textstress reads it through src/models/encoder for `probe cloze|layers|heads`.
 */
import { ModelError } from '../../util/errors.ts';
import type { CodecContext, TaskCodec } from './codec.ts';

export function fillMaskCodec(ctx: CodecContext): TaskCodec<never> {
  const refuse = (): never => {
    throw new ModelError(`${ctx.id} is a fill-mask (masked language) model: it answers no attack queries.`, {
      hint: 'Use it with `textstress probe cloze|layers|heads`; attacks need a classifier, tagger or QA model.',
    });
  };
  return { plan: refuse, collector: refuse };
}
