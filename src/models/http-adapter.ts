/**
 * A model behind an HTTP endpoint that speaks the textstress model API (docs/http-model-api.md):
 *   GET  {url}/info     → {task, labels?, id?, tokenize?, maxBatchSize?}
 *   POST {url}/predict  {inputs: ModelInput[]} → {outputs: ModelOutput[]}
 *   POST {url}/tokenize {texts: string[]} → {tokens: string[][]}   (only when /info says tokenize: true)
 *
 * Large predict() calls are split into batches of `batchSize`, sent with at most `concurrency` requests in
 * flight. Timeouts, network errors, 5xx and 429 are retried with exponential backoff (seeded jitter, so runs
 * are reproducible); other 4xx fail at once. Every failure is a ModelError naming the URL and the status,
 * and never containing the Authorization value.
 */
import { STATUS_CODES } from 'node:http';
import { ModelError } from '../util/errors.ts';
import { Rng } from '../util/rng.ts';
import { Circuit } from './circuit.ts';
import { answering, batchOutputsOrPartial } from './failure.ts';
import { errorCode, innermostMessage, parseRetryAfter, seconds } from './http-errors.ts';
import { Limiter } from './limiter.ts';
import { backoffDelay, type RetryOptions } from './retry.ts';
import {
  checkInputKind,
  checkLabelSet,
  checkOutputs,
  describeZodError,
  InfoResponseSchema,
  PredictResponseSchema,
  TokenizeResponseSchema,
} from './schema.ts';
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput, ModelTask } from './types.ts';

/**
 * Options of {@link createHttpModel}. Retry defaults: concurrency 4, timeoutMs 30 000, retries 4 (after a timeout,
 * network error, 5xx or 429: 5 attempts), backoffMs 200, maxBackoffMs 10 000, maxRetryAfterMs 60 000.
 */
export interface HttpModelOptions extends RetryOptions {
  /** The task; when left out it is read from GET {url}/info. */
  task?: ModelTask;
  /** Label names, when the task is given and /info is not asked. */
  labels?: string[];
  /** Inputs per POST /predict (default 32). */
  batchSize?: number;
  /** Name of an environment variable whose value is sent as the Authorization header (e.g. "Bearer abc"). */
  authEnv?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Seed of the backoff jitter (default 0). */
  seed?: number | string;
}

export { parseRetryAfter };

/** A model behind an HTTP endpoint (docs/http-model-api.md): its URL and the batch size it sends. */
export interface HttpModelAdapter extends ModelAdapter {
  readonly info: ModelInfo;
  readonly url: string;
  readonly maxBatchSize: number;
}

const SNIPPET = 300;

type Attempt =
  | { ok: true; value: unknown }
  | { ok: false; fatal: ModelError }
  | { ok: false; fatal?: undefined; describe: string; refused: boolean; retryAfterMs?: number; serverText?: string; hung?: true };

