import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TyposCurve } from '../../src/families/typos/curve.ts';
import { DEMO_SST2, SST2_DEV, runCli, tmp } from './helpers.ts';

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
      '20',
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

// `textstress demo` runs, and its outputs are checked, as a user runs it: installed from the packed tarball
// (test/package/pack.test.ts). Running it in process here too cost a minute of the suite for no behaviour more.
