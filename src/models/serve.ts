/**
 * Serves any ModelAdapter over the textstress HTTP model API (docs/http-model-api.md) with node:http.
 * Backs `textstress serve --model <folder> --port P`.
 *
 *   GET  /health   → {ok: true}
 *   GET  /info     → {task, labels?, id, tokenize?, maxBatchSize?}
 *   POST /predict  {inputs} → {outputs}
 *   POST /tokenize {texts} → {tokens}      (when the adapter can tokenize)
 * Every error answers JSON {error: "..."}: 400 bad body, 403 wrong Host, 404/405 bad route, 413 body too large,
 * 415 not JSON, 422 inputs the model refuses (an input-specific ModelError), 500 model failure, 503 busy (more
 * than maxConcurrent requests at once).
 *
 * Browser pages must not be able to drive the model: POST routes take only `content-type: application/json`
 * (a cross-site form or `text/plain` fetch cannot send it without a CORS preflight), and the server sends no
 * CORS headers, so every preflight fails. A DNS-rebinding page (evil.example resolving to 127.0.0.1) is same-origin
 * to the browser, so the Host header is checked against the bound address too (see hostPolicy).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelError, errorMessage } from '../util/errors.ts';
import { checkInputKind, describeZodError, infoToJson, PredictRequestSchema, TokenizeRequestSchema } from './schema.ts';
import type { ModelAdapter, ModelInput } from './types.ts';
import { openAiHandler, type OpenAiOptions } from './openai-compat.ts';
import { HttpError, readJson, slowest, type BodyBudget, type Reader } from './serve-body.ts';
import { publicModelId } from './public-id.ts';
import { hostPolicy, parseAllowedHosts, type HostPolicy } from './host-policy.ts';

export { hostPolicy, type HostPolicy } from './host-policy.ts';
export { isJsonContentType } from './serve-body.ts';
export { publicModelId } from './public-id.ts';

/** Options of {@link startModelServer}; `host` defaults to 127.0.0.1. */
export interface ModelServerOptions {
  /** 0 picks a free port (read it from the returned url). */
  port: number;
  host?: string;
  /** Largest accepted request body (default 10 MB). */
  maxBodyBytes?: number;
  /**
   * Requests handled at once once their body has arrived (default 8). While all are taken, more are answered 503
   * with `retry-after: 1` at once, their body unread and their connection closed; bodies still arriving buffer at
   * most as much again, so memory stays near 2 × maxConcurrent × maxBodyBytes however many clients send.
   */
  maxConcurrent?: number;
  /**
   * Host header values accepted besides the bound address's own, e.g. a reverse proxy's name: `name` (any port)
   * or `name:port`. Bound to 0.0.0.0 or ::, any Host is accepted.
   */
  allowedHosts?: string[];
  /** Where startup warnings go (listening beyond this machine); default: stderr. */
  onWarning?: (message: string) => void;
  /**
   * Added to every POST /predict, in ms: stands in for a remote model's network and queueing time in benchmarks
   * and tests (default 0).
   */
  latencyMs?: number;
  /**
   * A request body that stops arriving for this long (ms) is answered 408 and its connection closed, so clients
   * that send half a body and stall cannot hold the request slots (default 3000). The whole request, headers
   * included, is also bounded (30 s; headers alone 10 s).
   */
  bodyIdleMs?: number;
  /**
   * After the first bodyIdleMs, a body arriving slower than this on average is answered 408 (default 8192 bytes/s):
   * clients trickling 1 byte/s never trip the idle rule (issue 35).
   */
  minBodyBytesPerSec?: number;
  /**
   * Requests whose body is still arriving, at most, from all clients (default 64) and from one client address
   * (default 16); more are answered 503 at once. They hold no request slot (maxConcurrent) while their body arrives:
   * slow clients cannot lock normal requests out.
   */
  maxReading?: number;
  maxReadingPerClient?: number;
  /** Also answer the OpenAI-compatible routes GET /v1/models and POST /v1/chat/completions (see openai-compat.ts). */
  openai?: OpenAiOptions;
}

