/**
 * How the query engine treats a batch that fails (review #1): an error that may be particular inputs' splits the
 * batch, within a bounded number of calls; any other error fails the whole batch at once, with one call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { createHttpModel } from '../../src/models/http-adapter.ts';
import { startModelServer } from '../../src/models/serve.ts';
import type { ModelInput, ModelOutput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { ModelError } from '../../src/util/errors.ts';
import { json, startTestServer, type TestServer } from '../models/helpers.ts';

const info = { id: 'picky', task: 'text-classification' as const, labels: ['neg', 'pos'] };
const answer = (inputs: ModelInput[]): ModelOutput[] =>
  inputs.map(() => ({ kind: 'classes', labels: ['neg', 'pos'], probs: [0.25, 0.75] }));
/** Eight texts of one length, so the engine keeps their order in the batch. */
const words = Array.from({ length: 8 }, (_, i) => ({ kind: 'text' as const, text: `w${i}` }));
const textOf = (i: ModelInput): string => (i.kind === 'text' ? i.text : '?');

/** Each query's outcome: 'ok', or the error's message. */
async function outcomes(engine: QueryEngine, inputs: ModelInput[]): Promise<string[]> {
  const settled = await Promise.allSettled(inputs.map((i) => engine.queryOne(i)));
  return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : (s.reason as Error).message));
}

describe('a failing batch', () => {
  it('an error that is not input-specific fails the whole batch with one call, not 2N', async () => {
    const calls: number[] = [];
    const model = createFunctionModel((inputs) => {
      calls.push(inputs.length);
      throw new Error('CUDA out of memory');
    }, info);
    const engine = new QueryEngine(model);
    const out = await outcomes(engine, words);
    expect(calls).toEqual([8]);
    expect(out).toEqual(Array(8).fill('the model function function:picky failed: CUDA out of memory'));
    expect(engine.stats).toMatchObject({ flushes: 1, inferences: 0 });
  });

  it('an input-specific error isolates the one input at fault: 1 + 2·log2(8) = 7 calls, the other seven answered', async () => {
    const calls: string[][] = [];
    const model = createFunctionModel((inputs) => {
      calls.push(inputs.map(textOf));
      if (inputs.some((i) => textOf(i) === 'w5')) throw new ModelError('cannot read "w5"', { inputSpecific: true });
      return answer(inputs);
    }, info);
    const engine = new QueryEngine(model);
    const out = await outcomes(engine, words);
    expect(calls.map((c) => c.join(' '))).toEqual(['w0 w1 w2 w3 w4 w5 w6 w7', 'w0 w1 w2 w3', 'w4 w5 w6 w7', 'w4 w5', 'w6 w7', 'w4', 'w5']);
    expect(out).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'the model function function:picky refused an input: cannot read "w5"', 'ok', 'ok']);
    expect(engine.stats.inferences).toBe(7);
  });

  it('a malformed output for one input is isolated the same way, and its message names that input', async () => {
    let calls = 0;
    const model = createFunctionModel((inputs) => {
      calls++;
      return inputs.map((i) => ({
        kind: 'classes' as const,
        labels: ['neg', 'pos'],
        probs: textOf(i) === 'w2' ? [0.5, Number.NaN] : [0.25, 0.75],
      }));
    }, info);
    const out = await outcomes(new QueryEngine(model), words);
    expect(calls).toBe(7);
    expect(out.filter((o) => o !== 'ok')).toEqual([
      'the model function function:picky returned a malformed answer: outputs[0].probs[1]: Invalid input: expected number, received NaN (for the input "w2").',
    ]);
    expect(out[2]).not.toBe('ok');
  });

  it('bisection is bounded: two bad inputs in different halves spend the 6 extra calls, and the pieces left fail whole', async () => {
    const calls: string[] = [];
    const model = createFunctionModel((inputs) => {
      calls.push(inputs.map(textOf).join(' '));
      const bad = inputs.find((i) => textOf(i) === 'w1' || textOf(i) === 'w6');
      if (bad) throw new ModelError(`cannot read "${textOf(bad)}"`, { inputSpecific: true });
      return answer(inputs);
    }, info);
    const out = await outcomes(new QueryEngine(model), words);
    expect(calls).toEqual(['w0 w1 w2 w3 w4 w5 w6 w7', 'w0 w1 w2 w3', 'w4 w5 w6 w7', 'w0 w1', 'w2 w3', 'w4 w5', 'w6 w7']);
    const r = (w: string): string => `the model function function:picky refused an input: cannot read "${w}"`;
    expect(out).toEqual([r('w1'), r('w1'), 'ok', 'ok', 'ok', 'ok', r('w6'), r('w6')]);
  });

  it('an error that turns systemic while isolating stops the search and fails what is left with it', async () => {
    const calls: string[] = [];
    const model = createFunctionModel((inputs) => {
      calls.push(inputs.map(textOf).join(' '));
      if (calls.length > 1) throw new Error('the GPU is gone');
      throw new ModelError('cannot read "w5"', { inputSpecific: true });
    }, info);
    const out = await outcomes(new QueryEngine(model), words);
    // The first half fails systemically: the second half is not tried.
    expect(calls).toEqual(['w0 w1 w2 w3 w4 w5 w6 w7', 'w0 w1 w2 w3']);
    expect(out).toEqual(Array(8).fill('the model function function:picky failed: the GPU is gone'));
  });
});

