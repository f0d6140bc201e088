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
    // The orderings with their uncertainty: max vs random vs min at each K, McNemar on the same examples.
    expect(curve.paired!.map((t) => `${t.k}:${t.a}-${t.b}`)).toEqual(
      [1, 2, 3].flatMap((k) => [`${k}:max-random`, `${k}:max-min`, `${k}:random-min`]),
    );
    expect(r.stdout).toMatch(/Paired tests on the same 20 examples \(exact McNemar, Holm over all 9/);
    // Recomputed from the runs' results: right at K = 2 unless wrong before or broken with at most 2 edits.
    const rightAt = (dir: string, k: number): Map<string, boolean> =>
      new Map(
        readFileSync(join(out, dir, 'results.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: string; original_correct: boolean; status: string; edits: unknown[] })
          .map((x) => [x.id, x.original_correct && !(x.status === 'succeeded' && x.edits.length <= k)]),
      );
    const [mx, mn] = [rightAt('target-max', 2), rightAt('target-min', 2)];
    let onlyMax = 0;
    let onlyMin = 0;
    for (const [id, right] of mx) {
      if (right && !mn.get(id)) onlyMax++;
      if (!right && mn.get(id)) onlyMin++;
    }
    const t = curve.paired!.find((x) => x.k === 2 && x.a === 'max' && x.b === 'min')!;
    expect([t.only_a, t.only_b, t.n]).toEqual([onlyMax, onlyMin, 20]);
    // Exact two-sided binomial tail, by hand.
    const d = onlyMax + onlyMin;
    let tail = 0;
    for (let i = 0; i <= Math.min(onlyMax, onlyMin); i++) {
      let c = 1;
      for (let j = 0; j < i; j++) c = (c * (d - j)) / (j + 1);
      tail += c / 2 ** d;
    }
    expect(t.p).toBeCloseTo(d === 0 ? 1 : Math.min(1, 2 * tail), 12);
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
