import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpModel, parseRetryAfter } from '../../src/models/http-adapter.ts';
import { loadModel } from '../../src/models/load.ts';
import { startModelServer, type ModelServer } from '../../src/models/serve.ts';
import { loadTransformersModel, type TransformersModel } from '../../src/models/transformers/index.ts';
import type { ClassOutput, ModelInput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { SEQ, TOK, json, rejection, startTestServer, type TestServer } from './helpers.ts';

// A generous timeout: only the hung-endpoint test wants one to fire, and sets its own (CI machines can be busy).
const fast = { timeoutMs: 10_000, backoffMs: 5, maxBackoffMs: 20 };

describe('HTTP adapter against a real textstress model server (tiny-bert-seq)', () => {
  let local: TransformersModel;
  let server: ModelServer;
  beforeAll(async () => {
    local = await loadTransformersModel(SEQ);
    server = await startModelServer(local, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await local.close();
  });

  it('binds a free port and reads task and labels from /info', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const remote = await createHttpModel(server.url);
    expect(remote.info).toEqual({ id: server.url, task: 'text-classification', labels: ['NEGATIVE', 'POSITIVE'] });
  });

  it('answers exactly like the local adapter, over several batches', async () => {
    const inputs: ModelInput[] = [
      ...['the movie was good', 'bad food', 'a boring film', 'yes', 'no', 'I love it', 'terrible service'].map((text) => ({
        kind: 'text' as const,
        text,
      })),
      { kind: 'pair', textA: 'the movie was good', textB: 'it was terrible' },
      { kind: 'pair', textA: 'john went to paris', textB: 'mary stayed in london' },
    ];
    const remote = await createHttpModel(`${server.url}/`, { batchSize: 2, concurrency: 2 });
    const [a, b] = await Promise.all([remote.predict(inputs), local.predict(inputs)]);
    expect(a).toEqual(b);
    expect(await remote.predict([])).toEqual([]);
  });

  it('tokenize() goes through POST /tokenize', async () => {
    const remote = await createHttpModel(server.url);
    expect(remote.tokenize).toBeDefined();
    expect(await remote.tokenize!('The jumping fox')).toEqual(await local.tokenize('The jumping fox'));
  });

  it('loadModel() picks the HTTP adapter for http:// specs', async () => {
    const remote = await loadModel(server.url, { batchSize: 3 });
    expect(remote.info.task).toBe('text-classification');
    const out = (await remote.predict([{ kind: 'text', text: 'good' }])) as ClassOutput[];
    expect(out[0]!.labels).toEqual(['NEGATIVE', 'POSITIVE']);
  });

  it("a wrong task or input kind is a ModelError, from the client or as the server's 400", async () => {
    const tagger = await loadTransformersModel(TOK);
    const tagServer = await startModelServer(tagger, { port: 0 });
    try {
      // With a task given, /info is not asked: the server's 400 names the problem.
      const blind = await loadModel(tagServer.url, { task: 'text-classification' });
      const err = await rejection(blind.predict([{ kind: 'text', text: 'x' }]));
      expect(err).toBeInstanceOf(ModelError);
      expect(err.message).toMatch(
        /refused the request with 400 Bad Request: "bad request body: input 0 is a 'text' input, but a token-classification model/,
      );
      // Without a task, /info tells the truth and the client checks inputs itself.
      const seeing = await createHttpModel(tagServer.url);
      expect(seeing.info.task).toBe('token-classification');
      const [tags] = await seeing.predict([{ kind: 'tokens', tokens: ['John', 'lives', 'in', 'Paris'] }]);
      expect(tags).toEqual((await tagger.predict([{ kind: 'tokens', tokens: ['John', 'lives', 'in', 'Paris'] }]))[0]);
    } finally {
      await tagServer.close();
      await tagger.close();
    }
    const remote = await createHttpModel(server.url);
    const err = await rejection(remote.predict([{ kind: 'qa', question: 'q', context: 'c' }]));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/'qa' input/);
  });
});

