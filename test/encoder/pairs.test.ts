import { describe, expect, it } from 'vitest';
import {
  applyError,
  buildMinimalPairs,
  randomTop2,
  readSentences,
  usableSentence,
  PAPER_WORDS,
  WORDNET_SOURCE,
} from '../../src/families/encoder/domain.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { SENTENCES } from './sentences.ts';

describe('probing pairs', () => {
  it('puts exactly one error of one type in each sentence, seeded', () => {
    const r = buildMinimalPairs(SENTENCES.slice(0, 6), { types: ['SVA', 'ArtOrDet'], perType: 2, seed: 3 });
    expect(r.made).toEqual({ ArtOrDet: 2, SVA: 2 });
    expect(
      r.pairs.map((p) => ({
        id: p.id,
        type: p.type,
        op: p.op,
        before: p.before,
        after: p.after,
        errorWords: p.errorWords,
        text: p.error.words.join(' '),
      })),
    ).toEqual([
      {
        id: 's2',
        type: 'ArtOrDet',
        op: 'replace',
        before: 'the',
        after: 'a',
        errorWords: [3],
        text: 'He quickly opened a door and left the room',
      },
      {
        id: 's3',
        type: 'ArtOrDet',
        op: 'delete',
        before: 'the',
        after: '',
        errorWords: [5],
        text: 'A dog was barking in garden all night',
      },
      { id: 's4', type: 'SVA', op: 'replace', before: 'are', after: 'is', errorWords: [1], text: 'They is going to the market on Sunday' },
      {
        id: 's0',
        type: 'SVA',
        op: 'replace',
        before: 'walk',
        after: 'walks',
        errorWords: [2],
        text: 'The children walks to school every morning',
      },
    ]);
    // the clean side is the sentence itself, punctuation kept in the gaps
    expect(r.pairs[3]!.clean.words.join(' ')).toBe('The children walk to school every morning');
    expect(r.pairs[3]!.clean.gaps.at(-1)).toBe('.');
    expect(buildMinimalPairs(SENTENCES.slice(0, 6), { types: ['SVA', 'ArtOrDet'], perType: 2, seed: 3 })).toEqual(r);
  });

  it('splits pairs 80/10/10 per type, both sentences of a pair together', async () => {
    const { sentences } = await readSentences([WORDNET_SOURCE]);
    const r = buildMinimalPairs(sentences.slice(0, 3000), { types: ['Prep'], perType: 50, seed: 1 });
    const count = (s: string) => r.pairs.filter((p) => p.split === s).length;
    expect([count('train'), count('dev'), count('test')]).toEqual([40, 5, 5]);
    for (const p of r.pairs) expect(p.error.words.join(' ')).not.toBe(p.clean.words.join(' '));
  });

  it('records where the error is for every kind of edit', () => {
    const seq = WordSeq.parse('the cat sat on the mat');
    expect(applyError(seq, { wordIndex: 1, after: 'cats', type: 'grammar:Nn' })).toMatchObject({ errorWords: [1], before: 'cat' });
    expect(applyError(seq, { wordIndex: 2, after: 'a', type: 'grammar:ArtOrDet', op: 'insert' }).seq.toString()).toBe(
      'the cat a sat on the mat',
    );
    const del = applyError(seq, { wordIndex: 5, after: '', type: 'grammar:ArtOrDet', op: 'delete' });
    expect([del.seq.toString(), del.errorWords]).toEqual(['the cat sat on the', [4]]);
    const swap = applyError(seq, { wordIndex: 1, after: '', type: 'grammar:Worder', op: 'swap' });
    expect([swap.seq.toString(), swap.errorWords]).toEqual(['the sat cat on the mat', [1, 2]]);
  });

  it('keeps sentences of 5 to 40 words that start with a letter', () => {
    expect(
      ['Too short here.', 'A sentence that is long enough.', '"Quoted" start is not kept.', 'ALL CAPS SENTENCE IS NOT KEPT'].map((s) =>
        usableSentence(s),
      ),
    ).toEqual([false, true, false, false]);
    // the paper's design: 10–60 words
    expect(usableSentence('A sentence that is long enough.', PAPER_WORDS)).toBe(false);
    expect(usableSentence('A sentence that is long enough for the paper design, ten words or more.', PAPER_WORDS)).toBe(true);
  });

  it('gives the chance that two random tokens hit the error', () => {
    expect(randomTop2(10, 1)).toBeCloseTo(0.2, 10);
    expect(randomTop2(2, 1)).toBe(1);
  });
});
