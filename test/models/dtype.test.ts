/**
 * `--dtype`: which graph file a local folder loads, by transformers.js's names, the error that lists the files a
 * folder does hold, and the answers of fp16 (float16 outputs, widened) and q8 graphs next to the fp32 one.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DTYPE_SUFFIXES, DTYPES, dtypeFile, dtypeOfFile } from '../../src/models/transformers/dtype.ts';
import { loadTransformersModel, transformersInternals, type TransformersModel } from '../../src/models/transformers/index.ts';
import type { ClassOutput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { ROOT, SEQ, reference, rejection } from './helpers.ts';

const VARIANTS = path.join(ROOT, 'test/fixtures/models/tiny-bert-seq-dtypes');
const FLOAT16 = 10;

describe('--dtype: file names', () => {
  it("are transformers.js's own (its DEFAULT_DTYPE_SUFFIX_MAPPING)", async () => {
    const file = path.join(ROOT, 'node_modules/@huggingface/transformers/src/utils/dtypes.js');
    const theirs = (await import(pathToFileURL(file).href)) as { DEFAULT_DTYPE_SUFFIX_MAPPING: Record<string, string> };
    expect(DTYPE_SUFFIXES).toEqual(theirs.DEFAULT_DTYPE_SUFFIX_MAPPING);
  });

  it('map both ways', () => {
    expect(dtypeFile('fp32')).toBe('model.onnx');
    expect(dtypeFile('fp16')).toBe('model_fp16.onnx');
    expect(dtypeFile('q8')).toBe('model_quantized.onnx');
    expect(dtypeFile('q4')).toBe('model_q4.onnx');
    for (const d of DTYPES) expect(dtypeOfFile(dtypeFile(d))).toBe(d);
    expect(dtypeOfFile('model_custom.onnx')).toBeUndefined();
  });
});

describe('--dtype: loading a folder', () => {
  let fp32: TransformersModel;
  let fp16: TransformersModel;
  let q8: TransformersModel;
  beforeAll(async () => {
    [fp32, fp16, q8] = await Promise.all([
      loadTransformersModel(SEQ),
      loadTransformersModel(VARIANTS, { dtype: 'fp16' }),
      loadTransformersModel(VARIANTS, { dtype: 'q8' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([fp32.close(), fp16.close(), q8.close()]);
  });

  it('without the file asked for, names the files the folder holds and the --dtype of each', async () => {
    const err = (await rejection(loadTransformersModel(VARIANTS))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toBe(`the model folder ${VARIANTS} has no onnx/model.onnx (the ONNX weights).`);
    expect(err.hint).toBe(
      `${path.join(VARIANTS, 'onnx')} holds model_fp16.onnx (--dtype fp16), model_quantized.onnx (--dtype q8): pass that --dtype, ` +
        `or add the fp32 graph as ${path.join(VARIANTS, 'onnx', 'model.onnx')}.`,
    );
    const q4 = (await rejection(loadTransformersModel(VARIANTS, { dtype: 'q4' }))) as ModelError;
    expect(q4.message).toBe(`the model folder ${VARIANTS} has no onnx/model_q4.onnx (its q4 weights).`);
    expect(q4.hint).toMatch(/holds model_fp16\.onnx \(--dtype fp16\), model_quantized\.onnx \(--dtype q8\)/);
    const none = (await rejection(loadTransformersModel(SEQ, { dtype: 'fp16' }))) as ModelError;
    expect(none.message).toMatch(/has no onnx\/model_fp16\.onnx \(its fp16 weights\)/);
    expect(none.hint).toMatch(/holds model\.onnx \(--dtype fp32\)/);
  });

  it('a graph under a name transformers.js does not load is named as such', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'textstress-dtype-')), 'm');
    cpSync(VARIANTS, dir, { recursive: true });
    renameSync(path.join(dir, 'onnx', 'model_fp16.onnx'), path.join(dir, 'onnx', 'weights.onnx'));
    renameSync(path.join(dir, 'onnx', 'model_quantized.onnx'), path.join(dir, 'onnx', 'model-int8.onnx'));
    const err = (await rejection(loadTransformersModel(dir, { dtype: 'fp16' }))) as ModelError;
    expect(err.hint).toBe(
      `Found model-int8.onnx, weights.onnx in ${path.join(dir, 'onnx')}, none under a name transformers.js loads: name the fp16 graph model_fp16.onnx.`,
    );
  });

  it('fp16 (float16 outputs, widened to float32) and q8 answer as the fp32 graph does, within their precision', async () => {
    const ref = reference(SEQ);
    const raw = await Promise.all([fp32, fp16, q8].map((m) => transformersInternals(m).forward(ref.input_ids, ref.attention_mask)));
    const logits = raw.map((r) => (r.logits as number[][]).flat());
    for (const l of logits) expect(l.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
    const maxDiff = (a: number[], b: number[]): number => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
    expect(maxDiff(logits[1]!, logits[0]!)).toBeLessThan(5e-3);
    expect(maxDiff(logits[2]!, logits[0]!)).toBeLessThan(5e-2);
    // Not the same graph: fp16 rounds somewhere.
    expect(maxDiff(logits[1]!, logits[0]!)).toBeGreaterThan(0);

    const texts = ['the movie was good', 'a bad , slow film', 'i love it'];
    const outs = await Promise.all([fp32, fp16, q8].map((m) => m.predict(texts.map((text) => ({ kind: 'text' as const, text })))));
    for (const o of outs.slice(1)) {
      o.forEach((out, i) => {
        const want = outs[0]![i] as ClassOutput;
        expect((out as ClassOutput).labels).toEqual(want.labels);
        (out as ClassOutput).probs.forEach((p, k) => expect(Math.abs(p - want.probs[k]!)).toBeLessThan(2e-2));
      });
    }
  });

  it('the fixture is what its README says: no fp32 graph, float16 outputs in the fp16 one (so widening is tested)', () => {
    const proto = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(VARIANTS, 'onnx', 'model_fp16.onnx')));
    expect(proto.graph!.output!.map((o) => [o.name, o.type!.tensorType!.elemType])).toEqual([['logits', FLOAT16]]);
    expect(existsSync(path.join(VARIANTS, 'onnx', 'model.onnx'))).toBe(false);
  });
});
