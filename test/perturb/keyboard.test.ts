import { describe, expect, it } from 'vitest';
import { keyNeighbours, letterNeighbours, QWERTY_ROWS, QWERTY_SHIFTED_ROWS } from '../../src/perturb/index.ts';

describe('QWERTY adjacency', () => {
  it('derives neighbours from the layout: left, right, row above, row below', () => {
    expect(keyNeighbours('o')).toEqual(['i', 'p', '9', '0', 'k', 'l']);
    expect(keyNeighbours('a')).toEqual(['s', 'q', 'w', 'z']);
    expect(keyNeighbours('q')).toEqual(['w', '1', '2', 'a']);
    expect(keyNeighbours('h')).toEqual(['g', 'j', 'y', 'u', 'b', 'n']);
    expect(keyNeighbours('m')).toEqual(['n', 'j', 'k']);
    expect(keyNeighbours('z')).toEqual(['x', 'a', 's']);
    expect(keyNeighbours('5')).toEqual(['4', '6', 'r', 't']);
  });

  it('is symmetric on letters and digits', () => {
    const keys = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
    for (const a of keys) for (const b of keyNeighbours(a)) expect(keyNeighbours(b)).toContain(a);
  });

  it('leaves out digits or adds punctuation on request, at Shift level for upper-case letters', () => {
    expect(keyNeighbours('o', { digits: false })).toEqual(['i', 'p', 'k', 'l']);
    expect(keyNeighbours('p', { symbols: true })).toEqual(['o', '[', '0', '-', 'l', ';']);
    expect(keyNeighbours('o', { symbols: true, shifted: true })).toEqual(['i', 'p', '9', '(', '0', ')', 'k', 'l']);
    expect(keyNeighbours('é')).toEqual([]);
  });

  it('letterNeighbours keeps letters only', () => {
    expect(letterNeighbours('o')).toEqual(['i', 'p', 'k', 'l']);
    expect(letterNeighbours('1')).toEqual(['q']);
    expect(letterNeighbours('')).toEqual([]);
  });

  it('has a shifted twin for every key', () => {
    expect(QWERTY_SHIFTED_ROWS.map((r) => r.length)).toEqual(QWERTY_ROWS.map((r) => r.length));
  });
});
