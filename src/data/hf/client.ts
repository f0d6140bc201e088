/**
 * The hub calls textstress makes, as the hub's own clients make them: the parquet listing API, a HEAD for
 * each file's identity (ETag / X-Linked-Etag, read before the redirect to the CDN) and the download.
 * Redirects are followed by hand so that the token goes to HF_ENDPOINT's origin only, never to a CDN.
 * Failures come back as {@link HubHttpError} (the hub answered) or {@link HubUnreachable} (it did not),
 * so the caller can fall back to the cache for the second kind only.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { z } from 'zod';
import { TextstressError } from '../../util/errors.ts';
import { showUrl, type HubEnv } from './spec.ts';

const API_TIMEOUT_MS = 30_000;
/** A download fails when no byte arrives for this long (a total limit would break big files on slow links). */
const IDLE_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 10;

/** The hub answered with an error status. `message` is the hub's own error text, when it gave one. */
export class HubHttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'HubHttpError';
  }
}

/** No answer: connection refused, DNS failure, timeout, reset, or a 5xx / 429 (the hub is down or busy). */
export class HubUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot reach ${showUrl(url)} (${reason})`);
    this.name = 'HubUnreachable';
  }
}

function networkReason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

const sameOrigin = (a: string, b: string): boolean => new URL(a).origin === new URL(b).origin;

/**
 * One request, following redirects by hand. The Authorization header is sent only while the URL is on
 * HF_ENDPOINT's origin. With `stopAtOtherOrigin`, a redirect to another origin is returned as it is
 * (HEAD: the hub's file headers are on that redirect, the CDN's are not).
 */
async function request(
  env: HubEnv,
  url: string,
  init: { method: 'GET' | 'HEAD'; signal: AbortSignal; stopAtOtherOrigin?: boolean },
): Promise<{ res: Response; url: string }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    // identity: the byte count must be the file's, to check it against Content-Length.
    const headers: Record<string, string> = { 'user-agent': 'textstress', 'accept-encoding': 'identity' };
    if (env.token && sameOrigin(current, env.endpoint)) headers.authorization = `Bearer ${env.token}`;
    let res: Response;
    try {
      res = await fetch(current, { method: init.method, headers, redirect: 'manual', signal: init.signal });
    } catch (err) {
      throw new HubUnreachable(current, networkReason(err));
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || location === null) return { res, url: current };
    const next = new URL(location, current).href;
    if (init.stopAtOtherOrigin && !sameOrigin(next, current)) return { res, url: current };
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new HubHttpError(res.status, url, `more than ${MAX_REDIRECTS} redirects`);
    current = next;
  }
}

/** Turns an error status into HubHttpError (4xx) or HubUnreachable (5xx, 429), reading the hub's error text. */
async function failOnStatus(res: Response, url: string): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = (await res.text()).trim();
  } catch {
    // the status says enough
  }
  let message = text;
  try {
    const parsed = z.object({ error: z.string() }).safeParse(JSON.parse(text));
    if (parsed.success) message = parsed.data.error;
  } catch {
    // not JSON: keep the text
  }
  message = message.replace(/\s+/g, ' ').slice(0, 200);
  if (res.status >= 500 || res.status === 429) throw new HubUnreachable(url, `HTTP ${res.status}${message ? `: ${message}` : ''}`);
  throw new HubHttpError(res.status, url, message);
}

async function getJson(env: HubEnv, url: string): Promise<unknown> {
  const signal = AbortSignal.timeout(API_TIMEOUT_MS);
  const { res, url: final } = await request(env, url, { method: 'GET', signal });
  await failOnStatus(res, final);
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new HubUnreachable(final, networkReason(err));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TextstressError(`the hub's answer is not JSON: ${JSON.stringify(text.slice(0, 120))}.`, {
      where: showUrl(final),
      hint: 'Check HF_ENDPOINT: it must point at the Hugging Face hub or a mirror of its API.',
    });
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, url: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue && issue.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
  throw new TextstressError(`the hub's answer is not ${what}${at}: ${issue?.message ?? 'unexpected shape'}.`, {
    where: showUrl(url),
    hint: 'Check HF_ENDPOINT: it must point at the Hugging Face hub or a mirror of its API.',
  });
}

