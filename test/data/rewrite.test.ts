import { describe, expect, it } from 'vitest';
import { rewriteExample } from '../../src/data/rewrite.ts';
import type { PairExample, QaExample, TextExample, TokenExample } from '../../src/data/types.ts';

describe('rewriteExample', () => {
  it('appends a sentence to one side of a pair, recorded as one edit after the last word', () => {
    const pair: PairExample = {
      kind: 'pair',
      id: 'p',
      textA: 'A man is playing a guitar.',
      textB: 'A man is playing.',
      label: 'entailment',
    };
    const { example, edits } = rewriteExample(pair, [
      { field: 'textB', start: 17, end: 17, text: ' and true is true', type: 'distraction:tautology' },
    ]);
    expect(example).toEqual({ ...pair, textB: 'A man is playing. and true is true' });
    expect(edits).toEqual([
      { type: 'distraction:tautology', field: 'textB', wordIndex: 4, start: 17, before: '', after: ' and true is true' },
    ]);
  });

  it('replaces every mention of a name the same way, positions in the order edits apply', () => {
    const text: TextExample = { kind: 'text', id: 't', text: 'Nolan said Nolan would film it.', label: 'positive' };
    const { example, edits } = rewriteExample(text, [
      { field: 'text', start: 11, end: 16, text: 'Christopher Lee', type: 'entity:PER', group: 'Nolan' },
      { field: 'text', start: 0, end: 5, text: 'Christopher Lee', type: 'entity:PER', group: 'Nolan' },
    ]);
    expect(example).toEqual({ ...text, text: 'Christopher Lee said Christopher Lee would film it.' });
    expect(edits).toEqual([
      { type: 'entity:PER', field: 'text', wordIndex: 0, start: 0, before: 'Nolan', after: 'Christopher Lee', group: 'Nolan' },
      { type: 'entity:PER', field: 'text', wordIndex: 3, start: 21, before: 'Nolan', after: 'Christopher Lee', group: 'Nolan' },
    ]);
  });

  it('re-maps QA answers: shifted, grown by a replacement inside them, untouched by an appended distractor', () => {
    const context = 'Barack Obama was born in Hawaii. Obama was president.';
    const qa: QaExample = {
      kind: 'qa',
      id: 'q',
      question: 'Where was Obama born?',
      context,
      answers: [
        { text: 'Barack Obama', start: 0 },
        { text: 'Hawaii', start: 25 },
        { text: 'Obama', start: 33 },
        { text: 'Obama was born', start: 7 },
        { text: 'president', start: 43 },
      ],
    };
    const { example, edits } = rewriteExample(qa, [
      { field: 'context', start: 0, end: 12, text: 'John Smith', type: 'entity:PER', group: 'Obama' },
      { field: 'context', start: 33, end: 38, text: 'Smith', type: 'entity:PER', group: 'Obama' },
      { field: 'context', start: context.length, end: context.length, text: ' Adam Smith was born in Paris.', type: 'distractor:AddSent' },
      { field: 'question', start: 10, end: 15, text: 'Smith', type: 'entity:PER', group: 'Obama' },
    ]);
    const out = example as QaExample;
    expect(out.context).toBe('John Smith was born in Hawaii. Smith was president. Adam Smith was born in Paris.');
    expect(out.question).toBe('Where was Smith born?');
    expect(out.answers).toEqual([
      { text: 'John Smith', start: 0 },
      { text: 'Hawaii', start: 23 },
      { text: 'Smith', start: 31 },
      { text: 'John Smith was born', start: 0 },
      { text: 'president', start: 41 },
    ]);
    for (const a of out.answers) expect(out.context.slice(a.start, a.start + a.text.length)).toBe(a.text);
    expect(edits.map((e) => [e.field, e.start, e.before, e.after])).toEqual([
      ['question', 10, 'Obama', 'Smith'],
      ['context', 0, 'Barack Obama', 'John Smith'],
      ['context', 31, 'Obama', 'Smith'],
      ['context', 51, '', ' Adam Smith was born in Paris.'],
    ]);
  });

  it('keeps NER tags on replaced entities, whatever their new length', () => {
    const tok: TokenExample = {
      kind: 'tokens',
      id: 'k',
      tokens: ['John', 'Smith', 'visited', 'New', 'York', '.'],
      tags: ['B-PER', 'I-PER', 'O', 'B-LOC', 'I-LOC', 'O'],
    };
    const { example, edits } = rewriteExample(tok, [
      { field: 'tokens', start: 3, end: 5, tokens: ['Los', 'Angeles', 'County'], type: 'entity:LOC' },
      { field: 'tokens', start: 0, end: 2, tokens: ['Mike'], type: 'entity:PER' },
    ]);
    expect(example).toEqual({
      ...tok,
      tokens: ['Mike', 'visited', 'Los', 'Angeles', 'County', '.'],
      tags: ['B-PER', 'O', 'B-LOC', 'I-LOC', 'I-LOC', 'O'],
    });
    expect(edits).toEqual([
      { type: 'entity:PER', field: 'tokens', wordIndex: 0, start: 0, before: 'John Smith', after: 'Mike' },
      { type: 'entity:LOC', field: 'tokens', wordIndex: 2, start: 13, before: 'New York', after: 'Los Angeles County' },
    ]);
  });

  it('refuses overlapping rewrites, spans outside the field, and token rewrites that would break entities', () => {
    const text: TextExample = { kind: 'text', id: 't', text: 'abc def', label: 'x' };
    expect(() =>
      rewriteExample(text, [
        { field: 'text', start: 0, end: 4, text: 'x', type: 't' },
        { field: 'text', start: 2, end: 5, text: 'y', type: 't' },
      ]),
    ).toThrow(/overlap/);
    expect(() => rewriteExample(text, [{ field: 'text', start: 5, end: 9, text: 'x', type: 't' }])).toThrow(/outside text/);
    expect(() => rewriteExample(text, [{ field: 'textB', start: 0, end: 0, text: 'x', type: 't' }])).toThrow(/no field "textB"/);
    const tok: TokenExample = { kind: 'tokens', id: 'k', tokens: ['in', 'New', 'York'], tags: ['O', 'B-LOC', 'I-LOC'] };
    expect(() => rewriteExample(tok, [{ field: 'tokens', start: 0, end: 2, tokens: ['x'], type: 't' }])).toThrow(/one entity or only O/);
    expect(() => rewriteExample(tok, [{ field: 'tokens', start: 2, end: 2, tokens: ['x'], type: 't' }])).toThrow(/split an entity/);
  });
});
