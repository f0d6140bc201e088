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
  /** Most memory the cached answers may take, in bytes (estimated; LRU beyond). Default 32 MB; 0 turns the cache off. */
  cacheBytes?: number;
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
  private readonly cacheBytes: number;
  private cachedBytes = 0;
  private readonly maxConcurrentFlushes: number;
  readonly stats: QueryEngineStats = { requests: 0, cacheHits: 0, inferences: 0, flushes: 0 };

  constructor(adapter: ModelAdapter, opts: QueryEngineOptions = {}) {
    this.adapter = adapter;
    this.maxFlushSize = opts.maxFlushSize ?? 1024;
    this.cacheBytes = opts.cacheBytes ?? 32 * 1024 * 1024;
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
    const size = entryBytes(key, out);
    if (size > this.cacheBytes) return;
    const prev = this.cache.get(key);
    if (prev !== undefined) this.cachedBytes -= entryBytes(key, prev);
    this.cache.set(key, out);
    this.cachedBytes += size;
    while (this.cachedBytes > this.cacheBytes) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cachedBytes -= entryBytes(oldest, this.cache.get(oldest)!);
      this.cache.delete(oldest);
    }
  }

  /** Answers cached now, and the memory they are estimated to take. */
  get cacheUse(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cachedBytes };
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

/** A cache entry's memory, estimated generously (two bytes a character, eight a number, plus object overhead). */
function entryBytes(key: string, out: ModelOutput): number {
  const chars = (xs: readonly string[]): number => xs.reduce((n, x) => n + 2 * x.length + 24, 0);
  let size = 2 * key.length + 96;
  switch (out.kind) {
    case 'classes':
      return size + chars(out.labels) + 8 * out.probs.length + 64;
    case 'tags':
      return size + chars(out.tags) + 8 * out.scores.length + 64;
    case 'spans':
      for (const s of out.spans) size += 2 * s.text.length + 96;
      return size + 32;
  }
}
