/**
 * Extractive question answering: the question and a window of the context per row (long contexts slide with a
 * stride), start/end probabilities per window, the best spans mapped back to character offsets of the context.
 */
import { ModelError } from '../../util/errors.ts';
import type { AnswerSpan, ModelInput, ModelOutput } from '../types.ts';
import type { CodecContext, Collector, PlannedRow, TaskCodec } from './codec.ts';
import { outputOf, softmax } from './session.ts';
import { assemble, specialCount } from './template.ts';

type QaJob = { input: number; ctxStart: number; offsets: [number, number][] };

export interface QaOptions {
  /** Spans returned per question. */
  topK: number;
  /** Longest answer, in tokens. */
  maxAnswerTokens: number;
  /** Tokens shared by consecutive windows over a long context (at most half a window). */
  docStride: number;
}

/** Question tokens kept (longer questions are cut, like the SQuAD fine-tuning scripts do). */
const MAX_QUESTION_TOKENS = 64;

export function qaCodec(ctx: CodecContext, opts: QaOptions): TaskCodec<QaJob> {
  const { pair } = ctx.template;
  return {
    plan(input: ModelInput, index: number): PlannedRow<QaJob>[] {
      if (input.kind !== 'qa') throw new ModelError(`${ctx.id}: a question-answering model cannot take a '${input.kind}' input.`);
      const { question, context } = input;
      const q = ctx.pieces.textIds(question, MAX_QUESTION_TOKENS);
      const ids: number[] = [];
      const offsets: [number, number][] = [];
      for (const m of context.matchAll(/\S+/g)) {
        const start = m.index;
        // As in the context string tokenized whole: the first word has no space before it, every later word one.
        const spacing = { prefixSpace: ids.length > 0 };
        const piece = ctx.pieces.word(m[0], spacing);
        const local = ctx.pieces.offsets(m[0], spacing);
        piece.ids.forEach((id, k) => {
          ids.push(id);
          const [s, e] = local[k] ?? [0, m[0].length];
          offsets.push([start + s, start + e]);
        });
      }
      if (!ids.length) return [];
      const budget = ctx.maxLength - specialCount(pair) - q.length;
      if (budget < 8) {
        throw new ModelError(`the question is too long for the model's ${ctx.maxLength}-token input: ${question.slice(0, 80)}`);
      }
      const stride = Math.min(opts.docStride, Math.floor(budget / 2));
      const out: PlannedRow<QaJob>[] = [];
      for (let from = 0; ; from += budget - stride) {
        const to = Math.min(ids.length, from + budget);
        const row = assemble(pair, q, ids.slice(from, to));
        out.push({ row, job: { input: index, ctxStart: row.seqStart.B, offsets: offsets.slice(from, to) } });
        if (to >= ids.length) break;
      }
      return out;
    },
    collector(inputs): Collector<QaJob> {
      const cands: AnswerSpan[][] = inputs.map(() => []);
      return {
        take(job, out, r) {
          const starts = outputOf(out, 'start_logits', ctx.id);
          const ends = outputOf(out, 'end_logits', ctx.id);
          const width = starts.dims[1]!;
          const n = job.offsets.length;
          const ps = softmax(starts.data, r * width + job.ctxStart, r * width + job.ctxStart + n);
          const pe = softmax(ends.data, r * width + job.ctxStart, r * width + job.ctxStart + n);
          const context = (inputs[job.input] as { context: string }).context;
          cands[job.input]!.push(...bestSpans(ps, pe, job.offsets, context, opts));
        },
        result(i): ModelOutput {
          // Windows overlap: keep each span once, with its best score.
          const seen = new Map<string, AnswerSpan>();
          for (const c of cands[i]!) {
            const key = `${c.start}:${c.end}`;
            const prev = seen.get(key);
            if (!prev || prev.score < c.score) seen.set(key, c);
          }
          const spans = [...seen.values()].sort((x, y) => y.score - x.score || x.start - y.start).slice(0, opts.topK);
          return { kind: 'spans', spans };
        },
      };
    },
  };
}

/** Best start/end pairs of one window (start ≤ end, at most maxAnswerTokens long). */
function bestSpans(ps: number[], pe: number[], offsets: [number, number][], context: string, opts: QaOptions): AnswerSpan[] {
  const nBest = 20;
  const top = (xs: number[]): number[] =>
    xs
      .map((p, i) => [p, i] as const)
      .sort((x, y) => y[0] - x[0])
      .slice(0, nBest)
      .map(([, i]) => i);
  const out: AnswerSpan[] = [];
  for (const s of top(ps)) {
    for (const e of top(pe)) {
      if (e < s || e - s + 1 > opts.maxAnswerTokens) continue;
      const start = offsets[s]![0];
      const end = offsets[e]![1];
      out.push({ text: context.slice(start, end), start, end, score: ps[s]! * pe[e]! });
    }
  }
  return out.sort((x, y) => y.score - x.score).slice(0, Math.max(opts.topK, 1) * 2);
}