class HttpModel implements HttpModelAdapter {
  info: ModelInfo;
  readonly url: string;
  readonly maxBatchSize: number;
  readonly concurrency: number;
  tokenize?: (text: string) => Promise<string[]>;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];
  private readonly limiter: Limiter;
  /** Opens on the first failure for good that is not an input's own: no request starts after it (see circuit.ts). */
  private readonly circuit = new Circuit();
  private readonly rng: Rng;

  constructor(
    url: string,
    private readonly opts: Required<
      Pick<HttpModelOptions, 'batchSize' | 'concurrency' | 'timeoutMs' | 'retries' | 'backoffMs' | 'maxBackoffMs' | 'maxRetryAfterMs'>
    > &
      HttpModelOptions,
    headers: Record<string, string>,
    secrets: string[],
  ) {
    this.url = url;
    this.headers = headers;
    this.secrets = secrets;
    this.limiter = new Limiter(opts.concurrency);
    this.rng = new Rng(`http-backoff\u0001${opts.seed ?? 0}`);
    this.maxBatchSize = opts.batchSize * opts.concurrency;
    this.concurrency = opts.concurrency;
    this.info = { id: url, task: opts.task ?? 'text-classification', ...(opts.labels ? { labels: opts.labels } : {}) };
  }

  /** What decides an answer besides the input, for the persistent query cache: endpoint, task and labels. */
  get cacheIdentity(): string {
    return JSON.stringify({ adapter: 'http', url: this.url, task: this.info.task, labels: this.info.labels ?? [] });
  }

  /** Server text fit for an error message: the {error} field if any, one line, short, secrets removed. */
  private clean(text: string): string {
    let t = text;
    try {
      const j = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
      const field = j.error ?? j.message ?? j.detail;
      if (typeof field === 'string') t = field;
    } catch {
      // not JSON: keep the raw text
    }
    t = t.replace(/\s+/g, ' ').trim();
    for (const s of this.secrets) if (s.length >= 3) t = t.split(s).join('[redacted]');
    return t.length > SNIPPET ? `${t.slice(0, SNIPPET)}…` : t;
  }

  private backoff(attempt: number): number {
    return backoffDelay(this.opts, attempt, this.rng);
  }

  private async once(method: 'GET' | 'POST', url: string, body: string | undefined): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.opts.timeoutMs);
    try {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method,
          headers: this.headers,
          ...(body === undefined ? {} : { body }),
          signal: controller.signal,
        });
        text = await res.text();
      } catch (err) {
        if (controller.signal.aborted) {
          // Nothing at all answered for half the wait: the endpoint is hung, and a retry would only wait (and be billed) again.
          const hung = this.circuit.silentFor(this.opts.timeoutMs / 2);
          if (hung)
            return {
              ok: false,
              describe: `timed out after ${seconds(this.opts.timeoutMs)}, no request answered for ${seconds(this.opts.timeoutMs / 2)}`,
              refused: false,
              hung,
            };
          return { ok: false, describe: `timed out after ${seconds(this.opts.timeoutMs)}`, refused: false };
        }
        const code = errorCode(err);
        if (code === 'ECONNREFUSED') return { ok: false, describe: 'connection refused', refused: true };
        if (code === 'ENOTFOUND') {
          return {
            ok: false,
            fatal: new ModelError(`cannot reach ${url}: the host ${new URL(url).hostname} is unknown (DNS lookup failed).`, {
              hint: 'Check the model URL.',
            }),
          };
        }
        const detail = innermostMessage(err);
        if (/bad port/i.test(detail)) {
          return {
            ok: false,
            fatal: new ModelError(`cannot reach ${url}: fetch refuses to connect to port ${new URL(url).port} (a port browsers block).`, {
              hint: 'Serve the model on another port, e.g. 8080.',
            }),
          };
        }
        const why = code ? `${code}${detail && !detail.includes(code) ? `: ${this.clean(detail)}` : ''}` : this.clean(detail);
        return { ok: false, describe: `network error (${why})`, refused: false };
      }
      this.circuit.heard();
      const status = `${res.status} ${res.statusText || STATUS_CODES[res.status] || ''}`.trim();
      if (res.ok) {
        try {
          return { ok: true, value: JSON.parse(text) as unknown };
        } catch {
          return {
            ok: false,
            fatal: new ModelError(
              `the endpoint ${url} answered ${status}, but its body is not JSON: "${this.clean(text).slice(0, 120)}".`,
              {
                hint: 'The model API is described in docs/http-model-api.md.',
              },
            ),
          };
        }
      }
      const serverText = this.clean(text);
      // 429 and 503 (e.g. `textstress serve` at its cap) may say when to come back.
      if (res.status === 429 || res.status === 503) {
        const ra = parseRetryAfter(res.headers.get('retry-after'));
        return {
          ok: false,
          describe: status,
          refused: false,
          serverText,
          ...(ra === undefined ? {} : { retryAfterMs: Math.min(ra, this.opts.maxRetryAfterMs) }),
        };
      }
      if (res.status >= 500 || res.status === 408) return { ok: false, describe: status, refused: false, serverText };
      let hint: string | undefined;
      if (res.status === 401 || res.status === 403) {
        hint = this.opts.authEnv
          ? `Check the token in the environment variable ${this.opts.authEnv}.`
          : 'The endpoint wants credentials: put the Authorization value in an environment variable and name it with authEnv (--auth-env).';
      } else if (res.status === 404 || res.status === 405) {
        hint = `Is ${this.url} a textstress model endpoint? It must answer GET /info and POST /predict (docs/http-model-api.md).`;
      } else if (res.status === 413) {
        hint = `Lower the batch size (now ${this.opts.batchSize}).`;
      }
      const said = serverText ? `: "${serverText}"` : '';
      // A 400, 413 or 422 may be one input's fault (or the batch's size): the engine splits the batch to find it.
      // Credentials, routes, content types and the rest are wrong for every input.
      const inputSpecific = [400, 413, 422].includes(res.status);
      const refused = `the endpoint ${url} refused the request with ${status}${said}.`;
      return { ok: false, fatal: new ModelError(refused, { ...(hint ? { hint } : {}), inputSpecific }) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One API call with retries; resolves to the parsed JSON body. A failure for good not an input's own opens the circuit. */
  async call(method: 'GET' | 'POST', route: string, payload?: unknown): Promise<unknown> {
    try {
      return await this.attempts(method, route, payload);
    } catch (err) {
      if (!(err instanceof ModelError && err.inputSpecific)) this.circuit.trip(err);
      throw err;
    }
  }

  private async attempts(method: 'GET' | 'POST', route: string, payload?: unknown): Promise<unknown> {
    const url = `${this.url}${route}`;
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const failures: string[] = [];
    let refusedOnly = true;
    let hung = false;
    let lastServerText = '';
    let attempts = this.opts.retries + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      // The circuit opened (another request failed for good) while this one waited: it is not sent.
      if (this.circuit.open) throw this.circuit.error;
      const r = await this.once(method, url, body);
      if (r.ok) return r.value;
      if (r.fatal) throw r.fatal;
      failures.push(r.describe);
      refusedOnly &&= r.refused;
      if (r.serverText) lastServerText = r.serverText;
      if (r.hung) {
        hung = true;
        attempts = attempt;
      } else if (attempt < attempts) await this.circuit.wait(r.retryAfterMs ?? this.backoff(attempt));
    }
    const n = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    if (refusedOnly) {
      const u = new URL(this.url);
      const port = u.port || (u.protocol === 'https:' ? '443' : '80');
      throw new ModelError(`nothing is listening at ${u.origin} (connection refused, ${n}).`, {
        hint: `Start the model server first, e.g. \`textstress serve --model <folder> --port ${port}\`, or check the URL.`,
      });
    }
    const steps = failures.filter((f, i) => i === 0 || f !== failures[i - 1]);
    const last = lastServerText ? `; the server last said: "${lastServerText}"` : '';
    // Not input-specific: timeouts and network errors mean the endpoint is down or hung, and a 5xx that lasts
    // through every retry is the server's; smaller batches would only repeat it (review #1).
    const stopped = hung ? ': it is hung, so nothing more is sent to it' : '';
    throw new ModelError(`the endpoint ${url} did not answer: ${steps.join(', then ')} (${n})${last}${stopped}.`, {
      hint: hung
        ? 'Check the server (its log, its health); when it is only slow, raise --timeout. Rerun with --resume: finished examples are kept.'
        : 'The whole batch failed, not one input: check the server (its log, its health).',
    });
  }

  async fetchInfo(): Promise<void> {
    const raw = await this.call('GET', '/info');
    const parsed = InfoResponseSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ModelError(`the endpoint ${this.url}/info answered with a malformed response: ${describeZodError(parsed.error, 'info')}.`, {
        hint:
          'GET /info must answer {"task": "text-classification" | "token-classification" | "question-answering", ' +
          '"labels"?: [...]} (docs/http-model-api.md).',
      });
    }
    const info = parsed.data;
    checkLabelSet(info.labels, `GET ${this.url}/info`);
    if (this.opts.task && info.task !== this.opts.task) {
      throw new ModelError(`the endpoint ${this.url} serves a ${info.task} model, but the task ${this.opts.task} was asked for.`);
    }
    this.info = { id: this.url, task: info.task, ...(info.labels ? { labels: info.labels } : {}) };
    if (info.tokenize) this.tokenize = (text) => this.remoteTokenize(text);
  }

  private async remoteTokenize(text: string): Promise<string[]> {
    const raw = await this.call('POST', '/tokenize', { texts: [text] });
    const parsed = TokenizeResponseSchema.safeParse(raw);
    if (!parsed.success || parsed.data.tokens.length !== 1) {
      const why = parsed.success ? `tokens has ${parsed.data.tokens.length} lists for 1 text` : describeZodError(parsed.error, 'response');
      throw new ModelError(`the endpoint ${this.url}/tokenize answered with a malformed response: ${why}.`);
    }
    return parsed.data.tokens[0]!;
  }

  async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
    inputs.forEach((input, i) => {
      const problem = checkInputKind(this.info.task, input, i);
      if (problem) throw new ModelError(`${this.url}: ${problem}.`);
    });
    const size = this.opts.batchSize;
    const batches: ModelInput[][] = [];
    for (let i = 0; i < inputs.length; i += size) batches.push(inputs.slice(i, i + size));
    // Each request on its own: a failed one leaves the others' answers kept (the circuit stops those not yet sent).
    const settled = await Promise.allSettled(
      batches.map((batch) => this.limiter.run(async () => this.checkBatch(await this.call('POST', '/predict', { inputs: batch }), batch))),
    );
    return batchOutputsOrPartial(batches, settled);
  }

  private checkBatch(raw: unknown, batch: ModelInput[]): ModelOutput[] {
    const fail = (why: string, modelWide: boolean, index?: number) =>
      new ModelError(`the endpoint ${this.url}/predict answered with a malformed response: ${why}${answering(batch, index)}.`, {
        hint:
          'POST /predict must answer {"outputs": [...]} with one output per input, in order, of the model\'s labels, with ' +
          'probabilities in [0, 1] that sum to 1 (docs/http-model-api.md).',
        inputSpecific: !modelWide && index !== undefined,
      });
    const parsed = PredictResponseSchema.safeParse(raw);
    if (!parsed.success) throw fail(describeZodError(parsed.error, 'response'), true);
    const checked = checkOutputs(this.info.task, batch, parsed.data.outputs, this.info.labels);
    if (!checked.ok) throw fail(checked.problem, checked.modelWide, checked.index);
    return checked.outputs;
  }
}

