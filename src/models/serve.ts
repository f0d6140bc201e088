/**
 * Serves any ModelAdapter over the textstress HTTP model API (docs/http-model-api.md) with node:http.
 * Backs `textstress serve --model <folder> --port P`.
 *
 *   GET  /health   → {ok: true}
 *   GET  /info     → {task, labels?, id, tokenize?, maxBatchSize?}
 *   POST /predict  {inputs} → {outputs}
 *   POST /tokenize {texts} → {tokens}      (when the adapter can tokenize)
 * Every error answers JSON {error: "..."}: 400 bad body, 404/405 bad route, 413 body too large, 415 not JSON,
 * 500 model failure.
 *
 * Browser pages must not be able to drive the model: POST routes take only `content-type: application/json`
 * (a cross-site form or `text/plain` fetch cannot send it without a CORS preflight), and the server sends no
 * CORS headers, so every preflight fails.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelError, errorMessage } from '../util/errors.ts';
import {
  checkInputKind,
  describeZodError,
  infoToJson,
  PredictRequestSchema,
  TokenizeRequestSchema,
} from './schema.ts';
import type { ModelAdapter, ModelInput } from './types.ts';

export interface ModelServerOptions {
  /** 0 picks a free port (read it from the returned url). */
  port: number;
  host?: string;
  /** Largest accepted request body (default 10 MB). */
  maxBodyBytes?: number;
}

export interface ModelServer {
  /** http://host:port, with the port actually bound. */
  url: string;
  /** Stops listening and drops open connections; the adapter stays open. */
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpError(413, `the request body (${declared} bytes) is larger than the ${limit}-byte limit; send fewer inputs per request`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(new HttpError(413, `the request body is larger than the ${limit}-byte limit; send fewer inputs per request`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
    req.on('error', (err) => {
      if (!done) {
        done = true;
        reject(err);
      }
    });
  });
}

/** `application/json`, optionally with parameters; a charset other than UTF-8 is refused since the body is read as UTF-8. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';');
  if (type!.trim().toLowerCase() !== 'application/json') return false;
  return params.every((p) => {
    const eq = p.indexOf('=');
    const key = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
    const val = eq < 0 ? '' : p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    return key !== 'charset' || /^utf-?8$/i.test(val);
  });
}

async function readJson(req: IncomingMessage, route: string, limit: number): Promise<unknown> {
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    const got = type ? `'${type}'` : 'no content-type';
    throw new HttpError(415, `POST ${route} takes only content-type: application/json (UTF-8), not ${got}; send the body as JSON with that header`);
  }
  const text = await readBody(req, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

export async function startModelServer(adapter: ModelAdapter, opts: ModelServerOptions): Promise<ModelServer> {
  const host = opts.host ?? '127.0.0.1';
  const limit = opts.maxBodyBytes ?? 10 * 1024 * 1024;
  const info = infoToJson(adapter.info, {
    tokenize: !!adapter.tokenize,
    ...(adapter.maxBatchSize ? { maxBatchSize: adapter.maxBatchSize } : {}),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
    switch (route) {
      case '/health':
        allow('GET');
        return send(res, 200, { ok: true });
      case '/info':
        allow('GET');
        return send(res, 200, info);
      case '/predict': {
        allow('POST');
        const parsed = PredictRequestSchema.safeParse(await readJson(req, route, limit));
        if (!parsed.success) {
          throw new HttpError(400, `bad request body: ${describeZodError(parsed.error, 'body')} (expected {"inputs": [ModelInput, ...]})`);
        }
        const inputs = parsed.data.inputs as ModelInput[];
        inputs.forEach((input, i) => {
          const problem = checkInputKind(adapter.info.task, input, i);
          if (problem) throw new HttpError(400, `bad request body: ${problem}`);
        });
        const outputs = inputs.length ? await adapter.predict(inputs) : [];
        return send(res, 200, { outputs });
      }
      case '/tokenize': {
        allow('POST');
        const tokenize = adapter.tokenize?.bind(adapter);
        if (!tokenize) throw new HttpError(404, 'this model has no tokenizer to expose');
        const parsed = TokenizeRequestSchema.safeParse(await readJson(req, route, limit));
        if (!parsed.success) {
          throw new HttpError(400, `bad request body: ${describeZodError(parsed.error, 'body')} (expected {"texts": [string, ...]})`);
        }
        const tokens: string[][] = [];
        for (const t of parsed.data.texts) tokens.push(await tokenize(t));
        return send(res, 200, { tokens });
      }
      default:
        throw new HttpError(404, `no route ${method} ${route}; this server answers GET /info, GET /health and POST /predict`);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof HttpError ? err.message : `the model failed: ${errorMessage(err)}`;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A body refused before it fully arrived (too large, not JSON) is not read on: drop the connection once the
      // answer is out rather than take in the rest.
      const unread = !req.complete;
      if (unread) res.setHeader('connection', 'close');
      send(res, status, { error: message });
      if (unread) res.on('finish', () => req.destroy());
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new ModelError(`cannot serve the model: port ${opts.port} on ${host} is already in use.`, { hint: 'Pick another port with --port.' }));
      } else if (err.code === 'EACCES') {
        reject(new ModelError(`cannot serve the model: not allowed to listen on port ${opts.port} (ports below 1024 need root).`, { hint: 'Pick a port above 1024.' }));
      } else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
        reject(new ModelError(`cannot serve the model: ${host} is not an address of this machine.`, { hint: 'Use 127.0.0.1, 0.0.0.0 or a local interface address.' }));
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
  const shownHost = addr.family === 'IPv6' || addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