describe('a failing batch over HTTP', () => {
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });
  const fast = { task: 'text-classification' as const, labels: ['neg', 'pos'], timeoutMs: 10_000, backoffMs: 1, maxBackoffMs: 2 };

  it('5xx after retries is not split: exactly retries + 1 requests, one error naming the endpoint', async () => {
    let requests = 0;
    srv = await startTestServer((req, res) => {
      requests++;
      json(res, 500, { error: 'worker crashed' });
    });
    const engine = new QueryEngine(await createHttpModel(srv.url, { ...fast, retries: 2 }));
    const out = await outcomes(engine, words);
    expect(requests).toBe(3);
    expect(new Set(out)).toEqual(
      new Set([
        `the endpoint ${srv.url}/predict did not answer: 500 Internal Server Error (3 attempts); the server last said: "worker crashed".`,
      ]),
    );
  });

  it('a 400 naming one input is split down to that input: 7 requests, no retries', async () => {
    const sent: string[] = [];
    srv = await startTestServer((req, res, body) => {
      const { inputs } = JSON.parse(body) as { inputs: { kind: 'text'; text: string }[] };
      sent.push(inputs.map((i) => i.text).join(' '));
      if (inputs.some((i) => i.text === 'w3')) return json(res, 400, { error: 'input "w3" is not UTF-8' });
      json(res, 200, { outputs: answer(inputs) });
    });
    const engine = new QueryEngine(await createHttpModel(srv.url, { ...fast, retries: 2 }));
    const out = await outcomes(engine, words);
    expect(sent).toHaveLength(7);
    expect(sent.slice(-2)).toEqual(['w2', 'w3']);
    expect(out).toEqual([
      'ok',
      'ok',
      'ok',
      `the endpoint ${srv.url}/predict refused the request with 400 Bad Request: "input "w3" is not UTF-8".`,
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
  });

  it("textstress serve passes a model's input-specific error on as a 422, so the client isolates the input", async () => {
    let calls = 0;
    const model = createFunctionModel((inputs) => {
      calls++;
      if (inputs.some((i) => textOf(i) === 'w6')) throw new ModelError('cannot read "w6"', { inputSpecific: true });
      return answer(inputs);
    }, info);
    const server = await startModelServer(model, { port: 0 });
    try {
      const out = await outcomes(new QueryEngine(await createHttpModel(server.url, { ...fast, retries: 2 })), words);
      expect(calls).toBe(7);
      expect(out).toEqual([
        ...Array(6).fill('ok'),
        `the endpoint ${server.url}/predict refused the request with 422 Unprocessable Entity: "the model failed: the ` +
          `model function function:picky refused an input: cannot read "w6"".`,
        'ok',
      ]);
    } finally {
      await server.close();
    }
  });
});
