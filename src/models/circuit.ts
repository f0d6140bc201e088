/**
 * A remote adapter's circuit breaker and its sense of whether the endpoint is alive.
 *
 * Once one request fails for good for a reason that is not its own input's (the endpoint down, hung or refusing
 * every request, after the retries), the circuit opens: no request of the adapter starts again — a retry waiting
 * out its backoff included — and each fails at once with that first error. Requests already in flight finish, and
 * their answers are kept (the query engine caches them). Without it every example still running went on sending
 * batches, each waiting out its own timeouts and retries (issue 35: a frozen server drew 712 more requests).
 *
 * A request that times out is retried only when the endpoint answered something (any request, any status) in the last
 * half of its wait: a server that has answered nothing for that long is hung (frozen, deadlocked), and a retry would
 * only wait again — and be billed again once the server wakes, for an answer the first attempt also gets. (Half, not
 * all: requests sent just before a server froze saw its last answers arrive after they were sent.)
 */
import { setTimeout as sleep } from 'node:timers/promises';

export class Circuit {
  private failure: { error: unknown } | undefined;
  private readonly aborter = new AbortController();
  /** When the endpoint last answered anything (performance.now()); -Infinity before its first answer. */
  private lastHeard = -Infinity;

  /** The error that opened the circuit; undefined while it is closed. */
  get error(): unknown {
    return this.failure?.error;
  }

  get open(): boolean {
    return this.failure !== undefined;
  }

  /** Opens the circuit with `error` (the first error stays): wakes every request waiting out a backoff. */
  trip(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    this.aborter.abort();
  }

  /** Waits `ms`, or less when the circuit opens meanwhile. */
  async wait(ms: number): Promise<void> {
    if (this.open) return;
    await sleep(ms, undefined, { signal: this.aborter.signal }).catch(() => undefined);
  }

  /** The endpoint answered (a result or an HTTP error status): it is alive. */
  heard(): void {
    this.lastHeard = performance.now();
  }

  /** Whether the endpoint answered nothing at all in the last `ms` milliseconds. */
  silentFor(ms: number): boolean {
    return performance.now() - this.lastHeard > ms;
  }
}
