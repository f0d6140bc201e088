import { describe, expect, it } from 'vitest';
import { allGrammarCandidates, ARTICLES, defaultLexicon, PREPOSITIONS, TRANSITIONS } from '../../src/perturb/grammar/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { variants } from './helpers.ts';

describe('grammar error types on hand-picked sentences', () => {
  it("keeps the paper's confusion sets exactly", () => {
    expect(ARTICLES).toEqual(['a', 'an', 'the']);
    expect(PREPOSITIONS).toHaveLength(29);
    expect(TRANSITIONS).toHaveLength(17);
    expect(PREPOSITIONS).toContain('throughout');
    expect(TRANSITIONS).toContain('moreover');
  });

  it('SVA: "He grows up" → "He grow up"; "They have" → "They has"; "is" ↔ "are"', () => {
    expect(variants('He grows up', 'SVA')).toEqual(['He grow up']);
    expect(variants('They have left', 'SVA')).toEqual(['They has left']);
    expect(variants('The film is long', 'SVA')).toEqual(['The film are long']);
    // base forms after a modal or "to" are not present tense
    expect(variants('They will grow', 'SVA')).toEqual([]);
  });

  it('ArtOrDet: "the parents" → "a parents" / "parents"; "a film" → "the film" / "an film" / "film"', () => {
    expect(variants('the parents', 'ArtOrDet')).toEqual(['a parents', 'parents']);
    expect(variants('I saw a film', 'ArtOrDet')).toEqual(['I saw the film', 'I saw an film', 'I saw film']);
    // insertion only where a noun phrase starts without a determiner
    expect(variants('I like films', 'ArtOrDet')).toEqual(['I like the films', 'I like a films']);
  });

  it('Nn: "child" → "children", "parents" → "parent"', () => {
    expect(variants('the child', 'Nn')).toEqual(['the children']);
    expect(variants('the parents', 'Nn')).toEqual(['the parent']);
  });

  it('Vform: "grows" → "grew" / "growing" / "has grown" (one token only when multi-word is off)', () => {
    expect(variants('He grows up', 'Vform')).toEqual(['He grew up', 'He growing up', 'He has grown up']);
    expect(variants('He grows up', 'Vform', { multiWord: false })).toEqual(['He grew up', 'He growing up']);
    expect(variants('It failed', 'Vform')).toEqual(['It fails', 'It fail', 'It failing', 'It had failed']);
  });

  it('Prep: a preposition becomes each other one or goes; one is inserted between a verb and its object', () => {
    const out = variants('He grows up', 'Prep');
    expect(out).toHaveLength(29);
    expect(out.slice(0, 3)).toEqual(['He grows on', 'He grows in', 'He grows at']);
    expect(out.at(-1)).toBe('He grows');
    const ins = variants('They discuss the plan', 'Prep');
    expect(ins).toHaveLength(29);
    expect(ins[0]).toBe('They discuss on the plan');
    expect(ins).toContain('They discuss about the plan');
  });

  it('Trans: link words are swapped or dropped, and inserted at clause starts (capitalised at the start)', () => {
    const out = variants('I came, but it rained', 'Trans');
    expect(out).toContain('I came, and it rained');
    expect(out).toContain('I came, it rained');
    expect(out).toContain('However I came, but it rained');
    expect(out.filter((t) => t.startsWith('I came, but'))).toEqual([]);
  });

  it('Worder: swaps an adverb with a neighbouring adjective, participle or modal — only where the tags allow', () => {
    expect(variants('a very good film', 'Worder')).toEqual(['a good very film']);
    expect(variants('They will probably win', 'Worder')).toEqual(['They probably will win']);
    expect(variants('He runs very quickly', 'Worder')).toEqual([]);
    expect(variants('The recently released film', 'Worder')).toEqual(['The released recently film']);
  });

  it('Wchoice: only WordNet synonyms with the same part of speech, at most ten, inflected like the word', () => {
    const out = variants('He grows up', 'Wchoice');
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThanOrEqual(10);
    const lex = defaultLexicon().synonyms;
    const verbSyns = new Set(lex.synonyms('grow', 'verb').map((s) => defaultLexicon().inflector.verbForms(s).s3));
    for (const t of out) expect(verbSyns.has(t.split(' ')[1]!)).toBe(true);
    // "bleak" is an adjective: its replacements come from WordNet's adjective synsets only
    const adj = variants('a bleak story', 'Wchoice')
      .filter((t) => t.endsWith(' story'))
      .map((t) => t.split(' ')[1]!);
    expect(adj.length).toBeGreaterThan(0);
    for (const w of adj) expect(lex.synonyms('bleak', 'adj')).toContain(w);
    expect(lex.synonyms('bleak', 'adj')).not.toContain('bleakness');
  });

  it('keeps capitalisation, spacing and punctuation', () => {
    expect(variants('The  parents, they  said.', 'ArtOrDet')).toContain('A  parents, they  said.');
    expect(variants('HE GROWS UP!', 'SVA')).toEqual(['HE GROW UP!']);
  });

  it('types every candidate grammar:<Type> with op replace / insert / delete / swap', () => {
    const cands = allGrammarCandidates(WordSeq.parse('They will probably discuss the very good plan, however it failed.'));
    const types = new Set(cands.map((c) => c.type));
    expect([...types].every((t) => t.startsWith('grammar:'))).toBe(true);
    expect(new Set(cands.map((c) => c.op))).toEqual(new Set(['replace', 'insert', 'delete', 'swap']));
  });
});
