import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CANDIDATES,
  deletionTypos,
  insertionTypos,
  keyNeighbours,
  mistypeTypos,
  pronounceTypos,
  replaceWordTypos,
  swapTypos,
  TYPO_SOURCE_NAMES,
  TYPO_SOURCES,
  type TypoSourceName,
} from '../../src/perturb/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

const r1 = () => new Rng(1);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('insertion', () => {
  it('samples doubled letters and keyboard-neighbour letters, in order of position (seeded)', () => {
    expect(insertionTypos('cat', r1())).toEqual(['xcat', 'cxat', 'cvat', 'cfat', 'cwat', 'cawt', 'cazt', 'caty']);
    expect(insertionTypos('cat', new Rng(2))).toEqual(['dcat', 'cdat', 'cqat', 'cawt', 'cayt', 'cagt', 'catr', 'caty']);
    expect(insertionTypos('inspire', r1())).toEqual([
      'imnspire',
      'ihnspire',
      'inbspire',
      'inmspire',
      'inzspire',
      'inslpire',
      'inspkire',
      'inspirwe',
    ]);
  });

  it('lists everything when the cap allows: doubles first, then neighbours of the letter before and after', () => {
    expect(insertionTypos('oh', r1(), { maxCandidates: Infinity })).toEqual([
      // before o: neighbours of o
      'ioh',
      'poh',
      'koh',
      'loh',
      // between o and h: o doubled, neighbours of o, neighbours of h
      'ooh',
      'oih',
      'oph',
      'okh',
      'olh',
      'ogh',
      'ojh',
      'oyh',
      'ouh',
      'obh',
      'onh',
      // after h: h doubled, neighbours of h
      'ohh',
      'ohg',
      'ohj',
      'ohy',
      'ohu',
      'ohb',
      'ohn',
    ]);
  });

  it('keeps the capitalisation pattern', () => {
    expect(insertionTypos('The', r1())).toEqual(['Trhe', 'Tyhe', 'Tfhe', 'Tghe', 'Tnhe', 'Thue', 'Thbe', 'Ther']);
    expect(insertionTypos('RECEIVE', r1())).toEqual([
      'RSECEIVE',
      'REECEIVE',
      'RERCEIVE',
      'RESCEIVE',
      'RECVEIVE',
      'RECEDIVE',
      'RECEIUVE',
      'RECEIVSE',
    ]);
    // mixed case: the new letter takes the case of the letter before it
    expect(insertionTypos('iPhone', r1())).toEqual([
      'ilPhone',
      'iPPhone',
      'iPLhone',
      'iPGhone',
      'iPhhone',
      'iPhkone',
      'iPhokne',
      'iPhonde',
    ]);
  });
});

describe('deletion', () => {
  it('drops each character in turn', () => {
    expect(deletionTypos('cat', r1())).toEqual(['at', 'ct', 'ca']);
    expect(deletionTypos('inspire', r1())).toEqual(['nspire', 'ispire', 'inpire', 'insire', 'inspre', 'inspie', 'inspir']);
    expect(deletionTypos('oh', r1())).toEqual(['h', 'o']);
  });

  it('gives a doubled letter once and samples positions of long words', () => {
    expect(deletionTypos('occasion', r1())).toEqual(['ccasion', 'ocasion', 'occsion', 'occaion', 'occason', 'occasin', 'occasio']);
    expect(deletionTypos('definitely', r1())).toEqual([
      'dfinitely',
      'deinitely',
      'defnitely',
      'defiitely',
      'defintely',
      'definiely',
      'definitly',
      'definitel',
    ]);
    expect(deletionTypos('definitely', new Rng(2))).toEqual([
      'dfinitely',
      'deinitely',
      'defnitely',
      'defiitely',
      'definiely',
      'definitly',
      'definitey',
      'definitel',
    ]);
  });

  it('keeps capitalisation and WordSeq word shape', () => {
    expect(deletionTypos('Receive', r1())).toEqual(['Eceive', 'Rceive', 'Reeive', 'Recive', 'Receve', 'Receie', 'Receiv']);
    expect(deletionTypos('The', r1())).toEqual(['He', 'Te', 'Th']);
    // never a leading/trailing apostrophe or hyphen ("-mail" would not be one word)
    expect(deletionTypos("don't", r1())).toEqual(["on't", "dn't", "do't", 'dont']);
    expect(deletionTypos('e-mail', r1())).toEqual(['email', 'e-ail', 'e-mil', 'e-mal', 'e-mai']);
  });
});

