/**
 * Runs an async job over a stream of items with at most `concurrency` jobs in flight and hands the outcomes
 * back in input order. A new job starts whenever any running one finishes, so one slow item does not stall the
 * others; finished outcomes wait in a bounded reorder buffer until every earlier item is done. When the buffer
 * is full (the head item is very slow), no new job starts until the head finishes: memory stays bounded.
 */
export type Outcome<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

export interface PoolOptions {
  /** Jobs in flight at once (≥ 1). */
  concurrency: number;
  /** Most items started but not yet handed back, finished or not (≥ concurrency). Default 4 × concurrency. */
  window?: number;
  /**
   * Stop starting jobs once one fails (the ones in flight still finish and are handed back). Default true:
   * a failing model usually fails every item.
   */
  stopOnError?: boolean;
}

/**
 * Runs `job` over `items` with at most `opts.concurrency` jobs in flight and yields the outcomes in input order,
 * buffering at most `opts.window` items. Failures are yielded as `ok: false` outcomes; an error thrown by the item
 * source itself is rethrown at the end.
 */
export async function* orderedPool<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  job: (item: T) => Promise<R>,
  opts: PoolOptions,
): AsyncGenerator<Outcome<T, R>> {
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const window = Math.max(concurrency, opts.window ?? 4 * concurrency);
  const stopOnError = opts.stopOnError ?? true;
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  const done = new Map<number, Outcome<T, R>>();
  let started = 0;
  let emitted = 0;
  let running = 0;
  let exhausted = false;
  let failed = false;
  let sourceError: { error: unknown } | undefined;
  // Every settle bumps `settles` and wakes the loop; a settle that happened while the loop was busy (e.g.
  // suspended in a yield) is seen by comparing counts, so the loop never sleeps past ready work.
  let settles = 0;
  let wake: (() => void) | undefined;

  const start = (item: T, index: number): void => {
    running++;
    job(item)
      .then(
        (value) => done.set(index, { item, ok: true, value }),
        (error: unknown) => {
          failed = true;
          done.set(index, { item, ok: false, error });
        },
      )
      .finally(() => {
        running--;
        settles++;
        const w = wake;
        wake = undefined;
        w?.();
      });
  };

  for (;;) {
    const seen = settles;
    // Start as many jobs as the limits allow.
    while (!exhausted && !(failed && stopOnError) && running < concurrency && started - emitted < window) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (err) {
        // A bad row in the data: finish what is running, hand it back, then raise the data error.
        sourceError = { error: err };
        exhausted = true;
        break;
      }
      if (next.done) {
        exhausted = true;
        break;
      }
      start(next.value, started++);
    }
    // Hand back everything that is ready, in order.
    while (done.has(emitted)) {
      const outcome = done.get(emitted)!;
      done.delete(emitted);
      emitted++;
      yield outcome;
    }
    // With nothing running every started item has settled, so the loop above has handed them all back.
    if (running === 0 && (exhausted || (failed && stopOnError))) {
      if (sourceError) throw sourceError.error;
      return;
    }
    if (running > 0 && settles === seen) await new Promise<void>((resolve) => (wake = resolve));
  }
}
