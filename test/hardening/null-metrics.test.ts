/**
 * Metrics over nothing are null (n/a), wherever they are computed: entity F1 with no entity on either side, eval
 * over zero examples, a tagger suite over an empty file, a generator that generated nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entityCounts, f1 } from '../../src/data/entities.ts';
import { EntityF1Drop } from '../../src/core/goals/index.ts';
import type { TokenExample } from '../../src/data/types.ts';
import { DEMO_NER, DEMO_SST2, runCli, tmp } from '../cli/helpers.ts';

describe('entity F1 over nothing', () => {
  it('is null for a corpus with no gold and no predicted entity, and a number otherwise', () => {
    expect(f1(entityCounts(['O', 'O'], ['O', 'O']))).toBeNull();
    expect(f1(entityCounts(['B-PER', 'O'], ['O', 'O']))).toBe(0);
    expect(f1(entityCounts(['B-PER', 'O'], ['B-PER', 'O']))).toBe(1);
  });

  it('a sentence without entities still scores 1 in the goal (nothing to get wrong), and 0 once one is invented', () => {
    const example: TokenExample = { kind: 'tokens', id: 's', tokens: ['it', 'rained'], tags: ['O', 'O'] };
    const tags = (t: string[]) => ({ kind: 'tags' as const, tags: t, scores: t.map(() => 0.9) });
    const goal = new EntityF1Drop().create(example, tags(['O', 'O']));
    expect(goal.evaluate(tags(['O', 'O'])).metric).toBe(1);
    expect(goal.evaluate(tags(['B-LOC', 'O']))).toMatchObject({ metric: 0, score: 1, done: true });
  });
});

describe('n/a instead of numbers over zero examples', () => {
  it('eval over an empty file prints n/a and writes null accuracy', async () => {
    const dir = tmp('eval-empty');
    const data = join(dir, 'empty.tsv');
    writeFileSync(data, 'sentence\tlabel\n');
    const table = await runCli(['eval', '--model', DEMO_SST2, '--data', data]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/accuracy\s+│\s+n\/a/);
    const json = await runCli(['eval', '--model', DEMO_SST2, '--data', data, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ n: 0, accuracy: null });
  });

  it('a tagger suite over an empty CoNLL file fails clean_f1 as n/a for want of examples, not as an unknown metric', async () => {
    const dir = tmp('ner-empty');
    writeFileSync(join(dir, 'empty.conll'), '-DOCSTART- O\n\n');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: ${DEMO_NER}\ndatasets:\n  d: { path: empty.conll, format: conll }\ntests:\n  - name: t\n    ` +
        `recipe: typos\n    thresholds: [clean_f1 > 0.5]\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/clean_f1 > 0\.5 — clean_f1 is n\/a: no examples tested \(0 examples\)/);
    expect(r.stdout).not.toMatch(/not reported by this run/);
  });
});

describe('eval --label-map on a format without a fixed label set', () => {
  it('is checked against the labels the file holds, as attack checks it', async () => {
    const dir = tmp('eval-map');
    const data = join(dir, 'd.csv');
    writeFileSync(data, 'text,label\na warm and funny film,pos\na dull and lifeless film,neg\n');
    const r = await runCli(['eval', '--model', DEMO_SST2, '--data', data, '--label-map', 'pos=positive,neg=negative', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 2 });
    const bad = await runCli(['eval', '--model', DEMO_SST2, '--data', data, '--label-map', 'good=positive']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/"good" is not a label of .*d\.csv \[pos, neg\]/);
  });
});

describe('a generator that generated nothing', () => {
  it('fails the gate even when its own thresholds hold', async () => {
    const dir = tmp('gen-empty');
    writeFileSync(
      join(dir, 'suite.yaml'),
      // No confidence reaches 1.0 exactly, so no sequence is ever kept as fooling.
      `models:\n  m: ${DEMO_SST2}\ndatasets: {}\ngate: []\ntests:\n  - name: evolved\n    recipe: evolve\n    ` +
        `settings: { population: 4, epochs: 2, threshold: 1 }\n    thresholds: [evolved_fraction >= 0]\n`,
    );
    const plugin = join(import.meta.dirname, '..', 'registry', 'fixtures', 'evolve.ts');
    const r = await runCli(['--plugin', plugin, 'run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/evolved: no records generated \(0 in evolved\) — nothing was measured/);
    expect(r.stdout).toMatch(/Gate: FAIL — 1 of 2 checks failed/);
  });
});