const UrlList = z.array(z.url());
const FullListing = z.record(z.string(), z.record(z.string(), UrlList));
/** configs → splits → parquet file URLs */
export type ParquetListing = z.infer<typeof FullListing>;

const enc = encodeURIComponent;
const datasetApi = (env: HubEnv, repo: string): string => `${env.endpoint}/api/datasets/${repo.split('/').map(enc).join('/')}/parquet`;

/** `GET /api/datasets/{repo}/parquet/{config}/{split}`: the split's parquet file URLs. */
export async function listSplit(env: HubEnv, repo: string, config: string, split: string): Promise<{ url: string; files: string[] }> {
  const url = `${datasetApi(env, repo)}/${enc(config)}/${enc(split)}`;
  return { url, files: checked(UrlList, await getJson(env, url), url, 'a list of parquet file URLs') };
}

/** `GET /api/datasets/{repo}/parquet`: every config and split with its parquet file URLs. */
export async function listAll(env: HubEnv, repo: string): Promise<{ url: string; listing: ParquetListing }> {
  const url = datasetApi(env, repo);
  return { url, listing: checked(FullListing, await getJson(env, url), url, 'a listing of configs, splits and parquet file URLs') };
}

/** A file's identity as the hub states it: X-Linked-Etag (the LFS sha256) or ETag; undefined when none. */
export async function fileEtag(env: HubEnv, url: string): Promise<string | undefined> {
  const signal = AbortSignal.timeout(API_TIMEOUT_MS);
  const { res, url: final } = await request(env, url, { method: 'HEAD', signal, stopAtOtherOrigin: true });
  await res.body?.cancel();
  if (res.status === 401 || res.status === 403 || res.status === 429 || res.status >= 500) await failOnStatus(res, final);
  // Any other refusal of a HEAD only costs the cache check: the GET that follows says what is wrong, if anything.
  if (res.status >= 400) return undefined;
  const raw = res.headers.get('x-linked-etag') ?? res.headers.get('etag');
  const etag = raw?.replace(/^W\//, '').replace(/^"|"$/g, '').trim();
  return etag || undefined;
}

/**
 * Streams a file to `dest` (which the caller renames into place once this returns), hashing it on the way.
 * A body shorter than its Content-Length, or one that stalls, is an error: the caller deletes `dest`.
 */
export async function download(env: HubEnv, url: string, dest: string): Promise<{ size: number; sha256: string }> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
  const touch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
  };
  const out = createWriteStream(dest, { flags: 'wx' });
  const closed = once(out, 'close');
  closed.catch(() => undefined); // awaited below; an early error must not be an unhandled rejection
  try {
    const { res, url: final } = await request(env, url, { method: 'GET', signal: controller.signal });
    await failOnStatus(res, final);
    if (!res.body) throw new HubUnreachable(final, 'empty answer');
    const expected = res.headers.get('content-length');
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        touch();
        hash.update(chunk);
        size += chunk.byteLength;
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } catch (err) {
      const fsErr = err as NodeJS.ErrnoException;
      if (fsErr.syscall !== undefined) {
        throw new TextstressError(`cannot write the hub cache (${fsErr.message}).`, {
          where: dest,
          hint: 'Free some disk space or point HF_HOME at another folder.',
        });
      }
      throw new HubUnreachable(final, `download interrupted after ${size} bytes: ${networkReason(err)}`);
    }
    if (expected !== null && res.headers.get('content-encoding') === null && Number(expected) !== size) {
      throw new HubUnreachable(final, `download interrupted: got ${size} of ${expected} bytes`);
    }
    out.end();
    await closed;
    return { size, sha256: hash.digest('hex') };
  } finally {
    clearTimeout(timer);
    if (!out.closed) {
      out.destroy();
      await closed.catch(() => undefined);
    }
  }
}