function positiveInt(name: string, v: number, min = 1): number {
  if (!Number.isInteger(v) || v < min) throw new ModelError(`the HTTP model option ${name} must be an integer ≥ ${min}, got ${v}.`);
  return v;
}

/**
 * Connects to a model endpoint. Without `task`, GET {url}/info is asked first (and its failure reported);
 * with `task`, nothing is sent until the first predict().
 */
export async function createHttpModel(url: string, opts: HttpModelOptions = {}): Promise<HttpModelAdapter> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ModelError(`"${url}" is not a valid URL.`, { hint: 'Give the endpoint as http://host:port or https://host/path.' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ModelError(`the model URL ${url} must start with http:// or https://.`);
  }
  if (u.username || u.password) {
    throw new ModelError(`the model URL ${u.protocol}//${u.host}${u.pathname} carries credentials, which fetch does not allow.`, {
      hint: 'Put the Authorization header value in an environment variable and pass its name as authEnv (--auth-env).',
    });
  }
  if (u.search || u.hash) {
    // Routes are appended to the path, so a query would be dropped; and a key in the URL ends up in reports.
    throw new ModelError(`the model URL ${u.origin}${u.pathname} carries a query string or fragment, which textstress does not send on.`, {
      hint: 'Give the endpoint without "?…"; send an API key as a header from an environment variable with --auth-env.',
    });
  }
  const base = `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  checkLabelSet(opts.labels, `the HTTP model ${base} (the labels option)`);

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...opts.headers };
  const secrets = Object.entries(opts.headers ?? {})
    .filter(([k]) => /auth|token|key|secret|cookie/i.test(k))
    .map(([, v]) => v);
  if (opts.authEnv) {
    const value = process.env[opts.authEnv];
    if (!value) {
      throw new ModelError(`the environment variable ${opts.authEnv}, named for the Authorization header, is not set or is empty.`, {
        hint: `Set it to the header value, e.g. export ${opts.authEnv}="Bearer <token>".`,
      });
    }
    headers.authorization = value;
    secrets.push(value, value.replace(/^\S+\s+/, ''));
  }

  const model = new HttpModel(
    base,
    {
      ...opts,
      batchSize: positiveInt('batchSize', opts.batchSize ?? 32),
      concurrency: positiveInt('concurrency', opts.concurrency ?? 4),
      timeoutMs: positiveInt('timeoutMs', opts.timeoutMs ?? 30_000),
      retries: positiveInt('retries', opts.retries ?? 4, 0),
      backoffMs: positiveInt('backoffMs', opts.backoffMs ?? 200, 0),
      maxBackoffMs: positiveInt('maxBackoffMs', opts.maxBackoffMs ?? 10_000, 0),
      maxRetryAfterMs: positiveInt('maxRetryAfterMs', opts.maxRetryAfterMs ?? 60_000, 0),
    },
    headers,
    secrets,
  );
  if (!opts.task) await model.fetchInfo();
  return model;
}
