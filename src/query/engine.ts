import { createHash } from 'node:crypto';
import { inputKey, type ModelAdapter, type ModelInput, type ModelOutput } from '../models/types.ts';
import { ModelError } from '../util/errors.ts';

/**
 * The one layer between attacks and a model adapter. It
 *  - caches answers (LRU) and de-duplicates identical queries that are in flight at the same time;
 *  - gathers the queries of every attack that is running concurrently into shared batches
 *    (cross-example batching): queries issued in the same turn of the event loop are flushed together,
 *    and while the model is busy the next batch keeps filling;
 *  - counts requests, cache hits and real model inferences.
 */
export interface QueryEngineOptions {
  /** Most distinct inputs handed to the adapter in one predict() call. */
  maxFlushSize?: number;
  /** Cached answers kept (LRU). */
  cacheSize?: number;
  /** predict() calls allowed at once (default: what the adapter declares as its `concurrency`, else 1). */
  maxConcurrentFlushes?: number;
}

export interface QueryEngineStats {
  requests: number;
  cacheHits: number;
  inferences: number;
  flushes: number;
}

interface Pending {
  input: ModelInput;
  resolve: (out: ModelOutput) => void;
  reject: (err: unknown) => void;
}

export class QueryEngine {
  readonly adapter: ModelAdapter;
  private readonly cache = new Map<string, ModelOutput>();
  private readonly inFlight = new Map<string, Promise<ModelOutput>>();
  private pending = new Map<string, Pending>();
  private scheduled = false;
  private activeFlushes = 0;
  private readonly maxFlushSize: number;
  private readonly cacheSize: number;
  private readonly maxConcurrentFlushes: number;
  readonly stats: QueryEngineStats = { requests: 0, cacheHits: 0, inferences: 0, flushes: 0 };

  constructor(adapter: ModelAdapter, opts: QueryEngineOptions = {}) {
    this.adapter = adapter;
    this.maxFlushSize = opts.maxFlushSize ?? 1024;
    this.cacheSize = opts.cacheSize ?? 200_000;
    this.maxConcurrentFlushes = opts.maxConcurrentFlushes ?? adapter.concurrency ?? 1;
  }

  /** Answers for the inputs, in order. Resolves once every one of them is answered. */
  query(inputs: readonly ModelInput[]): Promise<ModelOutput[]> {
    return Promise.all(inputs.map((input) => this.queryOne(input)));
  }

  /** A counting view for one example's attack; see QuerySession. */
  session(): QuerySession {
    return new QuerySession(this);
  }

  queryOne(input: ModelInput): Promise<ModelOutput> {
    this.stats.requests++;
    const key = queryKey(input);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.stats.cacheHits++;
      // Refresh LRU position.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const flying = this.inFlight.get(key);
    if (flying !== undefined) {
      this.stats.cacheHits++;
      return flying;
    }
    const promise = new Promise<ModelOutput>((resolve, reject) => {
      this.pending.set(key, { input, resolve, reject });
    });
    this.inFlight.set(key, promise);
    this.schedule();
    return promise;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after all promise continuations of this turn, so every attack that can
    // issue a query right now has done so before the batch is cut.
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.activeFlushes < this.maxConcurrentFlushes && this.pending.size > 0) {
      const batch = this.takeBatch();
      this.activeFlushes++;
      void this.flush(batch).finally(() => {
        this.activeFlushes--;
        if (this.pending.size > 0) this.schedule();
      });
    }
  }

  private takeBatch(): [string, Pending][] {
    const batch: [string, Pending][] = [];
    for (const entry of this.pending) {
      batch.push(entry);
      if (batch.length >= this.maxFlushSize) break;
    }
    for (const [key] of batch) this.pending.delete(key);
    // Similar lengths side by side: the adapter's padded sub-batches waste less compute.
    batch.sort((a, b) => a[0].length - b[0].length);
    return batch;
  }

  private async flush(batch: [string, Pending][]): Promise<void> {
    this.stats.flushes++;
    await this.answer(batch);
  }

  /**
   * Sends a batch; when it fails, splits it in halves and retries each, so that only the inputs that really
   * fail are rejected (with their own error) and every other query of the batch is answered. An error that
   * says the whole model is unusable (`affectsAll`, e.g. nothing listening, or only timeouts) is not bisected:
   * the rest of the batch fails with the first error seen (the more telling one), and the model-wide error is
   * returned so the caller stops splitting too.
   */
  private async answer(batch: [string, Pending][], first?: unknown): Promise<unknown> {
    this.stats.inferences += batch.length;
    let outputs: ModelOutput[];
    try {
      outputs = await this.adapter.predict(batch.map(([, p]) => p.input));
      if (outputs.length !== batch.length) {
        throw new Error(`model adapter returned ${outputs.length} outputs for ${batch.length} inputs`);
      }
    } catch (err) {
      const fatal = affectsAll(err);
      if (batch.length > 1 && !fatal) {
        const half = Math.ceil(batch.length / 2);
        const dead = await this.answer(batch.slice(0, half), first ?? err);
        if (dead !== undefined) {
          this.reject(batch.slice(half), dead);
          return dead;
        }
        return this.answer(batch.slice(half), first ?? err);
      }
      const reason = fatal && first !== undefined ? first : err;
      this.reject(batch, reason);
      return fatal ? reason : undefined;
    }
    batch.forEach(([key, p], i) => {
      const out = outputs[i]!;
      this.remember(key, out);
      this.inFlight.delete(key);
      p.resolve(out);
    });
    return undefined;
  }

  private reject(batch: [string, Pending][], err: unknown): void {
    for (const [key, p] of batch) {
      this.inFlight.delete(key);
      p.reject(err);
    }
  }

  private remember(key: string, out: ModelOutput): void {
    if (this.cacheSize <= 0) return;
    this.cache.set(key, out);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}

/**
 * Per-example accounting that does not depend on what other examples ran at the same time, so the
 * numbers are identical in a resumed and an uninterrupted run: `queries` = distinct inputs this attack
 * asked for, `cacheHits` = its requests for inputs it had already asked for (served by the cache).
 */
export class QuerySession {
  private readonly seen = new Set<string>();
  requests = 0;
  queries = 0;
  cacheHits = 0;

  constructor(private readonly engine: QueryEngine) {}

  query(inputs: readonly ModelInput[]): Promise<ModelOutput[]> {
    for (const input of inputs) {
      this.requests++;
      const key = queryKey(input);
      if (this.seen.has(key)) this.cacheHits++;
      else {
        this.seen.add(key);
        this.queries++;
      }
    }
    return this.engine.query(inputs);
  }
}

/** An error that no smaller batch would avoid (the model or endpoint as a whole is unusable). */
function affectsAll(err: unknown): boolean {
  return err instanceof ModelError && err.affectsAll;
}

/**
 * The cache key of an input: the input itself when short, its SHA-1 when long (a 100,000-character text would
 * otherwise be kept once per map and set that tracks it).
 */
export function queryKey(input: ModelInput): string {
  const key = inputKey(input);
  return key.length <= 1024 ? key : `#${createHash('sha1').update(key).digest('base64')}`;
}