describe('swap', () => {
  it('swaps every adjacent pair, ends included', () => {
    expect(swapTypos('inspire', r1())).toEqual(['nispire', 'isnpire', 'inpsire', 'insipre', 'insprie', 'inspier']);
    expect(swapTypos('the', r1())).toEqual(['hte', 'teh']);
    expect(swapTypos('oh', r1())).toEqual(['ho']);
  });

  it('skips swaps of equal letters; keepEnds keeps first and last letter', () => {
    expect(swapTypos('book', r1())).toEqual(['obok', 'boko']);
    expect(swapTypos('inspire', r1(), { keepEnds: true })).toEqual(['isnpire', 'inpsire', 'insipre', 'insprie']);
    expect(swapTypos('aa', r1())).toEqual([]);
  });

  it('keeps capitalisation', () => {
    expect(swapTypos('The', r1())).toEqual(['Hte', 'Teh']);
    expect(swapTypos('RECEIVE', r1())).toEqual(['ERCEIVE', 'RCEEIVE', 'REECIVE', 'RECIEVE', 'RECEVIE', 'RECEIEV']);
  });
});

describe('mistype', () => {
  it('replaces one character by a QWERTY neighbour, digit row included', () => {
    expect(mistypeTypos('oh', r1())).toEqual(['ih', 'ph', '9h', '0h', 'kh', 'lh', 'og', 'oj', 'oy', 'ou', 'ob', 'on']);
    expect(mistypeTypos('oh', r1())).toContain('0h');
    expect(mistypeTypos('cat', r1())).toEqual([
      'xat',
      'vat',
      'dat',
      'fat',
      'cst',
      'cqt',
      'cwt',
      'czt',
      'car',
      'cay',
      'ca5',
      'ca6',
      'caf',
      'cag',
    ]);
  });

  it('preserves the case of a replaced letter; digits replace as digits', () => {
    expect(mistypeTypos('Oh', r1())).toEqual(['Ih', 'Ph', '9h', '0h', 'Kh', 'Lh', 'Og', 'Oj', 'Oy', 'Ou', 'Ob', 'On']);
    expect(mistypeTypos('OH', r1())).toEqual(['IH', 'PH', '9H', '0H', 'KH', 'LH', 'OG', 'OJ', 'OY', 'OU', 'OB', 'ON']);
    expect(mistypeTypos('iPhone', r1(), { maxCandidates: 4 })).toEqual(['uPhone', 'iOhone', 'i0hone', 'iPhkne']);
  });

  it('samples 16 by default for longer words, in position order', () => {
    expect(mistypeTypos('inspire', r1())).toEqual([
      'unspire',
      '9nspire',
      'ibspire',
      'imspire',
      'ihspire',
      'inapire',
      'inwpire',
      'inzpire',
      'insoire',
      'ins0ire',
      'insp8re',
      'inspjre',
      'inspiee',
      'inspir3',
      'inspir4',
      'inspird',
    ]);
    expect(mistypeTypos('inspire', r1(), { maxCandidates: Infinity })).toHaveLength(
      [...'inspire'].reduce((n, c) => n + keyNeighbours(c).length, 0),
    );
  });

  it('digits and symbols are options', () => {
    expect(mistypeTypos('oh', r1(), { digits: false })).toEqual(['ih', 'ph', 'kh', 'lh', 'og', 'oj', 'oy', 'ou', 'ob', 'on']);
    expect(mistypeTypos('Op', r1(), { symbols: true, maxCandidates: Infinity })).toEqual([
      'Ip',
      'Pp',
      '9p',
      '(p',
      '0p',
      ')p',
      'Kp',
      'Lp',
      'Oo',
      'O[',
      'O0',
      'O-',
      'Ol',
      'O;',
    ]);
  });
});

