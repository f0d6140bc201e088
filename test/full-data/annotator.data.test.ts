/**
 * The gazetteer annotator's figures in docs/entities.md hold (issue 34 item 7): its precision and recall against
 * CoNLL-2003 eng.testb gold mentions, per type, as written and lower-cased (`npx tsx scripts/annotator-accuracy.ts`),
 * and its person mentions on the whole SST-2 dev set are those docs/entities-sst2-per-judged.tsv judges.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDataset } from '../../src/data/open.ts';
import { collect } from '../../src/data/rows.ts';
import type { Example, TokenExample } from '../../src/data/types.ts';
import { scoreAnnotator } from '../../src/entities/accuracy.ts';
import { gazetteerAnnotator } from '../../src/entities/annotate.ts';
import { loadDictionaries } from '../../src/entities/dictionaries.ts';
import { ROOT, shared } from './helpers.data.ts';

/** found / exact per type as docs/entities.md's table states them: [as written, lower-cased]. */
const DOCUMENTED: Record<string, [[number, number], [number, number]]> = {
  PER: [
    [772, 630],
    [544, 480],
  ],
  ORG: [
    [122, 51],
    [127, 51],
  ],
  LOC: [
    [1144, 891],
    [944, 748],
  ],
  MISC: [
    [320, 252],
    [327, 252],
  ],
};

describe('the gazetteer annotator against gold (docs/entities.md)', () => {
  it('CoNLL-2003 eng.testb: the documented counts, precision and recall, as written and lower-cased', async () => {
    const dicts = await loadDictionaries();
    const sentences = (await collect(await openDataset(shared('conll2003/eng.testb')))) as TokenExample[];
    const docs = readFileSync(join(ROOT, 'docs', 'entities.md'), 'utf8');
    for (const [i, lowercase] of [false, true].entries()) {
      const s = await scoreAnnotator(gazetteerAnnotator(dicts), sentences, { lowercase });
      expect(s.sentences).toBe(3453);
      for (const [type, counts] of Object.entries(DOCUMENTED)) {
        const m = s.byType[type as keyof typeof s.byType];
        expect([type, m.gold > 0, m.found, m.matched]).toEqual([type, true, ...counts[i]!]);
        const p = (x: { value: number | null; low: number | null; high: number | null }): string =>
          `${(100 * x.value!).toFixed(1)}% [${(100 * x.low!).toFixed(1)}, ${(100 * x.high!).toFixed(1)}]`;
        // The row docs/entities.md prints for this type and casing.
        expect(docs).toContain(
          `| ${lowercase ? 'lower-cased' : 'as written'} | ${type} | ${m.gold} | ${m.found} | ${m.matched} | ${p(m.precision)} | ${p(m.recall)} |`,
        );
      }
    }
  }, 120_000);

  it('SST-2 dev: the person mentions are the judged ones, 64 of 69 persons', async () => {
    const rows = (await collect(await openDataset(shared('sst2/dev.tsv')))) as Example[];
    const found = await gazetteerAnnotator(await loadDictionaries()).annotate(rows);
    const mine = rows.flatMap((ex, i) => found[i]!.filter((m) => m.type === 'PER').map((m) => `${ex.id}\t${m.text}`));
    const judged = readFileSync(join(ROOT, 'docs', 'entities-sst2-per-judged.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .filter((f) => f[5] === 'yes');
    expect(mine.sort()).toEqual(judged.map((f) => `${f[0]}\t${f[1]}`).sort());
    expect([judged.length, judged.filter((f) => f[3] === 'yes').length]).toEqual([69, 64]);
  }, 60_000);
});
