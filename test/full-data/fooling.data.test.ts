/**
 * EFSG on the full shared data (issue 12's checks): the issue's run on demo-sst2 with SST-2 train finds fooling
 * sentences (F > 0) with T_task from all 37,569 positive training sentences; fool-augment's output is what
 * train_bert.py's SST-2 reader would take (header, 0 labels); demo-cola on CoLA train, and pair mode on QNLI dev.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmp } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

interface Summary {
  metrics: Record<string, number>;
  details: { threshold: { positives: number; value: number }; vocabulary: { types: number }; pair: { fixed: string } | null };
}
const summaryOf = (out: string): Summary => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;

describe('fool on the full data', () => {
  it("the issue's command on demo-sst2 and SST-2 train finds fooling sentences, and fool-augment labels them negative", async () => {
    const out = tmp('fool-data');
    const r = await runCli([
      'fool',
      '--model',
      'demo-sst2',
      '--train',
      shared('sst2/train.tsv'),
      '--population',
      '500',
      '--length',
      '9',
      '--epochs',
      '50',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = summaryOf(out);
    expect(s.details.threshold.positives).toBe(37_569);
    expect(s.details.vocabulary.types).toBeGreaterThan(10_000);
    expect(s.metrics.fooling_fraction).toBeGreaterThan(0);
    expect(s.metrics.fooling_sentences).toBeGreaterThan(1000);
    const steps = readFileSync(join(out, 'steps.jsonl'), 'utf8').trim().split('\n');
    expect(steps).toHaveLength(50);
    const extra = join(tmp('fool-data-aug'), 'extra.tsv');
    expect((await runCli(['fool-augment', '--from', out, '--out', extra])).code).toBe(0);
    const rows = readFileSync(extra, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('sentence\tlabel');
    expect(rows).toHaveLength(s.metrics.fooling_sentences! + 1);
    expect(rows.slice(1).every((l) => /^[^\t]+\t0$/.test(l))).toBe(true);
  });

  it('demo-cola on CoLA train, and pair mode on QNLI dev with a fixed question', async () => {
    const cola = tmp('fool-cola');
    expect(
      (
        await runCli([
          'fool',
          '--model',
          'demo-cola',
          '--train',
          shared('cola/train.tsv'),
          '--population',
          '200',
          '--epochs',
          '10',
          '--out',
          cola,
          '--no-progress',
        ])
      ).code,
    ).toBe(0);
    const c = summaryOf(cola);
    expect(c.details.threshold.positives).toBe(6023); // CoLA train's acceptable sentences
    expect(c.metrics.fooling_threshold).toBeGreaterThan(0);
    const qnli = tmp('fool-qnli');
    const r = await runCli([
      'fool',
      '--model',
      'demo-qnli',
      '--train',
      shared('qnli/dev.tsv'),
      '--fixed-id',
      '0',
      '--population',
      '100',
      '--length',
      '12',
      '--epochs',
      '20',
      '--out',
      qnli,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const q = summaryOf(qnli);
    expect(q.details.pair?.fixed).toBe('What came into force after the new constitution was herald?');
    for (const line of readFileSync(join(qnli, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean)) {
      expect(JSON.parse(line)).toMatchObject({ fixed: 'What came into force after the new constitution was herald?', side: 'second' });
    }
  });
});
