import { describe, expect, it } from 'vitest';
import { WordSeq } from '../../src/text/word-seq.ts';

describe('WordSeq', () => {
  const text = "It's a well-made, charming film .";
  const seq = WordSeq.parse(text);

  it('splits words from punctuation and keeps every character', () => {
    expect(seq.words).toEqual(["It's", 'a', 'well-made', 'charming', 'film']);
    expect(seq.gaps).toEqual(['', ' ', ' ', ', ', ' ', ' .']);
    expect(seq.toString()).toBe(text);
    expect(seq.offsetOf(2)).toBe(7);
  });

  it('replaces, inserts and deletes without disturbing spacing', () => {
    expect(seq.replace(3, 'charmnig').toString()).toBe("It's a well-made, charmnig film .");
    expect(seq.insert(0, 'X').toString()).toBe("X It's a well-made, charming film .");
    expect(seq.insert(2, 'very').toString()).toBe("It's a very well-made, charming film .");
    expect(seq.insert(seq.length, 'indeed').toString()).toBe("It's a well-made, charming film indeed .");
    expect(seq.delete(0).toString()).toBe('a well-made, charming film .');
    expect(seq.delete(seq.length - 1).toString()).toBe("It's a well-made, charming .");
    expect(WordSeq.parse('').insert(0, 'a').toString()).toBe('a');
  });

  it('round-trips pre-split tokens', () => {
    const t = WordSeq.fromTokens(['EU', 'rejects', 'German', 'call']);
    expect(t.toString()).toBe('EU rejects German call');
    expect(t.replace(1, 'rejcets').words).toEqual(['EU', 'rejcets', 'German', 'call']);
  });
});
