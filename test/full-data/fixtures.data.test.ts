/**
 * The committed slices in test/fixtures/data are what their README says: byte-exact leading slices of the files in
 * ../shared/data (cut by test/fixtures/data/make-slices.py), never whole copies; SQuAD slices hold whole paragraphs
 * of the originals in the originals' order and serialisation; and the hand-written CoNLL sentences are not
 * sentences of the Reuters-based CoNLL-2003 files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureData } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

const LINE_SLICES = [
  'sst2/dev.tsv',
  'sst2/train.tsv',
  'mrpc/dev.tsv',
  'mrpc/test.tsv',
  'cola/dev.tsv',
  'cola/test.tsv',
  'qnli/dev.tsv',
  'qnli/test.tsv',
  'sick/SICK.txt',
];
const JSON_SLICES = [
  'squad-v1.1/dev-v1.1.json',
  'adversarial-squad/sample1k-HCVerifyAll.json',
  'adversarial-squad/sample1k-HCVerifySample.json',
];

interface Squad {
  version: string;
  data: { title: string; paragraphs: unknown[] }[];
}

function sentences(path: string): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('-DOCSTART-')) {
      if (cur.length) out.push(cur.join(' '));
      cur = [];
    } else cur.push(t.split(/\s+/)[0]!);
  }
  if (cur.length) out.push(cur.join(' '));
  return out;
}

describe('fixture slices of ../shared/data', () => {
  it.each(LINE_SLICES)('%s: the first lines of the real file, byte for byte, and not all of it', (rel) => {
    const slice = readFileSync(fixtureData(rel));
    const whole = readFileSync(shared(rel));
    expect(slice.length).toBeLessThan(whole.length);
    expect(slice.at(-1)).toBe(0x0a);
    expect(Buffer.compare(slice, whole.subarray(0, slice.length))).toBe(0);
  });

  it.each(JSON_SLICES)('%s: whole paragraphs of the real file, in order, serialised as the original is', (rel) => {
    const sliceText = readFileSync(fixtureData(rel), 'utf8');
    const wholeText = readFileSync(shared(rel), 'utf8');
    expect(sliceText.length).toBeLessThan(wholeText.length);
    // Same key order and separators as the original (Python's json.dumps defaults).
    expect(sliceText.slice(0, 60)).toBe(wholeText.slice(0, 60));
    const slice = JSON.parse(sliceText) as Squad;
    const whole = JSON.parse(wholeText) as Squad;
    expect(slice.version).toBe(whole.version);
    for (const article of slice.data) {
      const original = whole.data.find((a) => a.title === article.title);
      expect(original, article.title).toBeDefined();
      // Each paragraph is one of the original's, in the original's order.
      let from = 0;
      for (const p of article.paragraphs) {
        const at = original!.paragraphs.findIndex((q, i) => i >= from && JSON.stringify(q) === JSON.stringify(p));
        expect(at, `${article.title}: a paragraph not in the original (after index ${from})`).toBeGreaterThanOrEqual(from);
        from = at + 1;
      }
    }
  });

  it('conll2003/handmade.conll shares no sentence with CoNLL-2003 (it is not Reuters text)', () => {
    const real = new Set(['eng.train', 'eng.testa', 'eng.testb'].flatMap((f) => sentences(shared(`conll2003/${f}`))));
    const mine = sentences(fixtureData('conll2003/handmade.conll'));
    expect(mine).toHaveLength(60);
    expect(mine.filter((s) => real.has(s))).toEqual([]);
  });
});
