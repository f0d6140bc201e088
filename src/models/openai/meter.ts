/**
 * What a metered endpoint costs: requests, tokens from each answer's `usage`, and money at the user's prices.
 *
 * The stopping rule of a spending limit (--max-cost): a request is sent only if what was spent, plus the worst-case
 * cost of every request in flight, plus its own worst-case cost stays within the limit (prompt tokens estimated from
 * its bytes at the highest tokens-per-byte seen so far, plus max_tokens of output), so concurrent requests can never
 * together pass it. The first request refused stops the meter for good: no request starts after it (a retry
 * included), the ones in flight finish and are counted, and the error is built once they have (settled()), so its
 * request count is what the server answered. A reservation is replaced by the real cost when the answer comes.
 */
import { ModelError } from '../../util/errors.ts';
import type { Prices, TokenUsage, UsageMeter } from '../types.ts';

export type { Prices };

/** The run would spend past --max-cost: no request was sent for it. Not retried; the run stops, resumable. */
export class BudgetError extends ModelError {
  constructor(message: string) {
    super(message, {
      hint:
        'Finished examples are kept and every answer paid for is in the query cache: rerun with --resume and a higher ' +
        '--max-cost to continue without paying twice.',
    });
    this.name = 'BudgetError';
  }
}

export function costOf(usage: TokenUsage, prices: Prices | undefined): number | null {
  if (!prices) return null;
  return (usage.input * prices.input + usage.output * prices.output) / 1e6;
}

function dollars(x: number): string {
  return `$${x < 0.01 ? x.toPrecision(3) : x.toFixed(4)}`;
}

export class CostMeter implements UsageMeter {
  requests = 0;
  readonly tokens: TokenUsage = { input: 0, output: 0 };
  retries = 0;
  rateLimited = 0;
  lowestConcurrency?: number;
  private reserved = 0;
  /** Requests holding a reservation (sent, not yet answered or failed). */
  private inFlight = 0;
  private readonly idle: (() => void)[] = [];
  /** The worst-case cost of the first request refused; set, the meter is stopped. */
  private refused: number | undefined;
  /** Highest prompt tokens per UTF-8 byte seen; starts at a conservative 0.5 (most tokenizers: ~0.25). */
  private tokensPerByte = 0.5;

  constructor(
    readonly prices?: Prices,
    readonly maxCost?: number,
  ) {}

  get cost(): number | null {
    return costOf(this.tokens, this.prices);
  }

  /**
   * Reserves the worst-case cost of a request of `promptBytes` bytes answering at most `maxOutput` tokens;
   * throws BudgetError (sending nothing) when that could take the spending past the limit.
   */
  reserve(promptBytes: number, maxOutput: number): number {
    if (this.maxCost === undefined || !this.prices) {
      this.inFlight++;
      return 0;
    }
    const worst = costOf({ input: Math.ceil(promptBytes * this.tokensPerByte), output: maxOutput }, this.prices)!;
    if (this.refused === undefined && (this.cost ?? 0) + this.reserved + worst > this.maxCost) this.refused = worst;
    if (this.refused !== undefined) throw this.budgetError();
    this.reserved += worst;
    this.inFlight++;
    return worst;
  }

  /** Whether the spending limit stopped the meter (no request is sent any more). */
  get stopped(): boolean {
    return this.refused !== undefined;
  }

  /** Resolves once no request is in flight: with the meter stopped, the counts are then final. */
  settled(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /** The stop, with the counts as they are now (final once settled()). */
  budgetError(): BudgetError {
    const spent = this.cost ?? 0;
    const flying = this.inFlight ? `, ${this.inFlight} more in flight` : '';
    return new BudgetError(
      `stopped before --max-cost ${dollars(this.maxCost ?? 0)}: ${dollars(spent)} spent on ${this.requests} answered ` +
        `request${this.requests === 1 ? '' : 's'}${flying}; the next request could cost up to ${dollars(this.refused ?? 0)}, ` +
        'so no further request was sent.',
    );
  }

  /** Frees a reservation (the request failed) without counting anything. */
  release(reservation: number): void {
    this.reserved = Math.max(0, this.reserved - reservation);
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /** Counts an answered request: frees its reservation and adds its real usage. */
  record(reservation: number, usage: TokenUsage, promptBytes: number): void {
    this.requests++;
    this.tokens.input += usage.input;
    this.tokens.output += usage.output;
    if (promptBytes > 0) this.tokensPerByte = Math.max(this.tokensPerByte, usage.input / promptBytes);
    this.release(reservation);
  }
}

/**
 * Concurrency that adapts to pushback (AIMD, as TCP): at most `current` calls in flight, `current` halves on a
 * rate-limit answer (once per round: calls that started before the cut do not cut again) and grows by one after
 * `current` answers in a row without one, up to `max`.
 */
export class AdaptiveLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  current: number;
  /** Lowest `current` reached. */
  lowest: number;
  private streak = 0;
  private epoch = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a concurrency cap must be a positive integer, got ${max}`);
    this.current = max;
    this.lowest = max;
  }

  async run<T>(task: (signal: { epoch: number }) => Promise<T>): Promise<T> {
    // A woken task finds its slot already counted by drain(), so the queue stays first in, first out.
    if (this.active >= this.current) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task({ epoch: this.epoch });
    } finally {
      this.active--;
      this.drain();
    }
  }

  private drain(): void {
    while (this.waiting.length && this.active < this.current) {
      this.active++;
      this.waiting.shift()!();
    }
  }

  /** The server pushed back (429) on a call started in `epoch`. */
  pushback(epoch: number): void {
    this.streak = 0;
    if (epoch !== this.epoch) return;
    this.epoch++;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.lowest = Math.min(this.lowest, this.current);
  }

  /** A call was answered without pushback. */
  success(): void {
    if (++this.streak < this.current || this.current >= this.max) return;
    this.streak = 0;
    this.current++;
    this.drain();
  }
}