/** A running model server. */
export interface ModelServer {
  /** http://host:port, with the port actually bound. */
  url: string;
  /** Requests received so far (each one, answered or refused), for tests and benchmarks that count server-side. */
  readonly stats: { requests: number };
  /** Stops listening and drops open connections; the adapter stays open. */
  close(): Promise<void>;
}

export function isPort(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 65535;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Serves an adapter over the textstress HTTP model API; resolves once listening.
 * Throws a ModelError for bad options or when the port cannot be bound.
 */
export async function startModelServer(adapter: ModelAdapter, opts: ModelServerOptions): Promise<ModelServer> {
  const host = opts.host ?? '127.0.0.1';
  const limit = opts.maxBodyBytes ?? 10 * 1024 * 1024;
  const latency = opts.latencyMs ?? 0;
  if (!Number.isFinite(latency) || latency < 0) throw new ModelError(`latencyMs must be a number ≥ 0, got ${opts.latencyMs}.`);
  const maxConcurrent = opts.maxConcurrent ?? 8;
  const bodyIdleMs = opts.bodyIdleMs ?? 3000;
  const minBodyBytesPerSec = opts.minBodyBytesPerSec ?? 8192;
  const maxReading = opts.maxReading ?? 64;
  const maxReadingPerClient = opts.maxReadingPerClient ?? 16;
  if (!isPort(opts.port)) {
    throw new ModelError(
      `cannot serve the model: port ${opts.port} is not a port number; give an integer from 0 to 65535 (0 picks a free port).`,
    );
  }
  for (const [name, value] of [
    ['maxBodyBytes', limit],
    ['maxConcurrent', maxConcurrent],
    ['bodyIdleMs', bodyIdleMs],
    ['minBodyBytesPerSec', minBodyBytesPerSec],
    ['maxReading', maxReading],
    ['maxReadingPerClient', maxReadingPerClient],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new ModelError(`cannot serve the model: ${name} must be a positive integer, not ${value}.`);
  }
  parseAllowedHosts(opts.allowedHosts ?? []);
  const shownId = publicModelId(adapter.info.id);
  // Model errors often quote the folder (transformers.js, our own messages): show its name there too.
  const scrub = (text: string): string => (shownId === adapter.info.id ? text : text.split(adapter.info.id).join(shownId));
  const info = infoToJson(
    { ...adapter.info, id: shownId },
    {
      tokenize: !!adapter.tokenize,
      ...(adapter.maxBatchSize ? { maxBatchSize: adapter.maxBatchSize } : {}),
    },
  );

  const openai = opts.openai ? openAiHandler(adapter, opts.openai) : undefined;
  let hosts: HostPolicy | undefined;
  /**
   * One request's state: `signal` aborts when its client hangs up before the answer; `modelBusy` while the model
   * works on it (that call cannot be stopped, so its slot is kept until it returns).
   */
  interface Call {
    signal: AbortSignal;
    modelBusy: boolean;
    /** Takes a request slot once the body has arrived; throws a 503 when none is free. */
    admit: () => void;
    /** Frees the reader slot the request holds while its body arrives. */
    doneReading: () => void;
  }
  const abandoned = (): HttpError => new HttpError(499, 'the client closed the connection before the answer');
  /** Marks the model call, after checking the client is still there: no model work for an abandoned request. */
  const modelCall = async <T>(call: Call, work: () => Promise<T>): Promise<T> => {
    if (call.signal.aborted) throw abandoned();
    call.modelBusy = true;
    try {
      return await work();
    } finally {
      call.modelBusy = false;
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, call: Call): Promise<void> => {
    const body = async (route: string): Promise<unknown> => {
      try {
        return await readJson(req, route, limit, { idleMs: bodyIdleMs, minBytesPerSec: minBodyBytesPerSec }, budget);
      } finally {
        call.doneReading();
      }
    };
    const wait = (ms: number): Promise<unknown> => sleep(ms, undefined, { signal: call.signal }).catch(() => Promise.reject(abandoned()));
    if (!hosts?.accepts(req.headers.host)) {
      const got = req.headers.host === undefined ? 'no Host header' : `the Host header '${req.headers.host}'`;
      const accepted = hosts?.accepted.join(', ') ?? 'none yet';
      throw new HttpError(
        403,
        `this server does not answer requests with ${got}; it accepts Host ${accepted} (add names with --allowed-host / allowedHosts)`,
      );
    }
    const route = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const allow = (m: string) => {
      if (method === 'OPTIONS') {
        // A CORS preflight: refused, and answered without any Access-Control-Allow-* header.
        res.setHeader('allow', m);
        throw new HttpError(405, `${route} answers ${m} only; this server takes no cross-origin (CORS) requests`);
      }
      if (method !== m) {
        res.setHeader('allow', m);
        throw new HttpError(405, `${route} answers ${m} only, not ${method}`);
      }
    };
    if (openai && route.startsWith('/v1/')) {
      if (latency > 0 && route === '/v1/chat/completions') await wait(latency);
      // The handler calls the model once the body is read: from then on the call counts as model work.
      const answer = await openai(method, route, () =>
        body(route).then((b) => {
          if (call.signal.aborted) throw abandoned();
          call.admit();
          call.modelBusy = true;
          return b;
        }),
      );
      if (answer) {
        for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
        if (answer.raw !== undefined) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.raw);
          return;
        }
        return send(res, answer.status, answer.body);
      }
    }
    switch (route) {
      case '/health':
        allow('GET');
        return send(res, 200, { ok: true });
      case '/info':
        allow('GET');
        return send(res, 200, info);
      case '/predict': {
        allow('POST');
        const parsed = PredictRequestSchema.safeParse(await body(route));
        call.admit();
        if (!parsed.success) {
          throw new HttpError(400, `bad request body: ${describeZodError(parsed.error, 'body')} (expected {"inputs": [ModelInput, ...]})`);
        }
        const inputs = parsed.data.inputs as ModelInput[];
        inputs.forEach((input, i) => {
          const problem = checkInputKind(adapter.info.task, input, i);
          if (problem) throw new HttpError(400, `bad request body: ${problem}`);
        });
        if (latency > 0) await wait(latency);
        const outputs = inputs.length ? await modelCall(call, () => adapter.predict(inputs)) : [];
        return send(res, 200, { outputs });
      }
      case '/tokenize': {
        allow('POST');
        const tokenize = adapter.tokenize?.bind(adapter);
        if (!tokenize) throw new HttpError(404, 'this model has no tokenizer to expose');
        const parsed = TokenizeRequestSchema.safeParse(await body(route));
        call.admit();
        if (!parsed.success) {
          throw new HttpError(400, `bad request body: ${describeZodError(parsed.error, 'body')} (expected {"texts": [string, ...]})`);
        }
        const tokens: string[][] = [];
        for (const t of parsed.data.texts) tokens.push(await modelCall(call, () => tokenize(t)));
        return send(res, 200, { tokens });
      }
      default:
        throw new HttpError(404, `no route ${method} ${route}; this server answers GET /info, GET /health and POST /predict`);
    }
  };

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    // A model that blames particular inputs gets a 422, which the client's query engine splits batches for.
    const status = err instanceof HttpError ? err.status : err instanceof ModelError && err.inputSpecific ? 422 : 500;
    const message = err instanceof HttpError ? err.message : `the model failed: ${scrub(errorMessage(err))}`;
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    // A body refused before it fully arrived (busy, too large, not JSON) is not read on: drop the connection once
    // the answer is out rather than take in the rest.
    const close = !req.complete || status === 503;
    if (close) res.setHeader('connection', 'close');
    if (status === 503) res.setHeader('retry-after', '1');
    send(res, status, { error: message });
    if (close) res.on('finish', () => req.destroy());
  };

  // Requests being handled once their body arrived (each may hold a body and a model call), and requests whose body
  // is still arriving, in all and per client address; the bytes of those bodies together stay within `budget`.
  let active = 0;
  const readers = new Set<Reader>();
  const budget: BodyBudget = { used: 0, max: maxConcurrent * limit };
  const busy = (what: string): HttpError =>
    new HttpError(503, `the server is busy with ${what}; retry in a second, or send fewer requests at once`);
  const stats = { requests: 0 };
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 }, (req, res) => {
    stats.requests++;
    const client = req.socket.remoteAddress ?? '?';
    const refuse = (err: HttpError): void => fail(req, res, err);
    if (active >= maxConcurrent) return refuse(busy(`${maxConcurrent} requests`));
    const full = readers.size >= maxReading;
    const crowd = full ? [...readers] : [...readers].filter((r) => r.client === client);
    if (!full && crowd.length < maxReadingPerClient) return proceed(req, res, true);
    // At a cap. A body that came whole with its headers (the parser has it by the next turn) needs no reader slot;
    // else the slowest body that has had a second makes way (a slow client reconnecting cannot keep a newcomer out;
    // all clients may share one address); with none that old, the newcomer is refused.
    setImmediate(() => {
      if (req.socket.destroyed) return;
      if (req.complete) return proceed(req, res, false);
      const victim = slowest(crowd.filter((r) => readers.has(r)));
      if (!victim)
        return refuse(busy(full ? `${maxReading} request bodies still arriving` : `${maxReadingPerClient} request bodies from ${client}`));
      victim.kick();
      proceed(req, res, true);
    });
  });
  const proceed = (req: IncomingMessage, res: ServerResponse, asReader: boolean): void => {
    const me: Reader = {
      client: req.socket.remoteAddress ?? '?',
      started: performance.now(),
      socket: req.socket,
      kick: () => {
        readers.delete(me);
        fail(req, res, new HttpError(408, 'the request body arrived too slowly while others waited; send the whole body at once'));
      },
    };
    if (asReader) readers.add(me);
    const doneReading = (): void => void readers.delete(me);
    let held = false;
    const admit = (): void => {
      doneReading();
      if (held) return;
      if (active >= maxConcurrent) throw busy(`${maxConcurrent} requests`);
      active++;
      held = true;
    };
    const release = (): void => {
      doneReading();
      if (held) active--;
      held = false;
    };
    const aborter = new AbortController();
    const call: Call = { signal: aborter.signal, modelBusy: false, admit, doneReading };
    // A client that hangs up frees its slot at once (its wait and model call are skipped), except while the model
    // works on its request: that call cannot be stopped, so the slot is freed when it returns and model work stays
    // within the cap.
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
      if (!call.modelBusy) release();
    });
    handle(req, res, call)
      .catch((err: unknown) => fail(req, res, err))
      .finally(release);
  };

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(
          new ModelError(`cannot serve the model: port ${opts.port} on ${host} is already in use.`, {
            hint: 'Pick another port with --port.',
          }),
        );
      } else if (err.code === 'EACCES') {
        reject(
          new ModelError(`cannot serve the model: not allowed to listen on port ${opts.port} (ports below 1024 need root).`, {
            hint: 'Pick a port above 1024.',
          }),
        );
      } else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
        reject(
          new ModelError(`cannot serve the model: ${host} is not an address of this machine.`, {
            hint: 'Use 127.0.0.1 (the default) or a local interface address; 0.0.0.0 only on a trusted network.',
          }),
        );
      } else {
        reject(new ModelError(`cannot serve the model on ${host}:${opts.port}: ${err.message}`, { cause: err }));
      }
    };
    server.once('error', onError);
    server.listen(opts.port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });

  const addr = server.address() as AddressInfo;
  hosts = hostPolicy(addr.address, addr.port, host, opts.allowedHosts);
  if (hosts.warning) (opts.onWarning ?? ((m) => process.stderr.write(`textstress: warning: ${m}\n`)))(hosts.warning);
  const shownHost = addr.family === 'IPv6' || addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
