import { describe, expect, it } from 'vitest';
import { spaceBefore, type Edit } from '../../src/text/edits.ts';

const edit = (field: string, start: number, before: string, after: string): Edit => ({
  type: 't',
  field,
  wordIndex: 0,
  start,
  before,
  after,
});

describe('spaceBefore: did each edit follow a space in the text it was made in', () => {
  it('replays the edits in order: a later edit is positioned in the text the earlier ones left', () => {
    // "often good" → "Often good" (start 0: no space) → "Often very good" (insert "very " at 6, after a space).
    const edits = [edit('text', 0, 'often', 'Often'), edit('text', 6, '', 'very '), edit('text', 11, 'good', 'fine')];
    expect(spaceBefore({ text: 'often good' }, edits)).toEqual([false, true, true]);
  });

  it('after punctuation or another white space character there is no space; each field has its own text', () => {
    const fields = { textA: '("Maria said', textB: 'a\tb' };
    expect(spaceBefore(fields, [edit('textA', 2, 'Maria', 'Anna'), edit('textA', 7, 'said', 'told'), edit('textB', 2, 'b', 'c')])).toEqual([
      false,
      true,
      false,
    ]);
  });

  it('tokens stand for their words joined by single spaces', () => {
    expect(
      spaceBefore({ tokens: ['EU', 'rejects', 'it'] }, [edit('tokens', 0, 'EU', 'UN'), edit('tokens', 3, 'rejects', 'rejected')]),
    ).toEqual([false, true]);
  });
});
