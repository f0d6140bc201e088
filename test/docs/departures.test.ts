/**
 * Issue 34 item 8: the departures that were undocumented now stand in their family's "Departures from the paper"
 * table, each checked against the code it describes; and Table 4's caption quote is given to Aspillaga et al.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editBudget } from '../../src/core/constraints.ts';
import { netHarm, topK } from '../../src/families/entities/universal-names/search.ts';
import { foolingSettings } from '../../src/families/fooling/settings.ts';
import { table4 } from '../../src/families/stress/qa/tables.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import { ROOT } from '../cli/helpers.ts';

/** The rows of a docs page's "Departures from the paper" table (first cell → the row). */
function departures(page: string): Map<string, string> {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const start = text.search(/#+ Departures from the paper/);
  expect(start, page).toBeGreaterThan(-1);
  const rows = text
    .slice(start)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| item') && !l.startsWith('|---'));
  return new Map(rows.map((r) => [r.split('|')[1]!.trim(), r]));
}

describe('departures from the papers, as the code does them', () => {
  it('grammar: Table 3 averages % modified over successful attacks; the budget allows at least one edit', () => {
    const rows = departures('grammar-errors.md');
    expect(rows.get("Table 3's % of modified words")).toMatch(/averaged over the data set \| averaged over the \*\*successful\*\* attacks/);
    expect(rows.get('the budget')).toContain('**at least one edit**');
    // The code: 15% of a 5-word text is 0.75 words, and one edit is still allowed; 15% of 20 words is 3.
    expect([editBudget(0.15, 5), editBudget(0.15, 20)]).toEqual([1, 3]);
  });

  it('universal names: Thompson top-k, not RandomSample(V, W); net harm clipped at 0', () => {
    const rows = departures('universal-names.md');
    expect(rows.get('which names a round evaluates')).toContain('`RandomSample(V, W)`');
    expect(rows.get('net harm of an evaluation')).toContain('**clipped at 0**');
    expect(topK([0.2, 0.9, 0.5], 2)).toEqual([1, 2]);
    expect(netHarm({ n: 10, worse: 1, better: 3 })).toBe(0);
  });

  it("EFSG: N = 500 and P = 50 by default against the paper's 5,000 and 125/250", () => {
    const row = departures('fooling.md').get('N and P (population, epochs)')!;
    expect(row).toContain('N = 5,000 sentences per epoch; P = 125 or 250 epochs');
    const d = foolingSettings.parse({ train: 'x.tsv' });
    expect([d.population, d.epochs]).toEqual([500, 50]);
    expect(row).toContain(`\`--population ${d.population}\`, \`--epochs ${d.epochs}\``);
  });

  it('probing: one or two errors at even odds, not the generator rate of about 3%', () => {
    const row = departures('probing.md').get('errors per erroneous sentence')!;
    expect(row).toContain('about 3% of the words');
    expect(row).toContain('1 or 2 errors of the type, at even odds');
    expect(readFileSync(join(ROOT, 'src', 'families', 'encoder', 'layer-probe-sentences.ts'), 'utf8')).toContain('r.next() < 0.5 ? 1 : 2');
  });

  it("Table 4's caption gives the AddAny/AddCommon definition to Aspillaga et al., not to Jia & Liang", () => {
    const summary = { recipe: 'stress-qa', original: { n: 0 }, tests: {}, details: { table4: [] } } as unknown as StressSummary;
    const caption = table4(summary).caption!;
    expect(caption).toContain('as Aspillaga et al.’s Table 4 caption defines them');
    expect(caption).not.toMatch(/as Jia & Liang’s Table 4/);
    const docs = readFileSync(join(ROOT, 'docs', 'stress-tests.md'), 'utf8');
    expect(docs).not.toMatch(/Jia & Liang report for AddAny\/AddCommon "the worst accuracy/);
  });
});
