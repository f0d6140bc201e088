/** A queue worker's models (src/queue/model-pool.ts): runs on the same model and options share one; others do not. */
import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from '../../src/models/types.ts';
import type { ModelSpec } from '../../src/options/shared.ts';
import { modelKey, modelPool } from '../../src/queue/model-pool.ts';

describe('modelPool', () => {
  it('opens a model once per spec and options, retries a failed open, closes each model once', async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const pool = modelPool(async (spec: ModelSpec) => {
      opened.push(modelKey(spec));
      if (spec.model === 'broken') throw new Error('no such model');
      const model: ModelAdapter = {
        info: { id: spec.model, task: 'text-classification' },
        predict: async () => [],
        close: async () => void closed.push(spec.model),
      };
      return { model, opened: opened.length };
    });
    const [a, b] = await Promise.all([pool.get({ model: 'm', dtype: 'q8' }), pool.get({ model: 'm', dtype: 'q8' })]);
    expect(a).toBe(b);
    const c = await pool.get({ model: 'm', dtype: 'fp16' });
    const d = await pool.get({ model: 'm' });
    expect(new Set([a.opened, c.opened, d.opened]).size).toBe(3);
    await expect(pool.get({ model: 'broken' })).rejects.toThrow(/no such model/);
    await expect(pool.get({ model: 'broken' })).rejects.toThrow(/no such model/);
    expect(opened).toHaveLength(5);
    expect(pool.size).toBe(3);
    await pool.close();
    expect(closed).toEqual(['m', 'm', 'm']);
    expect(pool.size).toBe(0);
  });

  it('keys by every model option, so a run with other load options gets its own model', () => {
    expect(modelKey({ model: 'm', threads: 1 })).not.toBe(modelKey({ model: 'm', threads: 2 }));
    expect(modelKey({ model: 'm', defence: 'r.json' })).not.toBe(modelKey({ model: 'm' }));
    expect(modelKey({ model: 'm' })).toBe(modelKey({ model: 'm', threads: undefined }));
  });
});
