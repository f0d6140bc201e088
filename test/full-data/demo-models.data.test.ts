/**
 * The demo models score on the whole held-out sets what their metrics.json (and README's table) report: the
 * committed ONNX files, our tokenization and our metrics together reproduce the training script's numbers.
 * test/models/load.test.ts smoke-tests the same models on the committed slices.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmp } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

const metricsFile = (model: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, 'models', model, 'metrics.json'), 'utf8')) as Record<string, unknown>;
const metrics = (model: string): Record<string, unknown> => metricsFile(model).metrics as Record<string, unknown>;

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

  it('demo-cola: accuracy on all 1,043 CoLA dev sentences (in- and out-of-domain)', async () => {
    const m = metrics('demo-cola') as { dev_accuracy: number; dev_examples: number };
    const r = await evaluate(['--model', 'demo-cola', '--data', shared('cola/dev.tsv')]);
    expect(r.n).toBe(m.dev_examples);
    expect(round4(r.accuracy!)).toBe(m.dev_accuracy);
  });

  it('demo-ner: entity F1 on all 3,453 CoNLL-2003 testb sentences', async () => {
    const m = metrics('demo-ner') as { testb_entity: { f1: number; precision: number; recall: number } };
    const r = await evaluate(['--model', 'demo-ner', '--data', shared('conll2003/eng.testb')]);
    expect(r.n).toBe(3453);
    expect([round4(r.entity_f1!), round4(r.entity_precision!), round4(r.entity_recall!)]).toEqual([
      m.testb_entity.f1,
      m.testb_entity.precision,
      m.testb_entity.recall,
    ]);
  });

  it('demo-sick: accuracy on all 4,906 SICK TEST pairs, above the majority class', async () => {
    const m = metrics('demo-sick') as { test_accuracy: number; test_examples: number; test_majority_class_rate: number };
    const r = await evaluate(['--model', 'demo-sick', '--data', shared('sick/SICK.txt'), '--split', 'TEST']);
    expect(r.n).toBe(m.test_examples);
    expect(round4(r.accuracy!)).toBe(m.test_accuracy);
    expect(r.accuracy!).toBeGreaterThan(m.test_majority_class_rate);
  });
});

interface Squad {
  data: { title: string; paragraphs: { context: string; qas: { id: string }[] }[] }[];
}
const readSquad = (file: string): Squad => JSON.parse(readFileSync(file, 'utf8')) as Squad;
const questionIds = (doc: Squad): string[] => doc.data.flatMap((a) => a.paragraphs.flatMap((p) => p.qas.map((q) => q.id)));
/** train_qa.py's checksum of a set of question ids: sha256 of the sorted ids joined by newlines. */
const idsSha256 = (ids: string[]): string =>
  createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');

describe('the QA and QNLI demo models on their whole held-out sets', () => {
  type QaScore = { n: number; exact_match: number; f1: number };

  it('demo-squad: EM/F1 on the 1,000 held-out AddSent/AddOneSent originals (heldout-squad.json)', async () => {
    const m = metrics('demo-squad') as { heldout_originals: QaScore };
    const r = await evaluate(['--model', 'models/demo-squad', '--data', 'models/demo-squad/heldout-squad.json']);
    expect(r.n).toBe(1000);
    expect([round4(r.exact_match!), round4(r.f1!)]).toEqual([m.heldout_originals.exact_match, m.heldout_originals.f1]);
  });

  it('demo-squad: the split is the stated rule, and EM/F1 on every question of the held-out paragraphs', async () => {
    const split = metricsFile('demo-squad').split as Record<string, number | string>;
    const adversarial = ['sample1k-HCVerifyAll.json', 'sample1k-HCVerifySample.json'].map((f) =>
      readSquad(shared(`adversarial-squad/${f}`)),
    );
    const originals = new Set(adversarial.flatMap(questionIds).filter((id) => !/-high-conf-turk\d+$/.test(id)));
    const dev = readSquad(shared('squad-v1.1/dev-v1.1.json'));
    const held: Squad = {
      data: dev.data
        .map((a) => ({ ...a, paragraphs: a.paragraphs.filter((p) => p.qas.some((q) => originals.has(q.id))) }))
        .filter((a) => a.paragraphs.length),
    };
    const ids = questionIds(held);
    expect([originals.size, idsSha256([...originals])]).toEqual([split.heldout_original_questions, split.heldout_original_ids_sha256]);
    expect([ids.length, idsSha256(ids)]).toEqual([split.heldout_questions, split.heldout_ids_sha256]);
    expect(questionIds(readSquad(join(ROOT, 'models', 'demo-squad', 'heldout-squad.json'))).sort()).toEqual([...originals].sort());

    const file = join(tmp('heldout'), 'heldout-all.json');
    writeFileSync(file, JSON.stringify(held));
    const m = metrics('demo-squad') as { heldout_all: QaScore };
    const r = await evaluate(['--model', 'models/demo-squad', '--data', file]);
    expect(r.n).toBe(m.heldout_all.n);
    expect([round4(r.exact_match!), round4(r.f1!)]).toEqual([m.heldout_all.exact_match, m.heldout_all.f1]);
  });

  it('demo-qnli: accuracy on all 5,463 QNLI dev pairs through the GLUE loader (question first), above the majority class', async () => {
    const m = metrics('demo-qnli') as Record<string, number>;
    const r = await evaluate(['--model', 'models/demo-qnli', '--data', shared('qnli/dev.tsv')]);
    expect(r.n).toBe(m.qnli_dev_examples);
    expect(round4(r.accuracy!)).toBe(m.qnli_dev_accuracy);
    expect(r.accuracy!).toBeGreaterThan(m.qnli_dev_majority_class_rate!);
    // The texts the other way round (sentence first), as metrics.json also records them.
    const cols = [
      '--format',
      'tsv',
      '--text-a-column',
      'sentence',
      '--text-b-column',
      'question',
      '--label-column',
      'label',
      '--id-column',
      'index',
    ];
    const swapped = await evaluate(['--model', 'models/demo-qnli', '--data', shared('qnli/dev.tsv'), ...cols]);
    expect(round4(swapped.accuracy!)).toBe(m.qnli_dev_accuracy_sentence_first);
  });
});