describe('pronounce', () => {
  it('gives sound-alike spellings, every rule at every match', () => {
    expect(pronounceTypos('phone', r1())).toEqual(['fone', 'phonne']);
    expect(pronounceTypos('receive', r1())).toEqual(['recceive', 'reseive', 'recieve']);
    expect(pronounceTypos('occasion', r1())).toEqual(['ocasion', 'ockasion', 'occesion', 'occassion', 'occacion', 'occazion', 'occation']);
    expect(pronounceTypos('definitely', r1())).toEqual([
      'deffinitely',
      'dephinitely',
      'defenitely',
      'definnitely',
      'definetely',
      'definittely',
      'definitaly',
      'definitily',
      'definiteli',
    ]);
    expect(pronounceTypos('begin', r1())).toEqual(['beggin', 'begen']);
    expect(pronounceTypos('cat', r1())).toEqual(['kat']);
    expect(pronounceTypos('oh', r1())).toEqual([]);
  });

  it('keeps capitalisation, in place for mixed case', () => {
    expect(pronounceTypos('Phone', r1())).toEqual(['Fone', 'Phonne']);
    expect(pronounceTypos('PHONE', r1())).toEqual(['FONE', 'PHONNE']);
    expect(pronounceTypos('iPhone', r1())).toEqual(['iFone', 'iPhonne']);
    expect(pronounceTypos('Knight', r1())).toEqual(['Night', 'Knit']);
  });

  it('samples when capped', () => {
    expect(pronounceTypos('definitely', r1(), { maxCandidates: 3 })).toEqual(['defenitely', 'definnitely', 'definittely']);
  });
});

describe('replace-word', () => {
  it('picks real human misspellings from the list', () => {
    expect(replaceWordTypos('receive', r1())).toEqual([
      'receice',
      'receieve',
      'receiv',
      'receve',
      'recevie',
      'recieve',
      'recive',
      'reveive',
    ]);
    expect(replaceWordTypos('receive', r1(), { maxCandidates: Infinity })).toContain('recieve');
    expect(replaceWordTypos('occasion', r1())).toEqual([
      'ocasion',
      'ocassion',
      'occaision',
      'occaison',
      'occasin',
      'occassion',
      'occation',
      'occsion',
    ]);
    expect(replaceWordTypos('because', r1())).toEqual([
      'beacuse',
      'beause',
      'becacdd',
      'becacuse',
      'becasuse',
      'becaused',
      'becayse',
      'bevause',
    ]);
    expect(replaceWordTypos('because', new Rng(2))).toEqual([
      'beause',
      'becacuse',
      'becaise',
      'becausw',
      'becuae',
      'becuse',
      'betcause',
      'bevause',
    ]);
  });

  it('copies the capitalisation pattern and is empty for unlisted words', () => {
    expect(replaceWordTypos('Receive', r1())).toEqual([
      'Receice',
      'Receieve',
      'Receiv',
      'Receve',
      'Recevie',
      'Recieve',
      'Recive',
      'Reveive',
    ]);
    expect(replaceWordTypos('RECEIVE', r1(), { maxCandidates: 2 })).toEqual(['RECEIEVE', 'RECIEVE']);
    expect(replaceWordTypos('cat', r1())).toEqual([]);
    expect(replaceWordTypos('xqzv', r1())).toEqual([]);
  });
});

