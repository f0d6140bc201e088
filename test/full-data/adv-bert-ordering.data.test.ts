/**
 * Adv-BERT's ordering (typos in the words the model leans on hurt most) on demo-sst2 over the first 200 sentences
 * of SST-2 dev: a property of the model on a few hundred sentences, not of the code, so it runs on the real file.
 * test/cli/curve-demo.test.ts checks the curve's layout and monotonicity on the committed slice.
 */
import { describe, expect, it } from 'vitest';
import type { TyposCurve } from '../../src/families/typos/curve.ts';
import { DEMO_SST2, runCli, tmp } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

describe("Adv-BERT's ordering on demo-sst2 (SST-2 dev)", () => {
  it('accuracy with typos in max-importance words < random words < min-importance words, K = 1..5', async () => {
    const out = tmp('ordering');
    const r = await runCli([
      'typos-curve',
      '--model',
      DEMO_SST2,
      '--data',
      shared('sst2/dev.tsv'),
      '--limit',
      '200',
      '--k-max',
      '5',
      '--random-seeds',
      '2',
      '--no-by-source',
      '--out',
      out,
      '--no-progress',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const curve = JSON.parse(r.stdout) as TyposCurve;
    const row = (name: string): number[] => curve.by_target.find((x) => x.name === name)!.accuracy;
    for (let k = 1; k <= 5; k++) {
      expect(row('max')[k]!, `K=${k}`).toBeLessThan(row('random')[k]!);
      expect(row('random')[k]!, `K=${k}`).toBeLessThan(row('min')[k]!);
    }
  });
});
