/** Context noise for QA: exact outputs on a hand-made example, and gold spans that survive on real SQuAD paragraphs. */
import { describe, expect, it } from 'vitest';
import { collect, TextstressError, type QaExample } from '../../../src/index.ts';
import { loadSquad, NOISE_TYPES, qaContextNoise } from '../../../src/internal.ts';
import { WordSeq } from '../../../src/text/word-seq.ts';

const SQUAD = 'test/fixtures/data/squad-v1.1/dev-v1.1.json';

// Three annotators: nested answers ("Geneva" inside "Geneva, Switzerland") and one ending mid-word ("1990" in "1990s").
const example: QaExample = {
  kind: 'qa',
  id: 'q1',
  question: 'Where did the committee meet?',
  context: 'The committee would meet in Geneva, Switzerland, because the weather was pleasant in 1990s.',
  answers: [
    { text: 'Geneva', start: 28 },
    { text: 'Geneva, Switzerland', start: 28 },
    { text: '1990', start: 85 },
  ],
};

describe('qaContextNoise on a hand-made example (seed 7)', () => {
  const same = example.answers;
  it.each([
    ['swap', 'The cmomittee wuold meet in Geneva, Switzerland, becuase the wetaher was pleasnat in 1990s.', same, 5],
    ['middle-random', 'The cetoitmme wluod meet in Geneva, Switzerland, bcaesue the whetaer was pnaalset in 1990s.', same, 5],
    ['fully-random', 'Teh mocttieem ulwdo etme ni Geneva, Switzerland, ubcsaee eht eatewrh swa selaaptn ni 1990s.', same, 11],
    ['keyboard', 'Yhe ckmmittee woyld meeg ij Geneva, Switzerland, befause fhe weathed wss pleasajt ib 1990s.', same, 11],
    [
      'natural',
      'Thte committe woulf meet inh Geneva, Switzerland, becouse tge wheater waas plesant ein 1990s.',
      [
        { text: 'Geneva', start: 29 },
        { text: 'Geneva, Switzerland', start: 29 },
        { text: '1990', start: 87 },
      ],
      10,
    ],
  ] as const)('%s', (type, context, answers, changed) => {
    const r = qaContextNoise(example, type, { seed: 7 });
    expect(r.example).toEqual({ ...example, context, answers });
    expect([r.edits.length, r.eligible]).toEqual([changed, 11]);
  });

  it('records each changed word as a typed, positioned edit', () => {
    const r = qaContextNoise(example, 'natural', { seed: 7 });
    expect(r.edits.slice(0, 3)).toEqual([
      { type: 'noise:natural', field: 'context', wordIndex: 0, start: 0, before: 'The', after: 'Thte' },
      { type: 'noise:natural', field: 'context', wordIndex: 1, start: 5, before: 'committee', after: 'committe' },
      { type: 'noise:natural', field: 'context', wordIndex: 2, start: 14, before: 'would', after: 'woulf' },
    ]);
  });

  it('keeps words partly inside a span ("1990s" for the answer "1990") and the question', () => {
    const r = qaContextNoise(example, 'fully-random', { seed: 3 });
    expect(r.example.context.endsWith(' 1990s.')).toBe(true);
    expect(r.example.question).toBe(example.question);
    expect(r.example.context.slice(28, 47)).toBe('Geneva, Switzerland');
  });

  it('a question without gold answers gets noise on every word', () => {
    const r = qaContextNoise({ ...example, answers: [] }, 'keyboard', { seed: 7 });
    expect([r.eligible, r.edits.length]).toEqual([14, 14]);
  });

  it('an answer that is not at its offset is an error naming the example', () => {
    const bad = { ...example, answers: [{ text: 'Geneva', start: 27 }] };
    const err = (() => {
      try {
        qaContextNoise(bad, 'swap');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TextstressError);
    expect((err as TextstressError).describe()).toBe(
      'QA example q1: answer 1 is "Geneva" but the context at offset 27 reads " Genev". Fix the answer offset ' +
        '(answer_start) in the data; the noise test needs each gold answer at its offset.',
    );
  });

  it('refuses an unknown noise type', () => {
    expect(() => qaContextNoise(example, 'typo' as 'swap')).toThrow('unknown noise type "typo"');
  });
});

describe('qaContextNoise on the SQuAD v1.1 fixture', async () => {
  const examples = await collect(await loadSquad(SQUAD));

  it.each(NOISE_TYPES)('%s: every gold answer verbatim at its new offset, same word count, same seed → same output', (type) => {
    expect(examples.length).toBe(89);
    let changed = 0;
    for (const ex of examples) {
      const r = qaContextNoise(ex, type, { seed: 11 });
      expect(r.example.question).toBe(ex.question);
      expect(r.example.answers.map((a) => a.text)).toEqual(ex.answers.map((a) => a.text));
      for (const a of r.example.answers) expect(r.example.context.slice(a.start, a.start + a.text.length)).toBe(a.text);
      // Every noise type turns one word into one word.
      expect(WordSeq.parse(r.example.context).length).toBe(WordSeq.parse(ex.context).length);
      expect(qaContextNoise(ex, type, { seed: 11 })).toEqual(r);
      changed += r.edits.length;
    }
    expect(changed).toBeGreaterThan(examples.length * 10); // the noise really reaches the context
  });

  it('another seed gives another context', () => {
    const ex = examples[0]!;
    expect(qaContextNoise(ex, 'swap', { seed: 1 }).example.context).not.toBe(qaContextNoise(ex, 'swap', { seed: 2 }).example.context);
  });
});