const WORDS = [
  'a',
  'I',
  'oh',
  'the',
  'The',
  'cat',
  'book',
  'phone',
  'inspire',
  'receive',
  'Receive',
  'RECEIVE',
  'occasion',
  'because',
  'definitely',
  'necessary',
  'iPhone',
  'McDonald',
  "don't",
  'e-mail',
  'COVID-19',
  '2024',
  'naïve',
  'Straße',
  'café',
  'knowledge',
  'separate',
  'aaaa',
  '𝒜bc',
  'internationalization',
];

describe('every typo source', () => {
  it('is registered under its name', () => {
    expect(TYPO_SOURCE_NAMES).toEqual(['insertion', 'deletion', 'swap', 'mistype', 'pronounce', 'replace-word']);
    expect(TYPO_SOURCES.swap).toBe(swapTypos);
    expect(TYPO_SOURCES['replace-word']).toBe(replaceWordTypos);
  });

  for (const name of TYPO_SOURCE_NAMES) {
    const source = TYPO_SOURCES[name as TypoSourceName];
    describe(name, () => {
      it('never returns the word itself, never repeats, respects the cap', () => {
        for (const w of WORDS) {
          for (const opts of [undefined, { maxCandidates: 3 }, { maxCandidates: Infinity, minLength: 1 }]) {
            const out = source(w, new Rng(w), opts);
            expect(out).not.toContain(w);
            expect(new Set(out).size).toBe(out.length);
            expect(out.length).toBeLessThanOrEqual(opts?.maxCandidates ?? DEFAULT_MAX_CANDIDATES[name]);
            for (const c of out) expect(c.length).toBeGreaterThan(0);
          }
        }
      });

      it('is deterministic for a seed', () => {
        for (const w of WORDS) expect(source(w, new Rng(7))).toEqual(source(w, new Rng(7)));
      });

      it('keeps each candidate a single WordSeq word (no lone surrogates either)', () => {
        for (const w of WORDS) {
          for (const c of source(w, new Rng(3), { maxCandidates: Infinity, minLength: 1 })) {
            expect(WordSeq.parse(c).words, `${name}(${w}) → ${c}`).toEqual([c]);
            expect(LONE_SURROGATE.test(c)).toBe(false);
          }
        }
      });

      it('gives nothing for empty words and, by default, one-letter words', () => {
        expect(source('', r1())).toEqual([]);
        expect(source('a', r1())).toEqual([]);
        expect(source('I', r1())).toEqual([]);
        expect(source('receive', r1(), { minLength: 8 })).toEqual([]);
      });

      it('keeps Title-case words Title-case', () => {
        for (const w of ['Receive', 'Phone', 'Because', 'Occasion', 'Inspire']) {
          for (const c of source(w, r1())) {
            if (/^\p{L}/u.test(c)) expect(c, `${name}(${w}) → ${c}`).toMatch(/^\p{Lu}\P{Lu}*$/u);
          }
        }
      });
    });
  }

  it('different seeds usually give different samples', () => {
    for (const name of ['insertion', 'mistype', 'replace-word'] as const) {
      const a = TYPO_SOURCES[name]('definitely', new Rng(1));
      const b = TYPO_SOURCES[name]('definitely', new Rng(2));
      expect(a).not.toEqual(b);
    }
  });

  it('minLength 1 opens one-letter words to sources where that makes sense', () => {
    expect(insertionTypos('a', r1(), { minLength: 1, maxCandidates: Infinity })).toEqual([
      'sa',
      'qa',
      'wa',
      'za',
      'aa',
      'as',
      'aq',
      'aw',
      'az',
    ]);
    expect(mistypeTypos('I', r1(), { minLength: 1 })).toEqual(['U', 'O', '8', '9', 'J', 'K']);
    expect(deletionTypos('a', r1(), { minLength: 1 })).toEqual([]);
    expect(swapTypos('a', r1(), { minLength: 1 })).toEqual([]);
  });
});
