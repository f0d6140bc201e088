/**
 * End to end through the CLI, with HF_ENDPOINT at a local stand-in for the hub and HF_HOME in a temp dir:
 * `textstress attack typos --model models/demo-sst2 --data hf:stanfordnlp/sst2:validation --limit 50`,
 * the same from the cache in another process with the hub gone, a suite naming a hub dataset, and a hub
 * error as one clean line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../../src/core/result.ts';
import { expectCleanError, runCli, tmp } from '../../cli/helpers.ts';
import { demoReviewRows, sst2Parquet } from './fixtures.ts';
import { removeTempHomes, tempHome } from './env.ts';
import { startFakeHub, type FakeHub } from './hub-server.ts';

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const readJsonl = (path: string): ExampleResult[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);
const headline = (s: Record<string, unknown>): Record<string, unknown> => ({
  dataset: s.dataset,
  n: s.n,
  clean_accuracy: s.clean_accuracy,
  attacked_accuracy: s.attacked_accuracy,
  attack_success_rate: s.attack_success_rate,
});

let hub: FakeHub;
let env: Record<string, string>;
const rows = demoReviewRows();

beforeAll(async () => {
  hub = await startFakeHub({ 'stanfordnlp/sst2': { configs: { default: { validation: [sst2Parquet(rows)] } } } });
  env = { HF_ENDPOINT: hub.url, HF_HOME: tempHome() };
});
afterAll(async () => {
  await hub.close();
  removeTempHomes();
});

describe('textstress with --data hf:…', () => {
  it('attack typos over hf:stanfordnlp/sst2:validation --limit 50; then the same from the cache with the hub gone; then a suite', async () => {
    const args = (out: string): string[] => [
      'attack',
      'typos',
      '--model',
      'models/demo-sst2',
      '--data',
      'hf:stanfordnlp/sst2:validation',
      '--limit',
      '50',
      '--out',
      out,
      '--no-progress',
    ];
    const out = tmp('hf-attack');
    const r = await runCli(args(out), env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `textstress: downloading hf:stanfordnlp/sst2:validation (1 parquet file) into ${env.HF_HOME}/textstress/datasets/stanfordnlp--sst2`,
    );
    expect(r.stdout).toMatch(/attack success rate/);
    const summary = readJson(join(out, 'summary.json'));
    expect(summary).toMatchObject({ complete: true, recipe: 'typos', dataset: 'hf:stanfordnlp/sst2:validation', n: 50 });
    // the demo model knows these reviews well (92% on the same 50 rows read from demo/reviews.tsv)
    expect(summary.clean_accuracy).toBe(0.92);
    const results = readJsonl(join(out, 'results.jsonl'));
    expect(results.map((x) => x.id)).toEqual(rows.map((x) => String(x.idx)));
    expect(results[3]).toMatchObject({
      source: 'hf:stanfordnlp/sst2:validation:3',
      gold: 'negative',
      original: { text: rows[3]!.sentence },
    });
    const run = readJson(join(out, 'run.json'));
    expect(run.data_fingerprint).toMatch(/^hf:\d+:[0-9a-f]{64}$/);

    await hub.close();
    const again = tmp('hf-cached');
    const c = await runCli(args(again), env);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toMatch(
      /textstress: cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/datasets\/stanfordnlp\/sst2\/parquet \(ECONNREFUSED\); using the cached copy of hf:stanfordnlp\/sst2:validation/,
    );
    expect(headline(readJson(join(again, 'summary.json')))).toEqual(headline(summary));
    expect(readJson(join(again, 'run.json')).data_fingerprint).toBe(run.data_fingerprint);

    // a suite's hf: dataset is not a path relative to the suite folder
    const dir = tmp('hf-suite');
    writeFileSync(
      join(dir, 'suite.yaml'),
      [
        'models:',
        '  m: demo-sst2',
        'datasets:',
        '  sst2:',
        '    path: hf:stanfordnlp/sst2:validation',
        '    limit: 10',
        'tests:',
        '  - name: typos',
        '    recipe: typos',
      ].join('\n') + '\n',
    );
    const s = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress'], env);
    expect(s.code, s.stderr).toBe(0);
    expect(readJson(join(dir, 'out', 'typos', 'summary.json'))).toMatchObject({ dataset: 'hf:stanfordnlp/sst2:validation', n: 10 });
  });

  it('a hub error is one clean line', async () => {
    const r = await runCli(
      [
        'attack',
        'typos',
        '--model',
        'models/demo-sst2',
        '--data',
        'hf:stanfordnlp/sst2:validation',
        '--format',
        'sst2',
        '--out',
        tmp('hf-err'),
      ],
      env,
    );
    expect(expectCleanError(r)).toBe(
      'textstress: error: hf:stanfordnlp/sst2:validation: format does not apply to a hub dataset: hub datasets are ' +
        'parquet files read by column: leave --format out.',
    );
  });
});
