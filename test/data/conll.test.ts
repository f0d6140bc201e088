import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/util/errors.ts';
import { collect, entitySpans, iob1ToIob2, loadConll } from '../../src/data/index.ts';

const FIX = fileURLToPath(new URL('../fixtures/data/', import.meta.url));

describe('iob1ToIob2', () => {
  it('turns an I-X that starts an entity into B-X', () => {
    expect(iob1ToIob2(['I-PER', 'I-PER', 'O', 'I-LOC', 'I-ORG', 'I-ORG'])).toEqual(['B-PER', 'I-PER', 'O', 'B-LOC', 'B-ORG', 'I-ORG']);
  });
  it('keeps IOB1 B-X between two adjacent entities of the same type', () => {
    expect(iob1ToIob2(['I-PER', 'B-PER', 'I-PER'])).toEqual(['B-PER', 'B-PER', 'I-PER']);
  });
  it('is the identity on IOB2 input and on an empty sentence', () => {
    const iob2 = ['B-MISC', 'I-MISC', 'O', 'B-LOC', 'B-LOC', 'I-LOC'];
    expect(iob1ToIob2(iob2)).toEqual(iob2);
    expect(iob1ToIob2([])).toEqual([]);
  });
});

describe('entitySpans', () => {
  it('lists {type, start, end} with end exclusive', () => {
    expect(entitySpans(['B-PER', 'I-PER', 'O', 'B-LOC', 'B-LOC', 'I-LOC', 'O'])).toEqual([
      { type: 'PER', start: 0, end: 2 },
      { type: 'LOC', start: 3, end: 4 },
      { type: 'LOC', start: 4, end: 6 },
    ]);
  });
  it('is lenient with ill-formed IOB2: a stray I-X starts an entity, a type change splits', () => {
    expect(entitySpans(['O', 'I-ORG', 'I-ORG', 'I-PER'])).toEqual([
      { type: 'ORG', start: 1, end: 3 },
      { type: 'PER', start: 3, end: 4 },
    ]);
    expect(entitySpans(['I-ORG', 'I-ORG'])).toEqual([{ type: 'ORG', start: 0, end: 2 }]);
    expect(entitySpans([])).toEqual([]);
  });
});

describe('loadConll on a broken fixture', () => {
  const file = join(FIX, 'conll-bad.iob');

  it('a bad tag is a DataError naming file and line', async () => {
    const ds = await loadConll(file);
    const seen: string[] = [];
    let err: unknown;
    try {
      for await (const ex of ds.examples()) seen.push(ex.id);
    } catch (e) {
      err = e;
    }
    expect(seen).toEqual(['conll-bad.iob-0']);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).line).toBe(9);
    expect((err as DataError).describe()).toContain(`${file}:9: tag "X-PER" of token "Bad" is not O, B-<type> or I-<type>.`);
  });

  it('skipBadRows skips the whole sentence; ids stay stable', async () => {
    const ds = await loadConll(file, { skipBadRows: true });
    const ex = await collect(ds);
    expect(ex).toEqual([
      {
        kind: 'tokens',
        id: 'conll-bad.iob-0',
        source: `${file}:3`,
        tokens: ['John', 'Smith', 'visited', 'Berlin', '.'],
        tags: ['B-PER', 'I-PER', 'O', 'B-LOC', 'O'],
      },
      { kind: 'tokens', id: 'conll-bad.iob-2', source: `${file}:12`, tokens: ['EU', 'and', 'UN'], tags: ['B-ORG', 'O', 'B-ORG'] },
    ]);
    expect(ds.skipped).toHaveLength(1);
    expect(ds.skipped[0]).toMatchObject({ file, line: 9 });
  });
});
