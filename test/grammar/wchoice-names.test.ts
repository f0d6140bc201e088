import { describe, expect, it } from 'vitest';
import {
  allGrammarCandidates,
  defaultLexicon,
  FREQUENT_SENSE_SHARE,
  MIN_POS_SHARE,
  MIN_SYNONYM_COUNT,
  type GrammarErrorType,
} from '../../src/perturb/grammar/index.ts';
import { commonSynonyms } from '../../src/perturb/grammar/types/wchoice.ts';
import { WordSeq } from '../../src/text/word-seq.ts';

// SST-2 dev sentences (dev.tsv lines 4, 12, 17, 18) where the review found the problems
const NOLAN = 'allows us to hope that nolan is poised to embark a major career as a commercial yet inventive filmmaker . ';
const LEADS = 'the mesmerizing performances of the leads keep the film grounded and keep the audience riveted . ';
const MUSICAL = 'a gorgeous , high-spirited musical from india that exquisitely blends music , dance , song , and high drama . ';
const NERVE = "the emotions are raw and will strike a nerve with anyone who 's ever had family trauma . ";

/** The replacements an error type proposes for `word` (its first occurrence) in `text`. */
function at(text: string, word: string, type: GrammarErrorType): string[] {
  const seq = WordSeq.parse(text);
  const i = seq.words.indexOf(word);
  expect(i).toBeGreaterThanOrEqual(0);
  return allGrammarCandidates(seq, { types: [type] })
    .filter((c) => c.wordIndex === i)
    .map((c) => c.after);
}

describe('Wchoice: frequent senses and common words only', () => {
  const { synonyms, frequencies } = defaultLexicon();

  it('keeps the thresholds documented', () => {
    expect([FREQUENT_SENSE_SHARE, MIN_POS_SHARE, MIN_SYNONYM_COUNT]).toEqual([0.25, 0.1, 25]);
  });

  it('"nerve": no anatomical "nervus" (unlisted in SUBTLEX-US), no rare "mettle"; "boldness" and "cheek" are a rare sense', () => {
    expect(synonyms.synonyms('nerve', 'noun', { all: true })).toEqual([
      'nervus',
      'heart',
      'mettle',
      'spunk',
      'boldness',
      'brass',
      'face',
      'cheek',
    ]);
    expect(synonyms.synonyms('nerve', 'noun')).toEqual(['nervus', 'heart', 'mettle', 'spunk']);
    expect(frequencies.count('mettle')).toBe(17);
    expect(commonSynonyms(synonyms, frequencies, 'nerve', 'noun')).toEqual(['heart', 'spunk']);
    expect(at(NERVE, 'nerve', 'Wchoice')).toEqual(['heart', 'spunk']);
  });

  it('"leads": no "pbs" (lead the metal, written "Pb" in WordNet), no "lead-ins" or "ledes"', () => {
    expect(at(LEADS, 'leads', 'Wchoice')).toEqual(['tracks', 'trails']);
  });

  it('"musical" (tagged ADJ): only its frequent sense, which has no synonym, so no "melodious"', () => {
    expect(synonyms.synonyms('musical', 'adj', { all: true })).toEqual(['melodious', 'melodic']);
    expect(synonyms.synonyms('musical', 'adj')).toEqual([]);
    expect(at(MUSICAL, 'musical', 'Wchoice')).toEqual([]);
  });

  it('only synonyms used in the part of speech the tagger gave: "countenance" is a noun in SemCor (8 tags, 0 as a verb)', () => {
    expect(synonyms.synonyms('allow', 'verb', { all: true }).slice(0, 4)).toEqual(['let', 'permit', 'countenance', 'grant']);
    expect(synonyms.synonyms('allow', 'verb')).toEqual(['let', 'permit', 'grant']);
  });

  it('still proposes common synonyms for ordinary words, in sense order, at most ten', () => {
    expect(at(NOLAN, 'allows', 'Wchoice')).toEqual(['lets', 'permits', 'grants']);
    expect(at(NOLAN, 'inventive', 'Wchoice')).toEqual(['imaginative']);
    expect(at(LEADS, 'film', 'Wchoice')).toEqual(['movie', 'picture', 'pic', 'flick', 'cinema']);
    expect(at(NERVE, 'strike', 'Wchoice')).toEqual(['affect', 'impress', 'move', 'hit']);
    expect(at(NERVE, 'family', 'Wchoice')).toEqual(['household', 'house', 'home']);
    expect(at('unflinchingly bleak and desperate ', 'bleak', 'Wchoice')).toEqual(['black', 'dim', 'bare', 'barren', 'desolate', 'stark']);
    expect(at('the film is a tedious journey', 'tedious', 'Wchoice')).toEqual(['boring', 'dull', 'slow', 'tiresome']);
  });
});

describe('names are not inflected or replaced', () => {
  it('"nolan" in lower-cased SST-2 is tagged NOUN but marked a name: no "nolans", no synonym', () => {
    const words = defaultLexicon().analyzer.analyse(WordSeq.parse(NOLAN)).words;
    expect(words.filter((w) => w.name).map((w) => w.lower)).toEqual(['nolan']);
    expect(at(NOLAN, 'nolan', 'Nn')).toEqual([]);
    expect(at(NOLAN, 'nolan', 'Wchoice')).toEqual([]);
    // the sentence's common nouns still change number
    expect(allGrammarCandidates(WordSeq.parse(NOLAN), { types: ['Nn'] }).map((c) => c.after)).toEqual(['careers', 'filmmakers']);
  });

  it('lower-cased names WordNet or SUBTLEX-US capitalise are names; nouns that are also names are not', () => {
    const text = 'the film is a tedious journey to paris with steven and mark .';
    const words = defaultLexicon().analyzer.analyse(WordSeq.parse(text)).words;
    expect(words.filter((w) => w.pos === 'NOUN').map((w) => [w.lower, w.name === true])).toEqual([
      ['film', false],
      ['journey', false],
      ['paris', true],
      ['steven', true],
      ['mark', false],
    ]);
    expect(at(text, 'paris', 'Nn')).toEqual([]);
    expect(at(text, 'steven', 'Wchoice')).toEqual([]);
    expect(at(text, 'mark', 'Nn')).toEqual(['marks']);
  });

  it('capitalised names are PROPN and left alone as before', () => {
    const text = 'Nolan is poised to embark on a major career in Paris .';
    expect(at(text, 'Nolan', 'Nn')).toEqual([]);
    expect(at(text, 'Paris', 'Wchoice')).toEqual([]);
    expect(allGrammarCandidates(WordSeq.parse(text), { types: ['Nn'] }).map((c) => c.after)).toEqual(['careers']);
  });
});
