import { describe, expect, it } from 'vitest';
import { textSegments, tokenSegments, type Segment } from '../../src/report/html/highlight.ts';
import type { Edit } from '../../src/text/edits.ts';

const types: string[] = [];
const idx = (t: string): number => {
  const i = types.indexOf(t);
  if (i >= 0) return i;
  types.push(t);
  return types.length - 1;
};
const side = (segs: Segment[], k: 0 | 1): string => segs.map((s) => (typeof s === 'string' ? s : s[k])).join('');
const edit = (start: number, before: string, after: string, type = 'typo:swap', wordIndex = 0): Edit => ({
  type,
  field: 'text',
  wordIndex,
  start,
  before,
  after,
});

describe('textSegments', () => {
  it('marks each replaced word with its type, in both texts', () => {
    const o = "it 's a charming and often affecting journey . ";
    const p = "it 's a charming and oft4n affecting j0urney . ";
    const segs = textSegments(o, p, [edit(37, 'journey', 'j0urney', 'typo:mistype'), edit(21, 'often', 'oft4n', 'typo:mistype')], idx);
    expect(side(segs, 0)).toBe(o);
    expect(side(segs, 1)).toBe(p);
    expect(segs.filter((s) => typeof s !== 'string')).toEqual([
      ['often', 'oft4n', idx('typo:mistype')],
      ['journey', 'j0urney', idx('typo:mistype')],
    ]);
  });

  it('handles insertions, deletions and two edits on one word', () => {
    const o = 'He grows up in the city';
    // insert "the " before "He"; delete "the " (position shifts by 4); edit "grows" twice
    const edits = [
      edit(0, '', 'The ', 'grammar:ArtOrDet'),
      edit(19, 'the ', '', 'grammar:ArtOrDet'),
      edit(7, 'grows', 'grow', 'grammar:SVA'),
      edit(7, 'grow', 'grew', 'grammar:Vform'),
    ];
    const p = 'The He grew up in city';
    const segs = textSegments(o, p, edits, idx);
    expect(side(segs, 0)).toBe(o);
    expect(side(segs, 1)).toBe(p);
    expect(segs).toContainEqual(['grows', 'grew', idx('grammar:Vform')]);
    expect(segs).toContainEqual(['the ', '', idx('grammar:ArtOrDet')]);
  });

  it('falls back to a word diff when edits do not replay', () => {
    const segs = textSegments('a b c', 'a x c', [edit(99, 'q', 'r')], idx);
    expect(side(segs, 0)).toBe('a b c');
    expect(side(segs, 1)).toBe('a x c');
    expect(segs).toContainEqual(['b', 'x', idx('typo:swap')]);
  });

  it('marks edited tokens of token lists', () => {
    const segs = tokenSegments(
      ['EU', 'rejects', 'German'],
      ['EU', 'rejcets', 'German'],
      [{ ...edit(0, 'rejects', 'rejcets'), wordIndex: 1 }],
      idx,
    );
    expect(segs).toEqual(['EU ', ['rejects', 'rejcets', idx('typo:swap')], ' German']);
  });
});
