/**
 * The random-weight QA fixture (scripts/fixtures/make_tiny_qa.py) as the adapter reads it: a pair encoding with
 * token_type_ids 0/1, start/end logits equal to torch's, spans inside the context.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanOutput } from '../../src/models/types.ts';
import { loadTransformersModel, transformersInternals, type TransformersModel } from '../../src/models/transformers/index.ts';
import { QA_BERT, expectClose } from './helpers.ts';

interface QaReference {
  input_ids: number[][];
  attention_mask: number[][];
  token_type_ids: number[][];
  logits: number[][];
  end_logits: number[][];
}

const ref = JSON.parse(readFileSync(path.join(QA_BERT, 'reference.json'), 'utf8')) as QaReference;

describe('tiny-bert-qa fixture (random weights)', () => {
  let qa: TransformersModel;
  beforeAll(async () => {
    qa = await loadTransformersModel(QA_BERT);
  });
  afterAll(async () => qa.close());

  it('is a question-answering model that takes token_type_ids', () => {
    expect(qa.info.task).toBe('question-answering');
    expect(transformersInternals(qa).usesTokenTypeIds).toBe(true);
    expect(transformersInternals(qa).maxLength).toBe(128);
  });

  it('start and end logits match the torch reference to 1e-4', async () => {
    const out = await transformersInternals(qa).forward(ref.input_ids, ref.attention_mask, ref.token_type_ids);
    // Padded positions are masked out of attention but still get logits; compare the real tokens only.
    const real = (rows: number[][]): number[][] => rows.map((row, r) => row.filter((_, t) => ref.attention_mask[r]![t] === 1));
    expectClose(real(out.start_logits as number[][]), real(ref.logits), 1e-4, 'start_logits');
    expectClose(real(out.end_logits as number[][]), real(ref.end_logits), 1e-4, 'end_logits');
  });

  it('encodes [CLS] question [SEP] context [SEP] with type ids 0 then 1, and answers from the context', async () => {
    const input = { kind: 'qa' as const, question: 'who won?', context: 'the dog won the game in paris.' };
    const [row] = transformersInternals(qa).encode(input);
    const firstSep = row!.inputIds.indexOf(3);
    expect(row!.inputIds[0]).toBe(2);
    expect(row!.tokenTypeIds).toEqual(row!.inputIds.map((_, t) => (t <= firstSep ? 0 : 1)));
    const [out] = (await qa.predict([input])) as SpanOutput[];
    expect(out!.spans.length).toBeGreaterThan(0);
    for (const s of out!.spans) expect(input.context.slice(s.start, s.end)).toBe(s.text);
  });
});
