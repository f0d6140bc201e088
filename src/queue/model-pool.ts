/**
 * The models a queue worker holds, by what opens them (the model spec and every model option): runs on the same
 * model share one, so a worker that serves several runs holds one copy of a model's weights, not one per run (a
 * BERT-base model is 0.8 GB resident), and what is computed once per model (its fingerprint hashes the whole model
 * folder) is computed once. Each run keeps its own query engine.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelAdapter } from '../models/types.ts';
import { optionsOf } from '../options/derive.ts';
import type { ModelSpec } from '../options/shared.ts';

/** A pooled model (and whatever was derived from it when it opened). */
export interface Pooled {
  model: ModelAdapter;
}

export interface ModelPool<P extends Pooled> {
  /** The model for this spec, opened on first ask; a failed open is forgotten (the next ask tries again). */
  get(spec: ModelSpec): Promise<P>;
  /** Closes every model opened (each waits at most `waitMs` for its open to finish). */
  close(waitMs?: number): Promise<void>;
  readonly size: number;
}

/** The key of a model spec: the spec and every model option, in table order. */
export function modelKey(spec: ModelSpec): string {
  return JSON.stringify(optionsOf('model').map((o) => [o.key, (spec as Record<string, unknown>)[o.key] ?? null]));
}

export function modelPool<P extends Pooled>(open: (spec: ModelSpec) => Promise<P>): ModelPool<P> {
  const pool = new Map<string, Promise<P>>();
  return {
    get(spec) {
      const key = modelKey(spec);
      let entry = pool.get(key);
      if (!entry) {
        entry = open(spec);
        pool.set(key, entry);
        entry.catch(() => pool.delete(key));
      }
      return entry;
    },
    async close(waitMs = 1000) {
      for (const entry of pool.values()) {
        const p = await Promise.race([entry.catch(() => undefined), sleep(waitMs, undefined, { ref: false })]);
        await p?.model.close?.();
      }
      pool.clear();
    },
    get size() {
      return pool.size;
    },
  };
}
