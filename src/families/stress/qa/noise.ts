/**
 * QA noise test (Aspillaga et al. 2020 §4, after Belinkov & Bisk 2018): one noise type applied to every word of
 * the context, with the gold answers kept readable so EM/F1 against them still means something.
 *
 * Every context word that overlaps a gold answer span, even by one character, is kept verbatim; every other word
 * gets the noise (src/perturb/noise, with its own length floors). Keeping the words that are only partly inside a
 * span ("1990" inside "1990s", an answer starting mid-word) is the only way to keep the answer's characters
 * intact, since noise rewrites whole words. The spans of all annotators are protected together, so overlapping or
 * nested answers all survive. Offsets are re-mapped through rewriteExample (src/data/rewrite.ts): each answer's
 * text appears verbatim at its new `start`. The question is not changed.
 */
import { rewriteExample, type TextRewrite } from '../../../data/rewrite.ts';
import type { QaExample } from '../../../data/types.ts';
import { applyNoise } from '../../../perturb/noise/apply.ts';
import { isNoiseType, NOISE_TYPES, type NoiseType } from '../../../perturb/noise/noise.ts';
import type { Edit } from '../../../text/edits.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { Rng } from '../../../util/rng.ts';
import { checkAnswerOffsets } from './checks.ts';

/** Options of {@link qaContextNoise}. */
export interface QaNoiseOptions {
  /** Seed of the random choices (default 0); mixed with the example id, so an example's output does not depend on the others. */
  seed?: number;
}

/** A QA example with noise in its context, and what changed. */
export interface QaNoised {
  /** The example with the noisy context and re-mapped answers (same id, question and answer texts). */
  example: QaExample;
  /** One edit per changed context word, typed `noise:<type>`, positioned as rewriteExample records them. */
  edits: Edit[];
  /** Context words that could take the noise (outside every gold span); `edits.length` of them changed. */
  eligible: number;
}

/**
 * Applies one noise type to every context word outside the gold answer spans of `example`, seeded by
 * `opts.seed` and the example id. Throws a TextstressError naming the example when an answer's text is not
 * at its recorded offset in the context.
 */
export function qaContextNoise(example: QaExample, type: NoiseType, opts: QaNoiseOptions = {}): QaNoised {
  if (!isNoiseType(type)) throw new RangeError(`qaContextNoise: unknown noise type "${String(type)}" (one of ${NOISE_TYPES.join(', ')})`);
  checkAnswerOffsets(example, 'the noise test');
  const seq = WordSeq.parse(example.context);
  const starts = wordStarts(seq);
  const spans = example.answers.map((a) => [a.start, a.start + a.text.length] as const);
  const inAnswer = (i: number): boolean => {
    const s = starts[i]!;
    const e = s + seq.words[i]!.length;
    return spans.some(([a, b]) => s < b && a < e);
  };
  const eligible = seq.words.filter((_, i) => !inAnswer(i)).length;
  const rng = Rng.derive(opts.seed ?? 0, example.id, 'qa-noise', type);
  const { changed } = applyNoise(seq, type, rng, { protect: inAnswer });
  const rewrites: TextRewrite[] = changed.map((c) => ({
    field: 'context',
    start: starts[c.wordIndex]!,
    end: starts[c.wordIndex]! + c.before.length,
    text: c.after,
    type: `noise:${type}`,
  }));
  const { example: out, edits } = rewriteExample(example, rewrites);
  return { example: out as QaExample, edits, eligible };
}

/** Character offset of each word of `seq` in its text, in one pass. */
function wordStarts(seq: WordSeq): number[] {
  const out: number[] = [];
  let pos = seq.gaps[0]!.length;
  for (let i = 0; i < seq.length; i++) {
    out.push(pos);
    pos += seq.words[i]!.length + seq.gaps[i + 1]!.length;
  }
  return out;
}
