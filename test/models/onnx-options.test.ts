/**
 * onnxruntime's session settings for transformers.js models (`--threads`, `--onnx-options`) and the weight type
 * (`--dtype`): parsed and checked the same from the CLI and a suite file, handed to the session as onnxruntime
 * names them, kept in run.json; a run with another --dtype is another run.
 */
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addModelOptions } from '../../src/cli/options.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { loadTransformersModel, type TransformersModel } from '../../src/models/transformers/index.ts';
import { checkOnnxOptions, parseOnnxOptions, sessionOptionsOf } from '../../src/models/transformers/runtime.ts';
import { identityOptions, loadOptionsOf, savedOptions } from '../../src/options/derive.ts';
import { parseSuite } from '../../src/suite/load.ts';
import { TextstressError } from '../../src/util/errors.ts';
import { SEQ } from './helpers.ts';

const parse = (args: string[]): Record<string, unknown> =>
  addModelOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined }))
    .parse(['node', 'x', '-m', 'demo-sst2', ...args])
    .opts();

describe('--onnx-options', () => {
  it('reads key=value pairs (on/off for switches, - or _ in names)', () => {
    expect(parseOnnxOptions('graph_optimization=basic, mem-arena=off,mem_pattern=ON,inter_op_threads=2,execution_mode=parallel')).toEqual({
      graph_optimization: 'basic',
      mem_arena: false,
      mem_pattern: true,
      inter_op_threads: 2,
      execution_mode: 'parallel',
    });
    expect(parseOnnxOptions('')).toEqual({});
  });

  it('names the pair at fault and what is allowed', () => {
    const fail = (raw: string): string => {
      try {
        parseOnnxOptions(raw);
      } catch (err) {
        expect(err).toBeInstanceOf(TextstressError);
        return `${(err as TextstressError).message} ${(err as TextstressError).hint ?? ''}`;
      }
      throw new Error('expected an error');
    };
    expect(fail('graph=all')).toMatch(/^--onnx-options: unknown setting "graph"\. The settings are inter_op_threads, graph_optimization,/);
    expect(fail('mem_arena')).toMatch(/"mem_arena" gives no value \(write mem_arena=…\)/);
    expect(fail('mem_arena=maybe')).toMatch(/^--onnx-options: mem_arena: /);
    expect(fail('graph_optimization=max')).toMatch(/^--onnx-options: graph_optimization: .*"disabled"/);
    expect(fail('inter_op_threads=0')).toMatch(/^--onnx-options: inter_op_threads: .*>=1/);
    expect(() => checkOnnxOptions({ threads: 2 }, 'onnx_options')).toThrow(/^onnx_options: Unrecognized key/);
  });

  it("become onnxruntime's SessionOptions, only those set", () => {
    expect(sessionOptionsOf({})).toEqual({});
    expect(
      sessionOptionsOf({
        threads: 1,
        inter_op_threads: 2,
        graph_optimization: 'extended',
        mem_arena: false,
        mem_pattern: true,
        execution_mode: 'parallel',
      }),
    ).toEqual({
      intraOpNumThreads: 1,
      interOpNumThreads: 2,
      graphOptimizationLevel: 'extended',
      enableCpuMemArena: false,
      enableMemPattern: true,
      executionMode: 'parallel',
    });
    expect(sessionOptionsOf({ prepacking: false })).toEqual({ extra: { session: { disable_prepacking: '1' } } });
    expect(sessionOptionsOf({ prepacking: true })).toEqual({});
  });
});

describe('the shared options --dtype, --threads, --onnx-options, --batch-tokens', () => {
  it('parse and check on the command line', () => {
    const o = parse(['--dtype', 'q8', '--threads', '1', '--onnx-options', 'mem_arena=off', '--batch-tokens', '2048']);
    expect(o).toMatchObject({ dtype: 'q8', threads: 1, onnxOptions: { mem_arena: false }, batchTokens: 2048 });
    expect(() => parse(['--dtype', 'fp64'])).toThrow(/Allowed choices are fp32, fp16, q8, int8, uint8, q4/);
    expect(() => parse(['--threads', '0'])).toThrow(/--threads must be an integer ≥ 1\./);
    expect(() => parse(['--onnx-options', 'arena=off'])).toThrow(/unknown setting "arena"/);
  });

  it('in a suite file, with the same checks', () => {
    const suite = (model: string): string =>
      ['models:', `  m: { path: demo-sst2${model} }`, 'datasets:', '  d: data.tsv', 'tests:', '  - { name: t, recipe: typos }'].join('\n');
    const ok = parseSuite(
      suite(', dtype: fp16, threads: 2, onnx_options: { graph_optimization: basic }, batch_tokens: 512'),
      's.yaml',
      builtinRegistry(),
    );
    expect(JSON.stringify(ok)).toMatch(/"dtype":"fp16"/);
    // (An enum value a model entry refuses is reported as the entry's "Invalid input", as for `task:`.)
    expect(() => parseSuite(suite(', dtype: f16'), 's.yaml', builtinRegistry())).toThrow(/line 2: models\.m: Invalid input/);
    expect(() => parseSuite(suite(', onnx_options: { graph: basic }'), 's.yaml', builtinRegistry())).toThrow(
      /models\.m\.onnx_options\.graph: unknown key "graph"/,
    );
  });

  it('feed the model, stay in run.json, and a different --dtype is a different run (resume refuses it)', () => {
    const values = { model: 'm', dtype: 'q8', threads: 2, onnxOptions: { mem_arena: false }, batchTokens: 512 };
    expect(loadOptionsOf(values)).toEqual({ dtype: 'q8', threads: 2, onnxOptions: { mem_arena: false }, maxBatchTokens: 512 });
    expect(savedOptions(values)).toEqual(values);
    expect(identityOptions(values, 'run')).toEqual({ dtype: 'q8' });
  });
});

describe('a model loaded with session settings', () => {
  let plain: TransformersModel;
  let tuned: TransformersModel;
  beforeAll(async () => {
    [plain, tuned] = await Promise.all([
      loadTransformersModel(SEQ),
      loadTransformersModel(SEQ, { threads: 1, onnxOptions: { graph_optimization: 'disabled', mem_arena: false, mem_pattern: false } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), tuned.close()]);
  });

  it('answers as the default one does (the settings change how it runs, not what it computes)', async () => {
    const inputs = ['the movie was good', 'a bad , slow film'].map((text) => ({ kind: 'text' as const, text }));
    const [a, b] = await Promise.all([plain.predict(inputs), tuned.predict(inputs)]);
    b.forEach((out, i) => {
      const want = a[i] as { probs: number[] };
      (out as { probs: number[] }).probs.forEach((p, k) => expect(p).toBeCloseTo(want.probs[k]!, 5));
    });
  });

  it('a setting onnxruntime refuses is named as the model failing to load', async () => {
    await expect(loadTransformersModel(SEQ, { threads: 1.5 })).rejects.toThrow(/cannot load .*model\.onnx/);
  });
});
