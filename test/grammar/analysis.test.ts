import { describe, expect, it } from 'vitest';
import { defaultLexicon } from '../../src/perturb/grammar/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';

const analyzer = defaultLexicon().analyzer;
const tags = (text: string): string[] =>
  analyzer.analyse(WordSeq.parse(text)).words.map((w) => `${w.lower}/${w.pos}${w.verbForm ? `/${w.verbForm}` : ''}`);

describe('the sentence analysis behind the grammar rules', () => {
  it('aligns the tagger with WordSeq words and derives verb forms', () => {
    expect(tags('He grows up.')).toEqual(['he/PRON', 'grows/VERB/VBZ', 'up/ADP']);
    expect(tags('They will grow')).toEqual(['they/PRON', 'will/AUX', 'grow/VERB/VB']);
    expect(tags('They have grown')).toEqual(['they/PRON', 'have/AUX/VBP', 'grown/VERB/VBN']);
  });

  it('marks words the tagger splits or only partly covers as X (no rule edits them)', () => {
    expect(tags("He doesn't know")[1]).toBe("doesn't/X");
    // SST-2's tokenised "it 's": the word is "s", the token "'s"
    expect(tags("it 's fine")[1]).toBe('s/X');
  });

  it('skips empty, word-less and non-English text with a reason', () => {
    const check = (t: string) => {
      const r = analyzer.check(WordSeq.parse(t));
      return r.ok ? 'ok' : r.reason;
    };
    expect(check('')).toBe('empty text');
    expect(check('   ')).toBe('empty text');
    expect(check('... !!! ???')).toBe('no words the tagger can analyse');
    expect(check('12 34 56')).toBe('no words the tagger can analyse');
    expect(check('Le chat est sur la table avec les enfants.')).toBe('not English');
    expect(check('Der Hund ist sehr gut und schläft im Garten.')).toBe('not English');
    expect(check('東京は日本の首都です')).toBe('not English');
    expect(check('a sometimes tedious film .')).toBe('ok');
  });

  it('caches analyses per text', () => {
    const seq = WordSeq.parse('The cached sentence is analysed once.');
    expect(analyzer.analyse(seq)).toBe(analyzer.analyse(WordSeq.parse('The cached sentence is analysed once.')));
  });
});
