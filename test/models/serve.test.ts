import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { startModelServer, type ModelServer } from '../../src/models/serve.ts';
import type { ModelInput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { rejection } from './helpers.ts';

const echo = createFunctionModel(
  (inputs: ModelInput[]) =>
    inputs.map((i) => {
      if (i.kind === 'text' && i.text === 'crash') throw new Error('CUDA out of memory');
      return { kind: 'classes' as const, labels: ['neg', 'pos'], probs: [0.25, 0.75] };
    }),
  { id: 'function:echo', task: 'text-classification', labels: ['neg', 'pos'] },
  { tokenize: (t) => t.split(' ') },
);

describe('model server', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer(echo, { port: 0, maxBodyBytes: 2000 });
  });
  afterAll(async () => server.close());

  const post = (route: string, body: string) =>
    fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('GET /health and /info', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${server.url}/info`)).json()).toEqual({
      task: 'text-classification',
      labels: ['neg', 'pos'],
      id: 'function:echo',
      tokenize: true,
      maxBatchSize: 64,
    });
  });

  it('POST /predict and /tokenize', async () => {
    const res = await post('/predict', JSON.stringify({ inputs: [{ kind: 'text', text: 'hi' }] }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outputs: [{ kind: 'classes', labels: ['neg', 'pos'], probs: [0.25, 0.75] }] });
    expect(await (await post('/predict', '{"inputs": []}')).json()).toEqual({ outputs: [] });
    expect(await (await post('/tokenize', '{"texts": ["a b"]}')).json()).toEqual({ tokens: [['a', 'b']] });
  });

  it('answers 400 with a clear message for bad bodies', async () => {
    const cases: [string, RegExp][] = [
      ['{not json', /not valid JSON/],
      ['{}', /body\.inputs: .*expected \{"inputs"/],
      ['{"inputs": [{"kind": "text"}]}', /body\.inputs\[0\]\.text/],
      ['{"inputs": [{"kind": "image", "url": "x"}]}', /body\.inputs\[0\]\.kind/],
      ['{"inputs": [{"kind": "tokens", "tokens": ["a"]}]}', /input 0 is a 'tokens' input, but a text-classification model takes only 'text' or 'pair'/],
    ];
    for (const [body, re] of cases) {
      const res = await post('/predict', body);
      expect(res.status, body).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const { error } = (await res.json()) as { error: string };
      expect(error, body).toMatch(re);
    }
  });

  it('413 for a body over the limit, 404/405 for wrong routes, 500 with the model error', async () => {
    const big = JSON.stringify({ inputs: [{ kind: 'text', text: 'x'.repeat(5000) }] });
    const res = await post('/predict', big);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/larger than the 2000-byte limit/);

    const nf = await fetch(`${server.url}/nope`);
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as { error: string }).error).toMatch(/POST \/predict/);
    const wrong = await fetch(`${server.url}/predict`);
    expect(wrong.status).toBe(405);

    const crash = await post('/predict', JSON.stringify({ inputs: [{ kind: 'text', text: 'crash' }] }));
    expect(crash.status).toBe(500);
    expect(((await crash.json()) as { error: string }).error).toMatch(/function:echo failed: CUDA out of memory/);
  });

  it('a port in use is a ModelError', async () => {
    const port = Number(new URL(server.url).port);
    const err = await rejection(startModelServer(echo, { port }));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  });
});
