/**
 * Long texts are rewritten in linear time (issue 25, item 6): the one-pass rewrite gives exactly what the old
 * per-edit rewrite gave (kept below as the reference: it re-parsed the whole text for every edit), and QA noise on a
 * 600k-character context takes seconds, where it took over 17 minutes.
 */
import { describe, expect, it } from 'vitest';
import { rewriteExample, type TextRewrite } from '../../src/data/rewrite.ts';
import type { QaExample, TextExample } from '../../src/data/types.ts';
import { qaContextNoise } from '../../src/families/stress/qa/noise.ts';
import type { Edit } from '../../src/text/edits.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

/** The rewrite as it was before: the whole current text parsed again for each edit's word index. */
function referenceApply(original: string, rewrites: readonly TextRewrite[], field: string): { text: string; edits: Edit[] } {
  const wordsBefore = (text: string, offset: number): number => {
    const seq = WordSeq.parse(text);
    let pos = seq.gaps[0]!.length;
    let i = 0;
    for (; i < seq.length && pos < offset; i++) pos += seq.words[i]!.length + seq.gaps[i + 1]!.length;
    return i;
  };
  let text = original;
  let delta = 0;
  const edits: Edit[] = [];
  for (const r of rewrites) {
    const start = r.start + delta;
    const before = original.slice(r.start, r.end);
    edits.push({
      type: r.type,
      field,
      wordIndex: wordsBefore(text, start),
      start,
      before,
      after: r.text,
      ...(r.group !== undefined ? { group: r.group } : {}),
    });
    text = text.slice(0, start) + r.text + text.slice(start + before.length);
    delta += r.text.length - before.length;
  }
  return { text, edits };
}

const TEXTS = [
  "It's a well-made, half-hearted film — don't miss it!",
  'Zürich’s café-owners sold 1,200 crêpes; naïve? No.',
  '  leading spaces, then words   and   gaps  ',
  'ab',
  '',
  '日本語のテキスト and English mixed, 42 times.',
];

/** Random non-overlapping rewrites of `text`: replacements inside or across words, insertions, deletions. */
function randomRewrites(text: string, rng: Rng): TextRewrite[] {
  const between = (lo: number, hi: number): number => lo + rng.int(hi - lo + 1);
  const cuts = new Set<number>();
  const n = between(0, Math.min(12, text.length + 1));
  for (let i = 0; i < n; i++) cuts.add(between(0, text.length));
  const points = [...cuts].sort((a, b) => a - b);
  const out: TextRewrite[] = [];
  const fillers = ['', 'x', "o'k", 'new-word', ' ', '—', 'Ünï 7', "'"];
  for (let i = 0; i < points.length; i++) {
    const start = points[i]!;
    const end = between(0, 2) === 0 ? start : Math.min(points[i + 1] ?? text.length, start + between(0, 5));
    out.push({
      field: 'text',
      start,
      end,
      text: fillers[between(0, fillers.length - 1)]!,
      type: `t${i}`,
      ...(i % 3 ? {} : { group: 'g' }),
    });
  }
  return out;
}

describe('rewriteExample in one pass', () => {
  it('gives exactly the old per-edit results: texts, word indexes, offsets, before/after, groups', () => {
    const rng = new Rng(7);
    let compared = 0;
    for (let round = 0; round < 300; round++) {
      const text = TEXTS[round % TEXTS.length]!;
      const rewrites = randomRewrites(text, rng);
      const example: TextExample = { kind: 'text', id: `r${round}`, text, label: '0' };
      const got = rewriteExample(example, rewrites);
      const sorted = rewrites.slice().sort((a, b) => a.start - b.start || a.end - b.end);
      const want = referenceApply(text, sorted, 'text');
      expect((got.example as TextExample).text).toBe(want.text);
      expect(got.edits).toEqual(want.edits);
      compared += want.edits.length;
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('a fixed case, worked out by hand', () => {
    const example: TextExample = { kind: 'text', id: 'a', text: "Don't stop-gap it, ok?", label: '1' };
    const { example: out, edits } = rewriteExample(example, [
      { field: 'text', start: 6, end: 14, text: 'halt', type: 'swap' },
      { field: 'text', start: 0, end: 0, text: 'Well, ', type: 'insert' },
      { field: 'text', start: 19, end: 21, text: 'okay', type: 'swap', group: 'g' },
    ]);
    expect((out as TextExample).text).toBe("Well, Don't halt it, okay?");
    expect(edits).toEqual([
      { type: 'insert', field: 'text', wordIndex: 0, start: 0, before: '', after: 'Well, ' },
      { type: 'swap', field: 'text', wordIndex: 2, start: 12, before: 'stop-gap', after: 'halt' },
      { type: 'swap', field: 'text', wordIndex: 4, start: 21, before: 'ok', after: 'okay', group: 'g' },
    ]);
  });

  it('QA noise on a 600,000-character context takes seconds and keeps the answer; the same as the old rewrite on 5k', () => {
    const paragraph =
      "The Normans gave their name to Normandy, a region in France. Their leader Rollo swore fealty to King Charles III; they'd " +
      'adopted the Gallo-Romance language. ';
    const make = (size: number): QaExample => {
      const context = paragraph.repeat(Math.ceil(size / paragraph.length)).slice(0, size);
      const start = context.indexOf('Rollo', Math.floor(size / 2));
      return { kind: 'qa', id: `long-${size}`, question: 'Who led them?', context, answers: [{ text: 'Rollo', start }] };
    };
    const small = make(5000);
    const noisedSmall = qaContextNoise(small, 'swap', { seed: 3 });
    const words = WordSeq.parse(small.context);
    expect(noisedSmall.edits.length).toBeGreaterThan(300);
    const rewrites: TextRewrite[] = noisedSmall.edits.map((e) => {
      const original =
        e.start - noisedSmall.edits.filter((o) => o.start < e.start).reduce((d, o) => d + o.after.length - o.before.length, 0);
      return { field: 'context', start: original, end: original + e.before.length, text: e.after, type: e.type };
    });
    const want = referenceApply(small.context, rewrites, 'context');
    expect(noisedSmall.example.context).toBe(want.text);
    expect(noisedSmall.edits).toEqual(want.edits);
    expect(words.length).toBeGreaterThan(noisedSmall.edits.length);

    const big = make(600_000);
    const t0 = performance.now();
    const noised = qaContextNoise(big, 'swap', { seed: 3 });
    const seconds = (performance.now() - t0) / 1000;
    expect(noised.edits.length).toBeGreaterThan(40_000);
    const a = noised.example.answers[0]!;
    expect(noised.example.context.slice(a.start, a.start + 5)).toBe('Rollo');
    expect(seconds).toBeLessThan(10);
  }, 30_000);
});
