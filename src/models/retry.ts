/**
 * How the adapters of remote endpoints (HTTP, OpenAI-compatible) retry: the same options and the same backoff, each
 * adapter with defaults of its own (stated on its options type).
 */
import type { Rng } from '../util/rng.ts';

/** Concurrency, timeout and retry options of a remote endpoint's adapter. */
export interface RetryOptions {
  /** Requests in flight at once, over all predict() calls of the adapter. */
  concurrency?: number;
  /** Per request, including reading the answer, in ms. */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (timeout, network error, 5xx, 429 …). */
  retries?: number;
  /** First backoff in ms; doubles per attempt, with seeded jitter between half and all of it. */
  backoffMs?: number;
  /** Ceiling of one backoff, in ms. */
  maxBackoffMs?: number;
  /** Ceiling of a Retry-After wait, in ms. */
  maxRetryAfterMs?: number;
}

/** The backoff before attempt `attempt + 1`: backoffMs · 2^(attempt−1), capped, times a seeded jitter in [0.5, 1). */
export function backoffDelay(o: Required<Pick<RetryOptions, 'backoffMs' | 'maxBackoffMs'>>, attempt: number, rng: Rng): number {
  return Math.min(o.maxBackoffMs, o.backoffMs * 2 ** (attempt - 1)) * (0.5 + 0.5 * rng.next());
}
