/**
 * The demo models score on the whole held-out sets what their metrics.json (and README's table) report: the
 * committed ONNX files, our tokenization and our metrics together reproduce the training script's numbers.
 * test/models/load.test.ts smoke-tests the same models on the committed slices.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

const metrics = (model: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(join(ROOT, 'models', model, 'metrics.json'), 'utf8')) as { metrics: Record<string, unknown> }).metrics;

async function evaluate(args: string[]): Promise<Record<string, number>> {
  const r = await runCli(['eval', ...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number>;
}

// metrics.json rounds to 4 decimals.
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

describe('demo models on the whole held-out sets', () => {
  it('demo-sst2: accuracy on all 872 SST-2 dev sentences', async () => {
    const m = metrics('demo-sst2') as { dev_accuracy: number; dev_examples: number };
    const r = await evaluate(['--model', 'demo-sst2', '--data', shared('sst2/dev.tsv')]);
    expect(r.n).toBe(m.dev_examples);
    expect(round4(r.accuracy!)).toBe(m.dev_accuracy);
  });

  it('demo-ner: entity F1 on all 3,453 CoNLL-2003 testb sentences', async () => {
    const m = metrics('demo-ner') as { testb_entity: { f1: number; precision: number; recall: number } };
    const r = await evaluate(['--model', 'demo-ner', '--data', shared('conll2003/eng.testb')]);
    expect(r.n).toBe(3453);
    expect([round4(r.entity_f1!), round4(r.entity_precision!), round4(r.entity_recall!)]).toEqual([m.testb_entity.f1, m.testb_entity.precision, m.testb_entity.recall]);
  });

  it('demo-sick: accuracy on all 4,906 SICK TEST pairs, above the majority class', async () => {
    const m = metrics('demo-sick') as { test_accuracy: number; test_examples: number; test_majority_class_rate: number };
    const r = await evaluate(['--model', 'demo-sick', '--data', shared('sick/SICK.txt'), '--split', 'TEST']);
    expect(r.n).toBe(m.test_examples);
    expect(round4(r.accuracy!)).toBe(m.test_accuracy);
    expect(r.accuracy!).toBeGreaterThan(m.test_majority_class_rate);
  });
});
