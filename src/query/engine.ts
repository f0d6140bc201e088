import { PartialBatchError } from '../models/failure.ts';
import { inputChars, type ModelAdapter, type ModelInput, type ModelOutput } from '../models/types.ts';
import { ModelError } from '../util/errors.ts';
import type { DiskCache } from './disk-cache.ts';
import { entryBytes, queryKey } from './key.ts';

export { queryKey };
import { QuerySession } from './session.ts';
export { QueryBudgetError, QuerySession } from './session.ts';

/**
 * The one layer between attacks and a model adapter. It
 *  - caches answers (LRU) and de-duplicates identical queries that are in flight at the same time;
 *  - gathers the queries of every attack that is running concurrently into shared batches
 *    (cross-example batching): queries issued in the same turn of the event loop are flushed together,
 *    and while the model is busy the next batch keeps filling;
 *  - with a persistent cache (DiskCache) and an adapter that declares a cache identity, answers from disk
 *    before asking the model, and stores every answer it gets (never an error);
 *  - counts requests, cache hits and real model inferences.
 */
export interface QueryEngineOptions {
  /** Most distinct inputs handed to the adapter in one predict() call. */
  maxFlushSize?: number;
  /** Most memory the cached answers may take, in bytes (estimated; LRU beyond). Default 32 MB; 0 turns the cache off. */
  cacheBytes?: number;
  /** predict() calls allowed at once (default: what the adapter declares as its `concurrency`, else 1). */
  maxConcurrentFlushes?: number;
  /** The persistent cache, used when the adapter declares a `cacheIdentity`. */
  diskCache?: DiskCache;
}

/** An engine's counters: inputs asked for, answered from the cache, actually run by the model, and batches sent. */
export interface QueryEngineStats {
  requests: number;
  cacheHits: number;
  /** Of the cache hits, those answered from the persistent cache. */
  diskHits: number;
  inferences: number;
  flushes: number;
}

/** The engine's counters at one moment, and a metered adapter's spending then. */
export interface EngineSnapshot extends QueryEngineStats {
  spent?: { requests: number; input: number; output: number; cost: number | null; retries: number; rateLimited: number };
}

interface Pending {
  input: ModelInput;
  /** Characters in the input, for sorting batches by length. */
  size: number;
  resolve: (out: ModelOutput) => void;
  reject: (err: unknown) => void;
}

type Entry = [key: string, pending: Pending];

/** Queries of a batch that were not answered, and why. */
interface Failed {
  piece: Entry[];
  error: unknown;
}

/** Sits between attacks and one model adapter: caches, de-duplicates, batches across examples and counts (see above). */
export class QueryEngine {
  readonly adapter: ModelAdapter;
  private readonly cache = new Map<string, ModelOutput>();
  private readonly inFlight = new Map<string, Promise<ModelOutput>>();
  private readonly pending = new Map<string, Pending>();
  private scheduled = false;
  private activeFlushes = 0;
  private readonly maxFlushSize: number;
  private readonly cacheBytes: number;
  private cachedBytes = 0;
  private readonly maxConcurrentFlushes: number;
  readonly stats: QueryEngineStats = { requests: 0, cacheHits: 0, diskHits: 0, inferences: 0, flushes: 0 };
  private readonly disk: { cache: DiskCache; scope: string } | undefined;
  /** Why the engine stopped asking the model: the first failure that was not an input's own (see `failure`). */
  private stop: { error: unknown } | undefined;

  constructor(adapter: ModelAdapter, opts: QueryEngineOptions = {}) {
    this.adapter = adapter;
    this.maxFlushSize = opts.maxFlushSize ?? 1024;
    this.cacheBytes = opts.cacheBytes ?? 32 * 1024 * 1024;
    this.maxConcurrentFlushes = opts.maxConcurrentFlushes ?? adapter.concurrency ?? 1;
    if (opts.diskCache && adapter.cacheIdentity !== undefined)
      this.disk = { cache: opts.diskCache, scope: opts.diskCache.scope(adapter.cacheIdentity) };
  }

  /** The counters now, with what a metered adapter has spent so far (requests, tokens, dollars, retries). */
  snapshot(): EngineSnapshot {
    const m = this.adapter.meter;
    return {
      ...this.stats,
      ...(m
        ? {
            spent: {
              requests: m.requests,
              input: m.tokens.input,
              output: m.tokens.output,
              cost: m.cost,
              retries: m.retries ?? 0,
              rateLimited: m.rateLimited ?? 0,
            },
          }
        : {}),
    };
  }

