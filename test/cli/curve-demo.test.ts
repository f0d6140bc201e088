import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_DATA } from '../../src/cli/commands/demo.ts';
import type { TyposCurve } from '../../src/families/typos/curve.ts';
import { DEMO_SST2, ROOT, SST2_DEV, runCli, tmp } from './helpers.ts';

describe('textstress typos-curve', () => {
  it('prints Table 1 and Figure 2 layouts and writes curve.json with one accuracy per K', async () => {
    const out = tmp('curve');
    const r = await runCli([
      'typos-curve',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--limit',
      '30',
      '--k-max',
      '3',
      '--random-seeds',
      '2',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Adv-BERT Table 1/);
    expect(r.stdout).toMatch(/Figure 2/);
    const curve = JSON.parse(readFileSync(join(out, 'curve.json'), 'utf8')) as TyposCurve;
    expect(curve.by_target.map((row) => row.name)).toEqual(['max', 'min', 'random']);
    expect(curve.by_source.map((row) => row.name)).toEqual(['insertion', 'deletion', 'swap', 'mistype', 'pronounce', 'replace-word']);
    for (const row of [...curve.by_target, ...curve.by_source]) {
      expect(row.accuracy).toHaveLength(4);
      // K = 0 is the clean accuracy, shared by every row; more typos never raise accuracy.
      expect(row.accuracy[0]).toBe(curve.by_target[0]!.accuracy[0]);
      for (let k = 1; k < row.accuracy.length; k++) expect(row.accuracy[k]!).toBeLessThanOrEqual(row.accuracy[k - 1]!);
    }
    expect(curve.by_target[2]!.std).toHaveLength(4);
    expect(existsSync(join(out, 'target-random-seed1', 'summary.json'))).toBe(true);
  });
});

describe('typos-curve --compact', () => {
  it("in top-K mode keeps the traces it reads, so the curve equals the full run's", async () => {
    const args = [
      'typos-curve',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--limit',
      '12',
      '--k-max',
      '2',
      '--random-seeds',
      '1',
      '--no-by-source',
      '--no-skip-uneditable',
      '--no-progress',
    ];
    const full = tmp('curve-full');
    const compact = tmp('curve-compact');
    expect((await runCli([...args, '--out', full])).code).toBe(0);
    const r = await runCli([...args, '--compact', '--out', compact]);
    expect(r.code, r.stderr).toBe(0);
    const curve = (dir: string) => JSON.parse(readFileSync(join(dir, 'curve.json'), 'utf8')) as TyposCurve;
    expect(curve(compact).by_target).toEqual(curve(full).by_target);
    // Not flat: the attack lowers accuracy, which a curve read from dropped traces would not show.
    expect(curve(compact).by_target[0]!.accuracy[2]!).toBeLessThan(curve(compact).by_target[0]!.accuracy[0]!);
    expect(readFileSync(join(compact, 'target-max', 'summary.json'), 'utf8')).not.toMatch(/compact_results/);
  });
});

const html_ = (out: string): string => readFileSync(join(out, 'report.html'), 'utf8');

describe('textstress demo', () => {
  it('runs the built-in suite and writes summaries, results, a table and the report', async () => {
    const out = tmp('demo');
    const r = await runCli(['demo', '--out', out, '--limit', '30', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/K=3/);
    expect(r.stdout).toMatch(/typos-max-k3 .* 30 /);
    expect(r.stdout).toMatch(/Gate: PASS/);
    expect(r.stdout).toContain(`Report: ${join(out, 'report.html')}`);
    const s = JSON.parse(readFileSync(join(out, 'typos-max-k3', 'summary.json'), 'utf8')) as { n: number; complete: boolean };
    expect(s).toMatchObject({ n: 30, complete: true });
    expect(
      readFileSync(join(out, 'typos-max-k3', 'results.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(30);
    expect(existsSync(join(out, 'noise-middle-random', 'summary.json'))).toBe(true);
    // The NER test runs on the shipped news sentences, on any machine.
    expect(JSON.parse(readFileSync(join(out, 'ner-typos-k2', 'summary.json'), 'utf8'))).toMatchObject({ n: 30, complete: true });
    // Person names swapped in the news sentences: Table 3's numbers, over the sentences that name a person.
    const e = JSON.parse(readFileSync(join(out, 'ner-entities-per', 'summary.json'), 'utf8')) as {
      n: number;
      details: { probed: number; table3: { stability: number | null } };
    };
    expect(e.n).toBe(30);
    expect(e.details.probed).toBeGreaterThan(0);
    expect(e.details.table3.stability).not.toBeNull();
    expect(existsSync(join(out, 'ner-entities-per', 'd_worst.conll'))).toBe(true);
    // Fooling sentences from the reviews' own words (the limit does not apply: the run reads the training file).
    const f = JSON.parse(readFileSync(join(out, 'sst2-fooling', 'summary.json'), 'utf8')) as {
      steps: number;
      metrics: Record<string, number>;
    };
    expect(f.steps).toBe(10);
    expect(f.metrics.fooling_threshold).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/sst2-fooling +fooling/);
    // Inside demo-mlm: Table 7/8 for three error types and the cloze test, on the WordNet sentences that ship.
    const layers = JSON.parse(readFileSync(join(out, 'mlm-probe-layers', 'layers.json'), 'utf8')) as { table7: { head: string[] } };
    expect(layers.table7.head).toEqual(['layer', 'ArtOrDet', 'SVA', 'Worder', 'mean']);
    expect(JSON.parse(readFileSync(join(out, 'mlm-cloze', 'summary.json'), 'utf8')).metrics.pairs_used).toBeGreaterThan(50);
    expect(html_(out)).toMatch(/Inside the encoder: where grammar errors are noticed/);
    expect(html_(out)).toMatch(/Cloze test: how far a grammar error reaches/);
    expect(r.stdout).toMatch(/Gate: PASS — all 4 checks hold/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/Fooling sentences \(EFSG\)/);
    expect(html).toMatch(/Entity names/);
    expect(html).toMatch(/Keyboard typos/);
    expect(html).toMatch(/Character noise/);
    // The demo reads only shipped data, so a clone without the shared data folder runs the same suite.
    expect(r.stdout).toContain(`over ${relative(ROOT, DEMO_DATA.sentiment)}`);
    expect(r.stdout).toContain(`over ${relative(ROOT, DEMO_DATA.ner)}`);
    expect(r.stdout).not.toMatch(/Skipped/);
    // Long by nature: --limit leaves the encoder tests whole (the cloze test's 7,040 masked queries and the layer
    // probes inside demo-mlm): about 40 s alone on an idle 2-core machine, 50-60 s beside the other test worker.
  }, 200_000);
});
