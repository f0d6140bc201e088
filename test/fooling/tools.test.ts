/**
 * What surrounds a fooling run: fool-augment (adversarial training data the repo's loaders and train_bert.py read),
 * fool-transfer (S/M/F per model against one fixed T or each model's own, with intervals, recorded with the run and in
 * the report), and a suite test with a gate on F.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDataset } from '../../src/data/index.ts';
import { quantile } from '../../src/families/fooling/efsg/index.ts';
import type { TransferTable } from '../../src/families/fooling/tables.ts';
import { loadTransformersModel } from '../../src/models/transformers/index.ts';
import type { ModelInput } from '../../src/models/types.ts';
import { wilson } from '../../src/stats/index.ts';
import { DEMO_SST2, ROOT, SST2_DEV, SST2_TRAIN, runCli, tmp } from '../cli/helpers.ts';

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

  it("fool-transfer holds every model to one T, the source run's T_task (the paper's choice); the source row repeats the run", async () => {
    const r = await runCli(['fool-transfer', '--from', run, '--models', `${DEMO_SST2},demo-sst2`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as TransferTable;
    const T = summary.metrics.fooling_threshold;
    expect(table).toMatchObject({ sentences: found.length, threshold_mode: 'fixed', threshold: T });
    expect(table.rows.map((x) => x.model)).toEqual([DEMO_SST2, DEMO_SST2, 'demo-sst2']);
    for (const row of table.rows) expect(row).toMatchObject({ threshold: T, threshold_source: 'source', positives: null });
    const source = table.rows[0]!;
    // Every sentence was kept because it scored above T_task, so the source model finds them all fooling again.
    expect(source).toMatchObject({ n: found.length, fooling: found.length, fooling_fraction: 1 });
    const mean = found.reduce((a, f) => a + Number(f.score), 0) / found.length;
    expect(source.mean_score).toBeCloseTo(mean, 6);
    // Intervals over the sentences: Wilson for F (all fooling: [low, 1]), a seeded bootstrap for S around its mean.
    expect(source.fooling_fraction_interval).toEqual(wilson(found.length, found.length));
    expect(source.mean_score_interval).toMatchObject({ value: source.mean_score, n: found.length, method: 'bootstrap' });
    expect(source.mean_score_interval!.low!).toBeLessThanOrEqual(source.mean_score!);
    expect(source.mean_score_interval!.high!).toBeGreaterThanOrEqual(source.mean_score!);
    // The same model under another name gives the same row, intervals included.
    expect({ ...table.rows[2]!, model: '' }).toEqual({ ...source, model: '' });
    expect(r.stdout).not.toContain('each model against its own');
    // Recorded with the run: transfer.json and details.transfer, which the report shows.
    expect(JSON.parse(readFileSync(join(run, 'transfer.json'), 'utf8'))).toEqual(table);
    expect((JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as { details: { transfer: unknown } }).details.transfer).toEqual(
      table,
    );
    const html = join(tmp('fool-html'), 'r.html');
    expect((await runCli(['report', run, '--html', html])).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(`transfer of ${found.length} fooling sentences`);
    expect(page).toContain('for every model (the source run&#39;s T_task), as in the paper');
  });

  it('fool-transfer --threshold T fixes another T for every model: M counts the sentences above it', async () => {
    // A T between two of the run's sentence scores, at the widest gap in their middle half: M is then exact.
    const sorted = found.map((f) => Number(f.score)).sort((x, y) => x - y);
    let at = Math.floor(sorted.length / 4);
    for (let i = at; i < Math.floor((3 * sorted.length) / 4); i++) if (sorted[i + 1]! - sorted[i]! > sorted[at + 1]! - sorted[at]!) at = i;
    const T = (sorted[at]! + sorted[at + 1]!) / 2;
    const above = sorted.length - at - 1;
    const out = join(tmp('fool-tr-given'), 'transfer.json');
    const r = await runCli(['fool-transfer', '--from', run, '--models', DEMO_SST2, '--threshold', String(T), '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as TransferTable;
    expect(table).toMatchObject({ threshold_mode: 'fixed', threshold: T });
    for (const row of table.rows)
      expect(row).toMatchObject({ threshold: T, threshold_source: 'given', fooling: above, fooling_fraction: above / found.length });
    expect(table.rows[0]!.fooling_fraction_interval).toEqual(wilson(above, found.length));
  });

  it("fool-transfer --per-model holds each model to its own T_task, computed like the run's (from --train when given)", async () => {
    const same = await runCli([
      'fool-transfer',
      '--from',
      run,
      '--models',
      DEMO_SST2,
      '--per-model',
      '--json',
      '--out',
      join(tmp('fool-pm'), 't.json'),
    ]);
    expect(same.code, same.stderr).toBe(0);
    const own = JSON.parse(same.stdout) as TransferTable;
    expect(own).toMatchObject({ threshold_mode: 'per-model', threshold: null });
    // The source model's own T_task from the run's training file is the run's T_task.
    expect(own.rows[0]).toMatchObject({ threshold: summary.metrics.fooling_threshold, threshold_source: 'train', positives: 102 });

    // From another training file: the 25th percentile of the model's scores of that file's positive sentences.
    const r = await runCli([
      'fool-transfer',
      '--from',
      run,
      '--models',
      DEMO_SST2,
      '--per-model',
      '--train',
      SST2_DEV,
      '--json',
      '--out',
      join(tmp('fool-pm2'), 't.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as TransferTable;
    const model = await loadTransformersModel(DEMO_SST2);
    try {
      const positives: ModelInput[] = [];
      for await (const e of (await openDataset(SST2_DEV)).examples())
        if (e.kind === 'text' && e.label === 'positive') positives.push({ kind: 'text', text: e.text });
      const scores = (await model.predict(positives)).map((o) => (o.kind === 'classes' ? o.probs[1]! : NaN));
      const T = quantile(scores, 0.25);
      const sentenceScores = (await model.predict(found.map((f) => ({ kind: 'text', text: String(f.text) })))).map((o) =>
        o.kind === 'classes' ? o.probs[1]! : NaN,
      );
      const above = sentenceScores.filter((x) => x > T).length;
      for (const row of table.rows) {
        expect(row.threshold).toBeCloseTo(T, 6);
        expect(row).toMatchObject({ threshold_source: 'train', positives: positives.length, fooling: above });
      }
      expect(T).not.toBeCloseTo(summary.metrics.fooling_threshold!, 3);
    } finally {
      await model.close?.();
    }
    const text = await runCli([
      'fool-transfer',
      '--from',
      run,
      '--models',
      DEMO_SST2,
      '--per-model',
      '--out',
      join(tmp('fool-pm3'), 't.json'),
    ]);
    expect(text.stdout).toContain('each model against its own T_task');
  });

  it('fool-transfer refuses --train without --per-model and --threshold with it', async () => {
    const a = await runCli(['fool-transfer', '--from', run, '--models', DEMO_SST2, '--train', SST2_DEV]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/--train sets each model's own T_task, so it needs --per-model/);
    const b = await runCli(['fool-transfer', '--from', run, '--models', DEMO_SST2, '--per-model', '--threshold', '0.5']);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/Pass one of them/);
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
      // F over the last epoch's 10 sentences: min_n 10 lets the check be judged.
      `models:\n  m: ${DEMO_SST2}\ndatasets: {}\nmin_n: 10\ntests:\n  - name: fooling\n    recipe: fooling\n    settings: { ` +
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
      // F over the last epoch's 10 sentences: min_n 10 lets the check be judged.
      `models:\n  m: ${DEMO_SST2}\ndatasets: {}\nmin_n: 10\ntests:\n  - name: fooling\n    recipe: fooling\n    settings: { ` +
        `train: ${SST2_TRAIN}, population: 10, length: 4, epochs: 2, threshold: 1 }\n    thresholds: ` +
        `["fooling_fraction ` +
        `< 0.01"]\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.stdout).toMatch(/Gate: PASS/);
    expect(r.code).toBe(0);
  });
});
