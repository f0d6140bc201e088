/**
 * `textstress universal-names` as a user runs it: demo-sst2 on the SST-2 dev slice with gazetteer PER mentions
 * (the examples that name a person), the printed tables, --json, and a clear refusal of gold tags on text data.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SST2, SST2_DEV, expectCleanError, readJson, runCli, tmp } from './helpers.ts';

const SMALL = ['--rounds', '2', '--per-round', '3', '--candidates', '10', '--budget', '10', '--top', '2', '--random', '2', '--no-progress'];

describe('textstress universal-names', () => {
  it('prints the ranked names and the held-out test, and --json prints the summary it wrote', async () => {
    const out = tmp('un-cli');
    const r = await runCli(['universal-names', '--model', DEMO_SST2, '--data', SST2_DEV, '--out', out, ...SMALL]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Universal adversarial names \(Balasubramanian et al\. 2020, Algorithm 2\) — PER, mentions by gazetteer\n/);
    expect(r.stdout).toContain(
      // 34 since issue 34's gazetteer precision took five sentences out of the 400 (39 before): four non-persons and "de niro".
      '34 of 400 examples have a PER mention (366 not applicable): 17 search, 17 held out; 10 candidate names, 2 rounds, 6 evaluations',
    );
    expect(r.stdout).toMatch(/Held-out transfer \(17 examples, every PER mention replaced by the name\): accuracy\n/);
    // Each mean drop with its 95% interval over the 17 held-out examples (a bootstrap: the gate reads its n).
    expect(r.stdout).toMatch(
      /\nMean drop: top 2 -?\d+\.\d points \[-?\d+\.\d, -?\d+\.\d\], random 2 -?\d+\.\d points \[-?\d+\.\d, -?\d+\.\d\] \(95% intervals: bootstrap over the 17 held-out examples\)\.\n/,
    );
    expect(r.stdout).toContain(`Results: ${join(out, 'summary.json')}`);

    const again = tmp('un-cli-json');
    const j = await runCli(['universal-names', '--model', DEMO_SST2, '--data', SST2_DEV, '--out', again, '--json', ...SMALL]);
    expect(j.code).toBe(0);
    const printed = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(printed).toEqual(readJson(join(again, 'summary.json')));
    const { wall_seconds: _a, ...first } = readJson(join(out, 'summary.json'));
    const { wall_seconds: _b, ...second } = printed;
    expect(second).toEqual(first);
    expect(printed).toMatchObject({ details: { annotator: 'gazetteer', transfer: { metric: 'accuracy', original: { n: 17 } } } });
  }, 120_000);

  it('refuses gold mentions on data without entity tags, before any query', async () => {
    const r = await runCli([
      'universal-names',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--annotator',
      'gold',
      '--out',
      tmp('un-cli-gold'),
      ...SMALL,
    ]);
    expect(expectCleanError(r)).toMatch(/--annotator gold needs NER data with entity tags; .*dev\.tsv holds text examples\./);
  }, 60_000);
});