  /** Resolves once every answer stored in the persistent cache so far is on disk. */
  async flushed(): Promise<void> {
    await this.disk?.cache.flushed();
  }

  /**
   * The failure that stopped this engine, if one did: the first that was not an input's own (an endpoint down or
   * hung after the adapter's retries, credentials refused, a spending limit). From then on it is a run-wide circuit
   * breaker: no new predict() call starts, queued queries and every later one the caches cannot answer fail with that
   * error at once, and the answers of calls already in flight are still cached and counted. Open a new engine to
   * ask the model again.
   */
  get failure(): unknown {
    return this.stop?.error;
  }

  /** Whether answers are kept in (and read from) a persistent cache. */
  get persistent(): boolean {
    return this.disk !== undefined;
  }

  /** Answers for the inputs, in order. Resolves once every one of them is answered. */
  query(inputs: readonly ModelInput[]): Promise<ModelOutput[]> {
    return Promise.all(inputs.map((input) => this.queryOne(input)));
  }

  /** A counting view for one example's attack; see QuerySession. */
  session(maxQueries?: number): QuerySession {
    return new QuerySession(this, maxQueries);
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
    if (this.disk) {
      const stored = this.disk.cache.get(this.disk.cache.key(this.disk.scope, key));
      if (stored !== undefined) {
        this.stats.cacheHits++;
        this.stats.diskHits++;
        this.remember(key, stored);
        return Promise.resolve(stored);
      }
    }
    if (this.stop) return Promise.reject(this.stop.error);
    const promise = new Promise<ModelOutput>((resolve, reject) => {
      this.pending.set(key, { input, size: inputChars(input), resolve, reject });
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
    while (!this.stop && this.activeFlushes < this.maxConcurrentFlushes && this.pending.size > 0) {
      const batch = this.takeBatch();
      this.activeFlushes++;
      void this.flush(batch).finally(() => {
        this.activeFlushes--;
        if (this.pending.size > 0) this.schedule();
      });
    }
  }

  /**
   * The next batch: the queue sorted by input length (stable: equal lengths keep their queue order) and cut into
   * runs of maxFlushSize (the last run ends at the queue's end, so that it is full too), and of those the run
   * that holds the oldest query. Similar lengths side by side waste less padding in the adapter's sub-batches
   * (review #30); taking the oldest query's run means a long input is never left behind by a stream of short
   * ones. The cut depends only on what is queued, so it is the same at any concurrency for the same queue.
   */
  private takeBatch(): Entry[] {
    const queued = [...this.pending];
    const oldest = queued[0]![0];
    queued.sort((a, b) => a[1].size - b[1].size);
    const at = queued.findIndex(([key]) => key === oldest);
    const start = Math.min(at - (at % this.maxFlushSize), Math.max(0, queued.length - this.maxFlushSize));
    const batch = queued.slice(start, start + this.maxFlushSize);
    for (const [key] of batch) this.pending.delete(key);
    return batch;
  }

  /**
   * Sends a batch. When it fails with an error that may be particular inputs' (`inputSpecific`: an HTTP 400, a
   * malformed output for one input), the batch is split to find them, so that every other query is answered;
   * any other error (endpoint down, 5xx or timeouts after the adapter's retries, credentials, a wrong answer
   * shape) fails the whole batch at once — smaller batches would only repeat it (review #1) — and stops the engine.
   */
  private async flush(batch: Entry[]): Promise<void> {
    this.stats.flushes++;
    const failed = await this.attempt(batch);
    if (failed === undefined) return;
    if (!inputSpecific(failed.error)) this.halt(failed.error);
    if (failed.piece.length === 1 || !inputSpecific(failed.error)) this.reject(failed.piece, failed.error);
    else await this.isolate(failed);
  }

  /**
   * Stops the engine (see `failure`): the queued queries fail with the error, no further predict() call starts.
   * Calls in flight go on, and what they answer is cached.
   */
  private halt(error: unknown): void {
    if (this.stop) return;
    this.stop = { error };
    const queued = [...this.pending];
    this.pending.clear();
    this.reject(queued, error);
  }

  /**
   * One predict() call: answers every query of the batch, or answers none and returns the error, or (a
   * PartialBatchError) answers those that came and returns the others — failed one by one when the adapter says
   * which input each error belongs to (`exact`), else as the piece still to answer.
   */
  private async attempt(batch: Entry[]): Promise<Failed | undefined> {
    if (this.stop) return { piece: batch, error: this.stop.error };
    let outputs: ModelOutput[];
    try {
      outputs = await this.adapter.predict(batch.map(([, p]) => p.input));
      if (outputs.length !== batch.length) {
        throw new ModelError(`the model ${this.adapter.info.id} returned ${outputs.length} outputs for ${batch.length} inputs.`, {
          hint: 'A model adapter must answer one output per input, in order.',
        });
      }
    } catch (error) {
      if (!(error instanceof PartialBatchError) || error.outputs.length !== batch.length) return { piece: batch, error };
      // Some inputs were answered (and paid for): keep those.
      const left: Entry[] = [];
      let first: unknown;
      batch.forEach((entry, i) => {
        const out = error.outputs[i];
        if (out !== undefined) return this.answer(entry, out);
        const own = error.errors[i] ?? error;
        if (!inputSpecific(own)) this.halt(own);
        if (error.exact) this.reject([entry], own);
        else {
          left.push(entry);
          first ??= own;
        }
      });
      return left.length ? { piece: left, error: first } : undefined;
    }
    for (const [i, entry] of batch.entries()) this.answer(entry, outputs[i]!);
    return undefined;
  }

  /** Answers one query: cached in memory and on disk the moment it is known, and counted as computed. */
  private answer([key, p]: Entry, out: ModelOutput): void {
    this.stats.inferences++;
    this.remember(key, out);
    if (this.disk && out.standIn === undefined) this.disk.cache.put(this.disk.cache.key(this.disk.scope, key), out);
    this.inFlight.delete(key);
    p.resolve(out);
  }

  /**
   * Finds the inputs at fault in a batch that failed with an input-specific error, by halving failing pieces
   * (breadth first), with at most 2·⌈log2 n⌉ further predict() calls: what isolating one bad input among n
   * takes. A piece still failing when they are spent fails whole, with its own error (several bad inputs may
   * so take some good ones with them); an error that is not input-specific ends the search, stops the engine and
   * fails every piece not yet answered with it.
   */
  private async isolate(first: Failed): Promise<void> {
    let calls = 2 * Math.ceil(Math.log2(first.piece.length));
    const failing: Failed[] = [first];
    for (let next = failing.shift(); next !== undefined; next = failing.shift()) {
      const { piece, error } = next;
      if (piece.length === 1 || calls < 2) {
        this.reject(piece, error);
        continue;
      }
      calls -= 2;
      const half = Math.ceil(piece.length / 2);
      const failed = await this.attemptPieces([piece.slice(0, half), piece.slice(half)]);
      const systemic = failed.find((f) => !inputSpecific(f.error));
      if (systemic) {
        this.halt(systemic.error);
        for (const f of [...failed, ...failing]) this.reject(f.piece, systemic.error);
        return;
      }
      failing.push(...failed);
    }
  }

  /**
   * Tries the pieces, at once when the adapter takes calls in parallel; returns what was not answered. One at a
   * time, an error that is not input-specific stops it: the pieces not yet tried fail with that error.
   */
  private async attemptPieces(pieces: Entry[][]): Promise<Failed[]> {
    if ((this.adapter.concurrency ?? 1) > 1) {
      const failed = await Promise.all(pieces.map((p) => this.attempt(p)));
      return failed.filter((f): f is Failed => f !== undefined);
    }
    const failed: Failed[] = [];
    for (const [i, piece] of pieces.entries()) {
      const f = await this.attempt(piece);
      if (!f) continue;
      failed.push(f);
      if (!inputSpecific(f.error)) {
        failed.push(...pieces.slice(i + 1).map((p) => ({ piece: p, error: f.error })));
        break;
      }
    }
    return failed;
  }

  private reject(batch: Entry[], err: unknown): void {
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

/** An error that particular inputs of the batch may have caused, so that a smaller batch may avoid it. */
function inputSpecific(err: unknown): boolean {
  return err instanceof ModelError && err.inputSpecific;
}
