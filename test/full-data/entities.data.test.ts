/**
 * The entity family on the full shared data (issue 11's checks): Algorithm 1 on CoNLL-2003 testb with demo-ner
 * (gold PER mentions) and on SST-2 dev with demo-sst2 (person names from the gazetteer) gives Worst < Original < Best
 * and stability below 100%, and the whole D_worst scored by `eval` reproduces the all-examples Worst row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmp } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

interface Table3 {
  n: number;
  details: {
    probed: number;
    not_applicable: number;
    table3: { original: { value: number }; worst: { value: number }; best: { value: number }; stability: number };
    all_examples: { worst: { value: number } };
  };
}

async function probe(args: string[]): Promise<{ out: string; s: Table3 }> {
  const out = tmp('entities-data');
  const r = await runCli(['probe', 'entities', ...args, '--budget', '50', '--out', out, '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/Table 3: PER names replaced, B = 50/);
  return { out, s: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Table3 };
}

describe('entity probe on the full data', () => {
  it('demo-ner on CoNLL-2003 testb (first 600 sentences, gold PER)', async () => {
    const { out, s } = await probe(['--model', 'demo-ner', '--data', shared('conll2003/eng.testb'), '--limit', '600']);
    const t = s.details.table3;
    expect(s.n).toBe(600);
    expect(s.details.probed + s.details.not_applicable).toBe(600);
    expect(s.details.probed).toBeGreaterThan(100);
    expect(t.worst.value).toBeLessThan(t.original.value);
    expect(t.original.value).toBeLessThan(t.best.value);
    expect(t.stability).toBeLessThan(1);
    // The whole D_worst file gives the all-examples Worst row (Table 3's is over D; test/entities/table3-d.test.ts).
    const e = await runCli(['eval', '--model', 'demo-ner', '--data', join(out, 'd_worst.conll'), '--json']);
    expect(e.code, e.stderr).toBe(0);
    expect((JSON.parse(e.stdout) as { entity_f1: number }).entity_f1).toBeCloseTo(s.details.all_examples.worst.value, 6);
  }, 600_000);

  it('demo-sst2 on SST-2 dev (person names from the gazetteer)', async () => {
    const { s } = await probe(['--model', 'demo-sst2', '--data', shared('sst2/dev.tsv')]);
    const t = s.details.table3;
    expect(s.details.probed).toBeGreaterThan(30);
    expect(t.worst.value).toBeLessThan(t.original.value);
    expect(t.original.value).toBeLessThan(t.best.value);
    expect(t.stability).toBeLessThan(1);
  }, 600_000);
});
