/**
 * What surrounds a fooling run: fool-augment (adversarial training data the repo's loaders and train_bert.py read),
 * fool-transfer (S/M/F per model, recorded with the run and in the report), and a suite test with a gate on F.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDataset } from '../../src/data/index.ts';
import { DEMO_SST2, ROOT, SST2_TRAIN, runCli, tmp } from '../cli/helpers.ts';

const SMALL = ['--train', SST2_TRAIN, '--population', '40', '--length', '6', '--epochs', '6', '--seed', '2'];
const lines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('fool-augment and fool-transfer on a real run', () => {
  let run: string;
  let found: Record<string, unknown>[];
  let summary: { metrics: Record<string, number>; details: Record<string, unknown> };
  beforeAll(async () => {
    run = tmp('fool-run');
    const r = await runCli(['fool', '--model', DEMO_SST2, ...SMALL, '--out', run]);
    expect(r.code, r.stderr).toBe(0);
    found = lines(join(run, 'results.jsonl'));
    summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as typeof summary;
    expect(found.length).toBeGreaterThan(0);
  });

  it('fool-augment writes the sentences as negative SST-2 examples, read back by the SST-2 loader', async () => {
    const out = join(tmp('fool-aug'), 'extra.tsv');
    const r = await runCli(['fool-augment', '--from', run, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${found.length} fooling sentences labelled "negative"`);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('sentence\tlabel');
    const back: { text: string; label: string }[] = [];
    for await (const e of (await openDataset(out)).examples()) if (e.kind === 'text') back.push({ text: e.text, label: e.label });
    expect(back).toEqual(found.map((f) => ({ text: f.text, label: 'negative' })));
    const bad = await runCli(['fool-augment', '--from', run, '--out', out, '--label', 'neutral']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no label "neutral" \(its labels: negative, positive\)/);
  });

  it('fool-transfer scores the sentences with each model against its own T_task; the source row repeats the run', async () => {
    const r = await runCli(['fool-transfer', '--from', run, '--models', `${DEMO_SST2},demo-sst2`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as {
      sentences: number;
      rows: { model: string; threshold: number; n: number; fooling: number; fooling_fraction: number; mean_score: number }[];
    };
    expect(table.sentences).toBe(found.length);
    expect(table.rows.map((x) => x.model)).toEqual([DEMO_SST2, DEMO_SST2, 'demo-sst2']);
    const source = table.rows[0]!;
    expect(source.threshold).toBe(summary.metrics.fooling_threshold);
    // Every sentence was kept because it scored above T_task, so the source model finds them all fooling again.
    expect(source).toMatchObject({ n: found.length, fooling: found.length, fooling_fraction: 1 });
    const mean = found.reduce((a, f) => a + Number(f.score), 0) / found.length;
    expect(source.mean_score).toBeCloseTo(mean, 6);
    // The same model under another name gives the same row.
    expect({ ...table.rows[2]!, model: '' }).toEqual({ ...source, model: '' });
    // Recorded with the run: transfer.json and details.transfer, which the report shows.
    expect(JSON.parse(readFileSync(join(run, 'transfer.json'), 'utf8'))).toEqual(table);
    expect((JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as { details: { transfer: unknown } }).details.transfer).toEqual(
      table,
    );
    const html = join(tmp('fool-html'), 'r.html');
    expect((await runCli(['report', run, '--html', html])).code).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(`transfer of ${found.length} fooling sentences`);
  });

  it('fool-transfer refuses a model without the target class, and a folder that is not a fooling run', async () => {
    const cola = await runCli(['fool-transfer', '--from', run, '--models', join(ROOT, 'models', 'demo-cola')]);
    expect(cola.code).toBe(1);
    expect(cola.stderr).toMatch(/has no class "positive" \(its classes: unacceptable, acceptable\)/);
    const none = await runCli(['fool-transfer', '--from', tmp('empty'), '--models', DEMO_SST2]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no finished run .*no summary\.json/);
  });
});

describe('a suite test with recipe: fooling', () => {
  it('gates on fooling_fraction: fails when the model is fooled, and the report card has the fooling section', async () => {
    const dir = tmp('fool-suite');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: ${DEMO_SST2}\ndatasets: {}\ntests:\n  - name: fooling\n    recipe: fooling\n    settings: { ` +
        `train: ${SST2_TRAIN}, population: 40, length: 6, epochs: 6 }\n    thresholds: ["fooling_fraction < 0.01", ` +
        `"fooling_threshold > 0.5"]\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ fooling: fooling_fraction = 0\.\d{3} fails < 0\.010/);
    expect(r.stdout).toMatch(/Gate: FAIL — 1 of 2 checks failed/);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('Fooling sentences (EFSG)');
  });

  it('a run that finds no fooling sentence measured something: with an unreachable T_task the gate passes', async () => {
    const dir = tmp('fool-suite-none');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: ${DEMO_SST2}\ndatasets: {}\ntests:\n  - name: fooling\n    recipe: fooling\n    settings: { ` +
        `train: ${SST2_TRAIN}, population: 10, length: 4, epochs: 2, threshold: 1 }\n    thresholds: ` +
        `["fooling_fraction ` +
        `< 0.01"]\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.stdout).toMatch(/Gate: PASS/);
    expect(r.code).toBe(0);
  });
});
