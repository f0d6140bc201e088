/**
 * What an OpenAI-compatible endpoint answers (the chat-completions shape the adapter reads) and what its failures
 * mean for the adapter (adapter.ts): retry, or stop with which error.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { ModelError } from '../../util/errors.ts';
import { parseRetryAfter, seconds } from '../http-errors.ts';
import { BudgetError } from './meter.ts';

const TopLp = z.object({ token: z.string(), logprob: z.number() }).passthrough();
export const ChatShape = z
  .object({
    choices: z
      .array(
        z
          .object({
            message: z.object({ content: z.string().nullable().optional() }).passthrough(),
            logprobs: z
              .object({
                content: z
                  .array(TopLp.extend({ top_logprobs: z.array(TopLp).nullable().optional() }))
                  .nullable()
                  .optional(),
              })
              .passthrough()
              .nullable()
              .optional(),
          })
          .passthrough(),
      )
      .min(1),
    usage: z
      .object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();

export type Failure = { retry: true; why: string; retryAfterMs?: number; rateLimited: boolean } | { retry: false; error: unknown };

/** What classifyFailure needs of the adapter: its name in messages, its limits, whether the endpoint is silent. */
export interface FailureContext {
  /** "openai:<model> at <base URL>" */
  where: string;
  baseUrl: string;
  timeoutMs: number;
  /** The endpoint answered nothing for half a timeout: hung. */
  hung: () => boolean;
  /** Secrets removed, shortened. */
  redact: (text: string) => string;
}

/**
 * What a failed call means: retry (429, 408, 409, 5xx, connection errors, unreadable answers, and a timeout while
 * the endpoint answers other requests) or stop (a timeout when it has answered nothing for half of one: hung).
 */
export function classifyFailure(err: unknown, ctx: FailureContext): Failure {
  if (err instanceof BudgetError) return { retry: false, error: err };
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    if (ctx.hung()) {
      return {
        retry: false,
        error: new ModelError(
          `${ctx.where} gave no answer within ${seconds(ctx.timeoutMs)}, and answered no other ` +
            `request for the last ${seconds(ctx.timeoutMs / 2)} of it: the endpoint is hung, so nothing more is sent to it.`,
          {
            hint: 'Check the server; when it is only slow, raise --timeout. Rerun with --resume: every answer received is kept in the cache.',
          },
        ),
      };
    }
    return { retry: true, why: `no answer within ${seconds(ctx.timeoutMs)}`, rateLimited: false };
  }
  if (err instanceof OpenAI.APIConnectionError)
    return { retry: true, why: `a connection error (${ctx.redact(err.message)})`, rateLimited: false };
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    const status = err.status;
    const message = ctx.redact(err.message);
    if (status === 429 || status === 408 || status === 409 || status >= 500) {
      const ms = err.headers?.get('retry-after-ms');
      const retryAfterMs = ms && /^\d+(\.\d+)?$/.test(ms) ? Number(ms) : parseRetryAfter(err.headers?.get('retry-after') ?? null);
      return {
        retry: true,
        why: `HTTP ${status} (${message})`,
        rateLimited: status === 429,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    const hint =
      status === 401 || status === 403
        ? 'Check the API key in the --auth-env variable and that it may use this model.'
        : status === 404
          ? `Check the model name and --base-url (it should end in /v1); ${ctx.baseUrl}/models lists the models.`
          : 'The server refused the request; the message above says why.';
    return {
      retry: false,
      error: new ModelError(`${ctx.where} answered HTTP ${status}: ${message}`, {
        hint,
        inputSpecific: status === 400 || status === 422,
      }),
    };
  }
  // Anything else came from reading the answer (a body that is not JSON): a lying endpoint, retried.
  return {
    retry: true,
    why: `an unreadable answer (${ctx.redact(err instanceof Error ? err.message : String(err))})`,
    rateLimited: false,
  };
}
