/**
 * Issue 26: `probe entities` reports Table 3 over D, the examples that mention the type, and its Worst (Original,
 * Best) row is exactly what `textstress eval` gives on D_worst (the data, D_best) restricted to those examples; the
 * all-examples view beside it is what `eval` gives on the whole files. Each row carries n and its Wilson interval.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import type { EntityDetails } from '../../src/families/entities/table3.ts';
import { wilson } from '../../src/stats/index.ts';
import { DEMO_SST2, readJsonl, runCli, SST2_DEV, tmp } from '../cli/helpers.ts';

/** `eval --json` on a TSV: accuracy and n. */
async function evaluate(data: string): Promise<{ n: number; accuracy: number }> {
  const r = await runCli(['eval', '--model', DEMO_SST2, '--data', data, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { n: number; accuracy: number };
}

/** The TSV's header and the rows at the given example positions. */
function restrict(file: string, keep: ReadonlySet<number>, out: string): string {
  const [header, ...rows] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  writeFileSync(out, [header, ...rows.filter((_, i) => keep.has(i))].join('\n') + '\n');
  return out;
}

describe('entity Table 3 over D', () => {
  it('demo-sst2 on SST-2 dev (first 150): Worst = eval on D_worst restricted to the examples that name a person', async () => {
    const dir = tmp('table3-d');
    const out = join(dir, 'run');
    const r = await runCli([
      'probe',
      'entities',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--limit',
      '150',
      '--budget',
      '8',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const d = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { details: EntityDetails }).details;
    const results: ExampleResult[] = readJsonl(join(out, 'results.jsonl'));
    const inD = new Set(results.flatMap((x, i) => (x.probe ? [i] : [])));
    expect(d.probed).toBe(inD.size);
    expect(d.table3.n).toBe(inD.size);
    // 13 since issue 34's gazetteer precision (dev.tsv:84's "even killer-thrillers" is no person).
    expect(d.probed).toBe(13);
    expect(d.not_applicable).toBe(137);

    // Restricted to D, eval on the data, D_worst and D_best gives the three rows, with the same n.
    const rows = [
      ['original', SST2_DEV],
      ['worst', join(out, 'd_worst.tsv')],
      ['best', join(out, 'd_best.tsv')],
    ] as const;
    for (const [row, file] of rows) {
      const limited =
        row === 'original' ? restrict(file, new Set(Array.from({ length: 150 }, (_, i) => i)), join(dir, 'first150.tsv')) : file;
      const e = await evaluate(restrict(limited, inD, join(dir, `${row}-in-D.tsv`)));
      expect([row, e.n, e.accuracy]).toEqual([row, d.probed, d.table3[row].value]);
      const k = Math.round(e.accuracy * e.n);
      expect(d.table3[row]).toEqual({ value: k / e.n, n: e.n, interval: wilson(k, e.n) });
      // The whole file (all 150): the all-examples view.
      if (row !== 'original') expect((await evaluate(file)).accuracy).toBe(d.all_examples[row].value);
    }
    // This seed: 6 of 13 right on the originals, 3 on D_worst, 11 on D_best; 5 of 13 never changed.
    expect([d.table3.original, d.table3.worst, d.table3.best].map((x) => Math.round(x.value! * 13))).toEqual([6, 3, 11]);
    expect(d.table3.stability_interval).toEqual(wilson(5, 13));
    expect(d.table3.gap).toBeCloseTo(8 / 13, 12);
    expect(d.table3.gap_interval).toMatchObject({ n: 13, method: 'bootstrap' });

    // The terminal table shows n and the intervals, over D; the all-examples view is labelled as such.
    expect(r.stdout).toContain('Table 3: PER names replaced, B = 8 (annotator: gazetteer), over the 13 examples that mention PER\n');
    expect(r.stdout).toMatch(/\nWorst +23\.1% +\[8\.2, 50\.3\] +13\n/);
    expect(r.stdout).toContain("All 150 examples (not the paper's Table 3)");
  }, 90_000);
});
