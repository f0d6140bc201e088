import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { serveCommand } from '../../src/cli/commands/serve.ts';
import { hostPolicy, publicModelId, startModelServer, type ModelServer } from '../../src/models/serve.ts';
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

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection with node:http, which (unlike fetch) lets a test set Host and send any body. */
function request(
  base: string,
  route: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${route}`, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

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
      [
        '{"inputs": [{"kind": "tokens", "tokens": ["a"]}]}',
        /input 0 is a 'tokens' input, but a text-classification model takes only 'text' or 'pair'/,
      ],
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

  it('answers only JSON bodies: 415 for text/plain, form bodies and no content-type, naming the expected type', async () => {
    const body = JSON.stringify({ inputs: [{ kind: 'text', text: 'hi' }] });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      undefined,
    ]) {
      for (const route of ['/predict', '/tokenize']) {
        const res = await request(server.url, route, { method: 'POST', body, ...(type ? { headers: { 'content-type': type } } : {}) });
        expect(res.status, `${route} ${type}`).toBe(415);
        expect(JSON.parse(res.body).error).toMatch(/content-type: application\/json/);
      }
    }
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      const res = await request(server.url, '/predict', { method: 'POST', body, headers: { 'content-type': type } });
      expect(res.status, type).toBe(200);
    }
  });

  it('sends no CORS headers and refuses preflights', async () => {
    const preflight = await request(server.url, '/predict', {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(405);
    const info = await request(server.url, '/info', { headers: { origin: 'http://evil.example' } });
    for (const res of [preflight, info]) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('answers only the Host values of its loopback address (403 names them), so a DNS-rebinding page gets nothing', async () => {
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await request(server.url, '/info', { headers: { host } })).status, host).toBe(200);
    }
    const body = JSON.stringify({ inputs: [{ kind: 'text', text: 'hi' }] });
    for (const host of [`evil.example:${port}`, 'localhost', `127.0.0.1:${Number(port) + 1}`, `localhost.evil.example:${port}`]) {
      for (const [method, route] of [
        ['GET', '/info'],
        ['POST', '/predict'],
      ] as const) {
        const res = await request(server.url, route, {
          method,
          headers: { host, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body } : {}),
        });
        expect(res.status, `${method} ${route} ${host}`).toBe(403);
        const { error } = JSON.parse(res.body) as { error: string };
        expect(error).toContain(`the Host header '${host}'`);
        expect(error).toContain(`127.0.0.1:${port}, localhost:${port}, [::1]:${port}`);
      }
    }
  });

  it('allowedHosts adds names (any port, or one port)', async () => {
    const proxied = await startModelServer(echo, { port: 0, allowedHosts: ['model.internal', 'Proxy.Example:8443'] });
    try {
      const ok = ['model.internal', 'model.internal:9000', 'proxy.example:8443', `127.0.0.1:${new URL(proxied.url).port}`];
      for (const host of ok) expect((await request(proxied.url, '/health', { headers: { host } })).status, host).toBe(200);
      const res = await request(proxied.url, '/health', { headers: { host: 'proxy.example' } });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).error).toMatch(/model\.internal \(any port\), proxy\.example:8443/);
    } finally {
      await proxied.close();
    }
    const err = await rejection(startModelServer(echo, { port: 0, allowedHosts: ['http://proxy/'] }));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/'http:\/\/proxy\/' is not a host name for --allowed-host/);
  });

  it('hostPolicy: a specific address is accepted exactly; a wildcard accepts any Host but warns', () => {
    const lan = hostPolicy('192.168.1.5', 8080, 'myhost.lan');
    expect(lan.accepts('192.168.1.5:8080')).toBe(true);
    expect(lan.accepts('myhost.lan:8080')).toBe(true);
    expect(lan.accepts('localhost:8080')).toBe(false);
    expect(lan.accepts(undefined)).toBe(false);
    expect(lan.warning).toMatch(/reachable from other machines/);
    for (const wildcard of ['0.0.0.0', '::']) {
      const any = hostPolicy(wildcard, 8080);
      expect(any.accepts('evil.example:8080')).toBe(true);
      expect(any.warning).toMatch(/every network interface.*reachable from other machines.*Host check .* is off/);
    }
    expect(hostPolicy('127.0.0.1', 8080).warning).toBeUndefined();
    expect(hostPolicy('::1', 80).accepts('localhost')).toBe(true);
  });

  it('--allowed-host is repeatable and comma-separated; --max-concurrent defaults to 8', () => {
    const cmd = serveCommand()
      .exitOverride()
      .action(() => {});
    cmd.parse(['--model', 'x', '--allowed-host', 'a.example, b.example:81', '--allowed-host', 'c.example'], { from: 'user' });
    expect(cmd.opts()).toMatchObject({ allowedHost: ['a.example', 'b.example:81', 'c.example'], maxConcurrent: 8, host: '127.0.0.1' });
  });

  it('/info and error messages show a model folder by its name, never its absolute path', async () => {
    const dir = '/home/alice/private/models/sst2-v3';
    const model = createFunctionModel(
      () => {
        throw new Error(`cannot read ${dir}/onnx/model.onnx`);
      },
      { id: dir, task: 'text-classification', labels: ['neg', 'pos'] },
    );
    const s = await startModelServer(model, { port: 0 });
    try {
      const info = await request(s.url, '/info');
      expect(JSON.parse(info.body).id).toBe('sst2-v3');
      const res = await request(s.url, '/predict', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"inputs": [{"kind": "text", "text": "hi"}]}',
      });
      expect(res.status).toBe(500);
      expect(res.body).toMatch(/sst2-v3 failed: cannot read sst2-v3\/onnx\/model\.onnx/);
      expect(res.body).not.toContain('alice');
    } finally {
      await s.close();
    }
  });

  it('publicModelId keeps hub ids, built-in names and URLs (less credentials and query), and folders by base name', () => {
    const cases: [string, string][] = [
      ['/home/alice/models/sst2-v3', 'sst2-v3'],
      ['/home/alice/models/sst2-v3/', 'sst2-v3'],
      ['C:\\Users\\alice\\models\\ner', 'ner'],
      ['./models/demo-sst2', 'demo-sst2'],
      ['Xenova/distilbert-base-uncased-finetuned-sst-2-english', 'Xenova/distilbert-base-uncased-finetuned-sst-2-english'],
      ['function:echo', 'function:echo'],
      ['https://bob:secret@models.example/sst2/?key=abc', 'https://models.example/sst2'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ];
    for (const [id, shown] of cases) expect(publicModelId(id), id).toBe(shown);
  });

  it('caps requests in flight: beyond maxConcurrent it answers 503 at once, reads no body, and memory stays bounded', async () => {
    // The model blocks until every excess request has been answered, as a CPU-bound model would keep its slots.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Without a cap no 503 ever comes: let the model go after a while so the test fails on the counts, not a timeout.
    setTimeout(() => open(), 3000).unref();
    const slow = createFunctionModel(
      async (inputs: ModelInput[]) => {
        await gate;
        return inputs.map(() => ({ kind: 'classes' as const, labels: ['neg', 'pos'], probs: [0.5, 0.5] }));
      },
      { id: 'function:slow', task: 'text-classification', labels: ['neg', 'pos'] },
    );
    const cap = 4;
    const n = 100;
    const s = await startModelServer(slow, { port: 0, maxConcurrent: cap, maxBodyBytes: 8 * 1024 * 1024 });
    try {
      // One shared 4 MB body: the client side adds nothing per request, so RSS growth is the server's.
      const body = Buffer.from(JSON.stringify({ inputs: [{ kind: 'text', text: 'x'.repeat(4 * 1024 * 1024) }] }));
      global.gc?.();
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      let busy = 0;
      const answers = Array.from({ length: n }, () =>
        request(s.url, '/predict', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => {
          if (r.status === 503 && ++busy === n - cap) open();
          return r;
        }),
      );
      const done = await Promise.all(answers);
      clearInterval(sampler);
      const statuses = done.map((r) => r.status);
      expect(statuses.filter((x) => x === 200)).toHaveLength(cap);
      expect(statuses.filter((x) => x === 503)).toHaveLength(n - cap);
      const rejected = done.find((r) => r.status === 503)!;
      expect(rejected.headers['retry-after']).toBe('1');
      expect(rejected.headers.connection).toBe('close');
      expect(JSON.parse(rejected.body).error).toMatch(/busy with 4 requests; retry in a second/);
      // Unbounded, the server held all 100 bodies (~900 MB growth measured); capped, about 4 of them (~50 MB).
      expect(peak - rss0).toBeLessThan(250 * 2 ** 20);
      // Once the slots are free, the server answers again.
      expect((await request(s.url, '/health')).status).toBe(200);
    } finally {
      open();
      await s.close();
    }
  });

  it('frees its slot after every kind of ending: hang-up mid-body, 413, 415, 400, model failure', async () => {
    const s = await startModelServer(echo, { port: 0, maxConcurrent: 1, maxBodyBytes: 1000 });
    const json = { 'content-type': 'application/json' };
    try {
      // A client that sends half a body and hangs up.
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${s.url}/predict`, { method: 'POST', headers: { ...json, 'content-length': '500' }, agent: false });
        req.on('error', () => resolve());
        req.write('{"inputs": [', () => setTimeout(() => (req.destroy(), resolve()), 50));
      });
      await new Promise((r) => setTimeout(r, 50));
      // A chunked body (no content-length) that runs past the limit: answered 413 without reading it all.
      const big = await request(s.url, '/predict', {
        method: 'POST',
        headers: { ...json, 'transfer-encoding': 'chunked' },
        body: 'x'.repeat(100_000),
      });
      expect(big.status).toBe(413);
      expect((await request(s.url, '/predict', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(
        415,
      );
      expect((await request(s.url, '/predict', { method: 'POST', headers: json, body: '{' })).status).toBe(400);
      expect(
        (await request(s.url, '/predict', { method: 'POST', headers: json, body: '{"inputs": [{"kind": "text", "text": "crash"}]}' }))
          .status,
      ).toBe(500);
      const ok = await request(s.url, '/predict', { method: 'POST', headers: json, body: '{"inputs": [{"kind": "text", "text": "hi"}]}' });
      expect(ok.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a port outside 0–65535, or a bad cap or limit, is a ModelError before anything listens', async () => {
    for (const port of [99999, 65536, -1, 1.5, Number.NaN]) {
      const err = await rejection(startModelServer(echo, { port }));
      expect(err, String(port)).toBeInstanceOf(ModelError);
      expect(err.message).toContain(`port ${port} is not a port number; give an integer from 0 to 65535 (0 picks a free port)`);
    }
    for (const opts of [{ maxConcurrent: 0 }, { maxBodyBytes: 1.5 }]) {
      const err = await rejection(startModelServer(echo, { port: 0, ...opts }));
      expect(err).toBeInstanceOf(ModelError);
      expect(err.message).toMatch(/must be a positive integer/);
    }
  });

  it("--port 99999 is a usage error with a clear message, not Node's", () => {
    let said = '';
    const cmd = serveCommand()
      .exitOverride()
      .configureOutput({ writeErr: (t) => (said += t) })
      .action(() => {});
    expect(() => cmd.parse(['--model', 'x', '--port', '99999'], { from: 'user' })).toThrow();
    expect(said).toMatch(/--port must be an integer from 0 to 65535 \(0 picks a free port\)/);
  });

  it('a port in use is a ModelError', async () => {
    const port = Number(new URL(server.url).port);
    const err = await rejection(startModelServer(echo, { port }));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  });
});
