/**
 * An OpenAI-compatible face for a local text classifier (`textstress serve --openai`), so that the LLM path runs
 * offline against a known model: GET /v1/models and POST /v1/chat/completions, answering with the label word, its
 * log-probabilities over the label set when asked (`logprobs`, `top_logprobs`) and `usage`.
 *
 * The text to classify is read from the last user message: inside <text>…</text> (or <text_a>…</text_a> and
 * <text_b>…</text_b> for a pair), as textstress's default prompt templates put it, else the whole message. The
 * served "vocabulary" is the label set: each label name is one token.
 *
 * GET /v1/stats answers {chat_requests, billed_answers}: the chat requests received and those answered with usage
 * (what a paying client is billed for), so that a client's own request counts can be checked against the server's.
 *
 * A fault plan (tests, demos) makes the server misbehave on a fixed schedule: 429 with retry-after, 500, slow
 * answers or a malformed JSON body, counted per chat request so that runs are repeatable.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ModelError } from '../util/errors.ts';
import type { ModelAdapter, ModelInput } from './types.ts';

export interface OpenAiFaults {
  /** Every n-th chat request is answered 429 with `retry-after: retryAfterSeconds`. */
  rateLimitEvery?: number;
  retryAfterSeconds?: number;
  /** Every n-th chat request is answered 500. */
  serverErrorEvery?: number;
  /** Every chat request after the n-th is answered 500: a server that went down. */
  downAfter?: number;
  /** Every n-th chat request gets a body that is not JSON. */
  malformedEvery?: number;
  /** Every n-th chat request is answered with prose that names no label ("I would rather not say."). */
  garbageEvery?: number;
  /** Added to every chat answer, in ms. */
  slowMs?: number;
}

export interface OpenAiOptions {
  /** The model id /v1/models lists and answers carry. */
  modelName: string;
  faults?: OpenAiFaults;
}

/** "429:3,500:5,malformed:7,slow:200,retry-after:2,down-after:100" → OpenAiFaults; throws a ModelError naming a bad part. */
export function parseFaults(spec: string): OpenAiFaults {
  const out: OpenAiFaults = {};
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, raw] = part.split(':').map((s) => s.trim());
    const n = Number(raw);
    if (!raw || !Number.isInteger(n) || n < 0)
      throw new ModelError(`bad fault "${part}": give name:number, e.g. 429:3 (every third request).`);
    if (key === '429') out.rateLimitEvery = n;
    else if (key === '500') out.serverErrorEvery = n;
    else if (key === 'malformed') out.malformedEvery = n;
    else if (key === 'garbage') out.garbageEvery = n;
    else if (key === 'slow') out.slowMs = n;
    else if (key === 'retry-after') out.retryAfterSeconds = n;
    else if (key === 'down-after') out.downAfter = n;
    else throw new ModelError(`unknown fault "${key}": choose from 429, 500, malformed, garbage, slow, retry-after, down-after.`);
  }
  return out;
}

const Content = z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough())]);
const ChatRequest = z
  .object({
    model: z.string(),
    messages: z.array(z.object({ role: z.string(), content: Content.nullable().optional() }).passthrough()).min(1),
    logprobs: z.boolean().optional(),
    top_logprobs: z.number().int().min(0).max(20).optional(),
  })
  .passthrough();

const textOf = (c: z.infer<typeof Content> | null | undefined): string =>
  c == null ? '' : typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('');

const tagged = (text: string, tag: string): string | undefined => {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m ? m[1]!.trim() : undefined;
};

/** The classifier input a prompt carries (see the module comment). */
export function inputFromPrompt(prompt: string): ModelInput {
  const a = tagged(prompt, 'text_a');
  const b = tagged(prompt, 'text_b');
  if (a !== undefined && b !== undefined) return { kind: 'pair', textA: a, textB: b };
  return { kind: 'text', text: tagged(prompt, 'text') ?? prompt.trim() };
}

