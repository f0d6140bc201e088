/**
 * Reading a request's JSON body for `serve` (serve.ts): bounded in size (413), in type (415) and in time (408
 * when the body stops arriving), so no client can hold memory or a request slot for long.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** An answer with an HTTP status and a message (sent as {error}). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Bytes of bodies being read, across requests, and the most there may be: readers beyond it get a 503. */
export interface BodyBudget {
  used: number;
  max: number;
}

/** How a body must arrive: `idleMs` without a byte, or slower than `minBytesPerSec` after the first `idleMs`, is a 408. */
export interface BodyPace {
  idleMs: number;
  minBytesPerSec: number;
}

/**
 * The body, up to `limit` bytes, failing with 408 when no byte arrives for `idleMs` or, past the first `idleMs`, the
 * body has come slower on average than `minBytesPerSec` (a client trickling 1 byte/s never trips the idle rule).
 * Past the limit reading stops at once (the rest stays in the socket, which is destroyed after the 413), so an
 * oversized body costs at most `limit` bytes of memory; all bodies being read together at most `budget.max`.
 */
function readBody(req: IncomingMessage, limit: number, pace: BodyPace, budget: BodyBudget): Promise<string> {
  const { idleMs, minBytesPerSec } = pace;
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(
        new HttpError(413, `the request body (${declared} bytes) is larger than the ${limit}-byte limit; send fewer inputs per request`),
      );
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const started = performance.now();
    let last = started;
    // The average rate, checked twice a second once the grace (idleMs) is over. A body silent for nearly idleMs is
    // left to the idle rule (due within a tick), so a stalled body is told that it stalled, not that it was slow.
    const pacer = setInterval(() => {
      const now = performance.now();
      const elapsed = now - started;
      if (now - last >= idleMs - 500) return;
      if (elapsed <= idleMs || size >= ((elapsed - idleMs) / 1000) * minBytesPerSec) return;
      const rate = Math.round(size / (elapsed / 1000));
      settle(
        new HttpError(
          408,
          `the request body arrived at ${rate} bytes/s, below the minimum of ${minBytesPerSec} bytes/s; send the whole body at once`,
        ),
      );
    }, 500);
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(
        () => settle(new HttpError(408, `no part of the request body arrived for ${idleMs} ms; send the whole body at once`)),
        idleMs,
      );
    };
    let done = false;
    const settle = (err?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearInterval(pacer);
      budget.used -= size;
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (err) {
        req.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer): void => {
      arm();
      last = performance.now();
      size += chunk.length;
      budget.used += chunk.length;
      if (size > limit)
        settle(new HttpError(413, `the request body is larger than the ${limit}-byte limit; send fewer inputs per request`));
      else if (budget.used > budget.max) settle(new HttpError(503, 'the server is busy reading other request bodies; retry in a second'));
      else chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    // A client that hangs up mid-body must free its slot rather than leave this promise pending.
    const onClose = (): void => settle(new HttpError(400, 'the client closed the connection before the body arrived'));
    req.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
    arm();
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
    const val =
      eq < 0
        ? ''
        : p
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    return key !== 'charset' || /^utf-?8$/i.test(val);
  });
}

export async function readJson(req: IncomingMessage, route: string, limit: number, pace: BodyPace, budget: BodyBudget): Promise<unknown> {
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    const got = type ? `'${type}'` : 'no content-type';
    throw new HttpError(
      415,
      `POST ${route} takes only content-type: application/json (UTF-8), not ${got}; send the body as JSON with that header`,
    );
  }
  const text = await readBody(req, limit, pace, budget);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** A request whose body is still arriving. */
export interface Reader {
  client: string;
  started: number;
  socket: Socket;
  kick: () => void;
}

/** The reader with the lowest average rate of those reading for over a second; undefined when none has. */
export function slowest(pool: readonly Reader[]): Reader | undefined {
  const now = performance.now();
  let best: { r: Reader; rate: number } | undefined;
  for (const r of pool) {
    const age = now - r.started;
    if (age < 1000) continue;
    const rate = r.socket.bytesRead / age;
    if (!best || rate < best.rate) best = { r, rate };
  }
  return best?.r;
}
