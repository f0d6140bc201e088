/**
 * The QA and QNLI demo models as textstress reads them, against torch's reference written when they were trained
 * (scripts/train/train_qa.py and train_bert.py --task qnli, `--parity-json` into test/fixtures/models/demo-parity):
 * the same windows and ids, the same logits from the ONNX graph, the same answers and probabilities. Their scores
 * on the whole held-out sets are checked against metrics.json by test/full-data/demo-models.data.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassOutput, SpanOutput } from '../../src/models/types.ts';
import { loadTransformersModel, transformersInternals, type TransformersModel } from '../../src/models/transformers/index.ts';
import { ROOT, expectClose } from './helpers.ts';

const PARITY = path.join(ROOT, 'test', 'fixtures', 'models', 'demo-parity');
const parity = <T>(name: string): T => JSON.parse(readFileSync(path.join(PARITY, `${name}.json`), 'utf8')) as T;

interface QaParity {
  samples: {
    question: string;
    context: string;
    windows: { input_ids: number[]; token_type_ids: number[]; start_logits: number[]; end_logits: number[] }[];
    answers: { text: string; start: number; end: number; score: number }[];
  }[];
}

describe('models/demo-squad against torch', () => {
  let ref: QaParity;
  let inputs: { kind: 'qa'; question: string; context: string }[];
  let qa: TransformersModel;
  beforeAll(async () => {
    ref = parity<QaParity>('demo-squad');
    inputs = ref.samples.map((s) => ({ kind: 'qa', question: s.question, context: s.context }));
    qa = await loadTransformersModel(path.join(ROOT, 'models', 'demo-squad'));
  });
  afterAll(async () => qa.close());

  it('is a question-answering model reading 256-token windows', () => {
    expect(qa.info.task).toBe('question-answering');
    expect(transformersInternals(qa).maxLength).toBe(256);
    // The reference holds a context read in several windows and a question cut to 64 tokens.
    expect(Math.max(...ref.samples.map((s) => s.windows.length))).toBeGreaterThan(2);
    expect(ref.samples.some((s) => s.windows[0]!.token_type_ids.indexOf(1) === 64 + 2)).toBe(true);
  });

  it('encodes every question and context into the windows torch was given', () => {
    inputs.forEach((input, i) => {
      const rows = transformersInternals(qa).encode(input);
      expect(
        rows.map((r) => r.inputIds),
        `sample ${i}`,
      ).toEqual(ref.samples[i]!.windows.map((w) => w.input_ids));
      expect(
        rows.map((r) => r.tokenTypeIds),
        `sample ${i}`,
      ).toEqual(ref.samples[i]!.windows.map((w) => w.token_type_ids));
    });
  });

  it("gives torch's start and end logits (1e-4)", async () => {
    for (const [i, s] of ref.samples.entries()) {
      for (const [k, w] of s.windows.entries()) {
        const out = await transformersInternals(qa).forward([w.input_ids], [w.input_ids.map(() => 1)], [w.token_type_ids]);
        expectClose(out.start_logits, [w.start_logits], 1e-4, `sample ${i} window ${k} start`);
        expectClose(out.end_logits, [w.end_logits], 1e-4, `sample ${i} window ${k} end`);
      }
    }
  });

  it('answers with the spans torch decoded, best first', async () => {
    const outs = (await qa.predict(inputs)) as SpanOutput[];
    outs.forEach((o, i) => {
      const want = ref.samples[i]!.answers;
      expect(
        o.spans.map(({ text, start, end }) => ({ text, start, end })),
        `sample ${i}`,
      ).toEqual(want.map(({ text, start, end }) => ({ text, start, end })));
      expectClose(
        o.spans.map((s) => s.score),
        want.map((s) => s.score),
        1e-5,
        `sample ${i} scores`,
      );
    });
  });
});

interface ClassParity {
  labels: string[];
  samples: { text: string; text_pair: string; input_ids: number[]; token_type_ids: number[]; probs: number[] }[];
}

describe('models/demo-qnli against torch', () => {
  let ref: ClassParity;
  let model: TransformersModel;
  beforeAll(async () => {
    ref = parity<ClassParity>('demo-qnli');
    model = await loadTransformersModel(path.join(ROOT, 'models', 'demo-qnli'));
  });
  afterAll(async () => model.close());

  it("is a pair classifier with QNLI's two labels", () => {
    expect(model.info.task).toBe('text-classification');
    expect(model.info.labels).toEqual(['entailment', 'not_entailment']);
  });

  it('reads (sentence, question) as torch did and gives its probabilities (1e-5)', async () => {
    const inputs = ref.samples.map((s) => ({ kind: 'pair' as const, textA: s.text, textB: s.text_pair }));
    inputs.forEach((input, i) => {
      const [row] = transformersInternals(model).encode(input);
      expect(row!.inputIds, `sample ${i}`).toEqual(ref.samples[i]!.input_ids);
      expect(row!.tokenTypeIds, `sample ${i}`).toEqual(ref.samples[i]!.token_type_ids);
    });
    const outs = (await model.predict(inputs)) as ClassOutput[];
    expectClose(
      outs.map((o) => o.probs),
      ref.samples.map((s) => s.probs),
      1e-5,
      'probs',
    );
  });
});