/** What a route handler answers: a status, a JSON body (or raw text) and headers. */
export interface RouteAnswer {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** The /v1 routes for a classifier; `null` when the route is not one of them. */
export function openAiHandler(
  adapter: ModelAdapter,
  opts: OpenAiOptions,
): (method: string, route: string, body: () => Promise<unknown>) => Promise<RouteAnswer | null> {
  if (adapter.info.task !== 'text-classification') {
    throw new ModelError(`--openai serves text classifiers only; ${adapter.info.id} is a ${adapter.info.task} model.`);
  }
  let chats = 0;
  // Answers that carried usage: what a paying client was billed for (GET /v1/stats, so tests count server-side).
  let billed = 0;
  const f = opts.faults ?? {};
  const due = (every: number | undefined, n: number): boolean => !!every && n % every === 0;
  const countTokens = async (text: string): Promise<number> =>
    adapter.tokenize ? (await adapter.tokenize(text)).length : text.split(/\s+/).filter(Boolean).length;
  return async (method, route, body) => {
    if (route === '/v1/models') {
      if (method !== 'GET')
        return { status: 405, body: { error: { message: '/v1/models answers GET only', type: 'invalid_request_error' } } };
      return { status: 200, body: { object: 'list', data: [{ id: opts.modelName, object: 'model', created: 0, owned_by: 'textstress' }] } };
    }
    if (route === '/v1/stats') {
      if (method !== 'GET')
        return { status: 405, body: { error: { message: '/v1/stats answers GET only', type: 'invalid_request_error' } } };
      return { status: 200, body: { chat_requests: chats, billed_answers: billed } };
    }
    if (route !== '/v1/chat/completions') return null;
    if (method !== 'POST')
      return { status: 405, body: { error: { message: '/v1/chat/completions answers POST only', type: 'invalid_request_error' } } };
    const n = ++chats;
    const parsed = ChatRequest.safeParse(await body());
    if (!parsed.success) {
      return {
        status: 400,
        body: {
          error: {
            message: `bad request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
            type: 'invalid_request_error',
          },
        },
      };
    }
    if (due(f.rateLimitEvery, n)) {
      return {
        status: 429,
        headers: { 'retry-after': String(f.retryAfterSeconds ?? 1) },
        body: { error: { message: 'rate limit (fault plan)', type: 'rate_limit_error' } },
      };
    }
    if (due(f.serverErrorEvery, n) || (f.downAfter !== undefined && n > f.downAfter))
      return { status: 500, body: { error: { message: 'server error (fault plan)', type: 'server_error' } } };
    if (f.slowMs) await sleep(f.slowMs);
    if (due(f.malformedEvery, n)) return { status: 200, raw: '{"id": "chatcmpl-broken", "choices": [' };
    const req = parsed.data;
    const user = [...req.messages].reverse().find((m) => m.role === 'user');
    const prompt = textOf(user?.content);
    const [out] = await adapter.predict([inputFromPrompt(prompt)]);
    if (out?.kind !== 'classes') throw new ModelError(`${adapter.info.id} gave no class scores.`);
    const labels = out.labels;
    const best = out.probs.indexOf(Math.max(...out.probs));
    const label = labels[best] ?? String(best);
    const entry = (k: number) => ({
      token: labels[k] ?? String(k),
      logprob: Math.log(Math.max(out.probs[k]!, 1e-45)),
      bytes: [...Buffer.from(labels[k] ?? String(k))],
    });
    const top = Math.min(req.top_logprobs ?? 0, labels.length);
    const order = out.probs.map((_, k) => k).sort((a, b) => out.probs[b]! - out.probs[a]!);
    const promptTokens = await countTokens(req.messages.map((m) => textOf(m.content)).join('\n'));
    const answer = (content: string, logprobs: unknown, completionTokens: number): RouteAnswer => {
      billed++;
      return {
        status: 200,
        body: {
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: 0,
          model: opts.modelName,
          system_fingerprint: 'textstress',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: req.logprobs ? logprobs : null }],
          usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        },
      };
    };
    if (due(f.garbageEvery, n)) {
      const lp = { token: 'I', logprob: -0.01, bytes: [73] };
      return answer('I would rather not say.', { content: [{ ...lp, top_logprobs: [lp] }] }, 6);
    }
    return answer(label, { content: [{ ...entry(best), top_logprobs: order.slice(0, top).map(entry) }] }, 1);
  };
}