describe('HTTP adapter: batching, concurrency, retries and errors', () => {
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
    delete process.env.TEXTSTRESS_TEST_TOKEN;
  });

  /** Answers text `tN` with probs [N/1000, 1 - N/1000], so order mistakes show. */
  const answer = (inputs: { text: string }[]) =>
    inputs.map((i) => {
      const n = Number(i.text.slice(1)) / 1000;
      return { kind: 'classes', labels: ['a', 'b'], probs: [n, 1 - n] };
    });
  const texts = (n: number): ModelInput[] => Array.from({ length: n }, (_, i) => ({ kind: 'text', text: `t${i}` }));

  it('splits into batches and never has more than `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const sizes: number[] = [];
    srv = await startTestServer(async (req, res, body) => {
      if (req.url === '/info') return json(res, 200, { task: 'text-classification', labels: ['a', 'b'] });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const { inputs } = JSON.parse(body) as { inputs: { text: string }[] };
      sizes.push(inputs.length);
      await new Promise((r) => setTimeout(r, 25));
      inFlight--;
      json(res, 200, { outputs: answer(inputs) });
    });
    const model = await createHttpModel(srv.url, { batchSize: 5, concurrency: 3, ...fast });
    expect(model.maxBatchSize).toBe(15);
    // Two predict() calls at once share the same limit.
    const [a, b] = await Promise.all([model.predict(texts(50)), model.predict(texts(12))]);
    expect(maxInFlight).toBe(3);
    expect(sizes).toHaveLength(13);
    expect(Math.max(...sizes)).toBe(5);
    expect(a).toEqual(answer(texts(50) as { text: string }[]));
    expect(b).toEqual(answer(texts(12) as { text: string }[]));
  });

  it('retries 500s: 500, 500, then OK succeeds on the third attempt', async () => {
    let attempts = 0;
    srv = await startTestServer((req, res, body) => {
      attempts++;
      if (attempts <= 2) return json(res, 500, { error: 'model is warming up' });
      json(res, 200, { outputs: answer((JSON.parse(body) as { inputs: { text: string }[] }).inputs) });
    });
    const model = await createHttpModel(srv.url, { task: 'text-classification', ...fast });
    expect(await model.predict(texts(2))).toEqual(answer(texts(2) as { text: string }[]));
    expect(attempts).toBe(3);
  });

  it('500 then silence: a ModelError naming the URL, the 500 and the hung endpoint, without the token', async () => {
    const token = 'Bearer sk-very-secret-123';
    process.env.TEXTSTRESS_TEST_TOKEN = token;
    let attempts = 0;
    const seenAuth: (string | undefined)[] = [];
    srv = await startTestServer((req, res) => {
      attempts++;
      seenAuth.push(req.headers.authorization);
      // A careless server echoing the credentials back must not leak them into our message.
      if (attempts === 1) return json(res, 500, { error: `crashed while handling ${String(req.headers.authorization)}` });
      // otherwise: never answer
    });
    const model = await createHttpModel(srv.url, {
      task: 'text-classification',
      retries: 3,
      authEnv: 'TEXTSTRESS_TEST_TOKEN',
      ...fast,
      timeoutMs: 1000,
    });
    const t0 = Date.now();
    const err = await rejection(model.predict(texts(1)));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toContain(`the endpoint ${srv.url}/predict did not answer`);
    // The 500 is an answer; the silence after it is a hung endpoint: not retried again (issue 35).
    expect(err.message).toMatch(
      /500 Internal Server Error, then timed out after 1 s, no request answered for 0\.5 s \(2 attempts\).*: it is hung/,
    );
    expect(err.message).not.toContain('sk-very-secret-123');
    expect((err as ModelError).describe()).not.toContain('sk-very-secret-123');
    expect(err.message).toContain('[redacted]');
    expect(attempts).toBe(2);
    expect(seenAuth.every((a) => a === token)).toBe(true);
  });

  it('dropped connections are retried, and reported if they keep happening', async () => {
    let attempts = 0;
    let always = false;
    srv = await startTestServer((req, res, body) => {
      attempts++;
      if (always || attempts === 1) {
        req.socket.destroy();
        return;
      }
      json(res, 200, { outputs: answer((JSON.parse(body) as { inputs: { text: string }[] }).inputs) });
    });
    const model = await createHttpModel(srv.url, { task: 'text-classification', ...fast, retries: 2 });
    expect(await model.predict(texts(1))).toHaveLength(1);
    expect(attempts).toBe(2);
    always = true;
    const err = await rejection(model.predict(texts(1)));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/did not answer: network error \(.+\) \(3 attempts\)/);
  });

  it('honours Retry-After on 429', async () => {
    const times: number[] = [];
    srv = await startTestServer((req, res, body) => {
      times.push(Date.now());
      if (times.length === 1) return json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      json(res, 200, { outputs: answer((JSON.parse(body) as { inputs: { text: string }[] }).inputs) });
    });
    const model = await createHttpModel(srv.url, { task: 'text-classification', ...fast, backoffMs: 1 });
    await model.predict(texts(1));
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('sends the Authorization header from the named environment variable, and extra headers', async () => {
    process.env.TEXTSTRESS_TEST_TOKEN = 'Bearer abc123';
    const seen: Record<string, string | string[] | undefined>[] = [];
    srv = await startTestServer((req, res) => {
      seen.push(req.headers);
      json(res, 200, { task: 'text-classification' });
    });
    const model = await createHttpModel(srv.url, { authEnv: 'TEXTSTRESS_TEST_TOKEN', headers: { 'x-team': 'nlp' } });
    expect(model.info.task).toBe('text-classification');
    expect(seen[0]!.authorization).toBe('Bearer abc123');
    expect(seen[0]!['x-team']).toBe('nlp');

    delete process.env.TEXTSTRESS_TEST_TOKEN;
    const err = await rejection(createHttpModel(srv.url, { authEnv: 'TEXTSTRESS_TEST_TOKEN' }));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/environment variable TEXTSTRESS_TEST_TOKEN.*not set/);
  });

  it('malformed answers are ModelErrors that say what was wrong', async () => {
    let mode = 'short';
    srv = await startTestServer((req, res, body) => {
      const { inputs } = JSON.parse(body) as { inputs: { text: string }[] };
      if (mode === 'short') return json(res, 200, { outputs: answer(inputs).slice(0, 3) });
      if (mode === 'kind') return json(res, 200, { outputs: inputs.map(() => ({ kind: 'tags', tags: [], scores: [] })) });
      if (mode === 'probs')
        return json(res, 200, { outputs: inputs.map(() => ({ kind: 'classes', labels: ['a', 'b'], probs: ['x', 1] })) });
      if (mode === 'nokey') return json(res, 200, { predictions: [] });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy login</html>');
    });
    const model = await createHttpModel(srv.url, { task: 'text-classification', ...fast });
    const cases: [string, RegExp][] = [
      ['short', /outputs has 3 item\(s\) for 4 input\(s\)/],
      ['kind', /outputs\[0\] has kind 'tags', but a text-classification model must answer 'classes'/],
      ['probs', /outputs\[0\]\.probs\[0\]/],
      ['nokey', /response\.outputs/],
      ['html', /body is not JSON: "<html>proxy login<\/html>"/],
    ];
    for (const [m, re] of cases) {
      mode = m;
      const err = await rejection(model.predict(texts(4)));
      expect(err, m).toBeInstanceOf(ModelError);
      expect(err.message, m).toContain(`${srv.url}/predict`);
      expect(err.message, m).toMatch(re);
    }
  });

  it('a malformed /info is a ModelError', async () => {
    srv = await startTestServer((req, res) => json(res, 200, { task: 'summarization' }));
    const err = await rejection(createHttpModel(srv.url));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/\/info answered with a malformed response: info\.task/);
  });

  it('4xx other than 429 fail at once with the status and the server text', async () => {
    let attempts = 0;
    srv = await startTestServer((req, res) => {
      attempts++;
      if (req.url === '/predict') return json(res, 422, { error: `unsupported input ${'x'.repeat(1000)}` });
      json(res, 401, { error: 'bad token' });
    });
    const model = await createHttpModel(srv.url, { task: 'text-classification', ...fast });
    const err = await rejection(model.predict(texts(1)));
    expect(attempts).toBe(1);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/refused the request with 422 Unprocessable Entity: "unsupported input x+…"/);
    expect(err.message.length).toBeLessThan(500);
    const auth = (await rejection(createHttpModel(srv.url, fast))) as ModelError;
    expect(auth.message).toMatch(/401 Unauthorized: "bad token"/);
    expect(auth.describe()).toMatch(/authEnv/);
  });

  it('connection refused says that nothing is listening and how to start the server', async () => {
    const tmp = await startTestServer((req, res) => json(res, 200, {}));
    const port = tmp.port;
    await tmp.close();
    const model = await createHttpModel(`http://127.0.0.1:${port}`, { task: 'text-classification', ...fast, retries: 2 });
    const err = (await rejection(model.predict(texts(1)))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(new RegExp(`nothing is listening at http://127\\.0\\.0\\.1:${port} \\(connection refused, 3 attempts\\)`));
    expect(err.describe()).toContain(`textstress serve --model <folder> --port ${port}`);
  });

  it('bad URLs and options are ModelErrors', async () => {
    await expect(createHttpModel('not a url')).rejects.toBeInstanceOf(ModelError);
    await expect(createHttpModel('ftp://host/model')).rejects.toThrow(/must start with http/);
    await expect(createHttpModel('http://user:pw@host/model')).rejects.toThrow(/credentials/);
    await expect(createHttpModel('http://127.0.0.1:1', { task: 'text-classification', batchSize: 0 })).rejects.toThrow(/batchSize/);
  });
});
