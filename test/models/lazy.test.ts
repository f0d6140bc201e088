/**
 * A run that reads a model's inner layers (the encoder probes) opens its own session: the run's model is described
 * from config.json and opened only if asked for predictions, so the process holds one copy of the weights.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyModel } from '../../src/models/lazy.ts';
import { loadTransformersModel, localModelInfo } from '../../src/models/transformers/load.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { openModelToInspect } from '../../src/runner/open.ts';
import { ModelError } from '../../src/util/errors.ts';
import { ROOT, SEQ, TOK } from './helpers.ts';

describe('lazyModel', () => {
  it('opens on the first predict() or tokenize(), once, and closes only what it opened', async () => {
    let opened = 0;
    let closed = 0;
    const inner: ModelAdapter = {
      info: { id: 'm', task: 'text-classification', labels: ['a', 'b'] },
      predict: async (inputs) => inputs.map(() => ({ kind: 'classes' as const, labels: ['a', 'b'], probs: [0.25, 0.75] })),
      tokenize: async (text) => text.split(' '),
      close: async () => void closed++,
    };
    const open = async (): Promise<ModelAdapter> => {
      opened++;
      return inner;
    };
    const idle = lazyModel(inner.info, open);
    await idle.close?.();
    expect([idle.opened, opened, closed]).toEqual([false, 0, 0]);

    const used = lazyModel(inner.info, open);
    expect(used.info).toBe(inner.info);
    const [a, b] = await Promise.all([used.predict([{ kind: 'text', text: 'x' }]), used.tokenize!('a b')]);
    expect(a).toEqual([{ kind: 'classes', labels: ['a', 'b'], probs: [0.25, 0.75] }]);
    expect(b).toEqual(['a', 'b']);
    await used.close?.();
    expect([used.opened, opened, closed]).toEqual([true, 1, 1]);
  });
});

describe('openModelToInspect', () => {
  it("a local folder: the same info as the loaded model's, nothing loaded until asked", async () => {
    for (const dir of [SEQ, TOK]) {
      const lazy = (await openModelToInspect({ model: dir })) as ModelAdapter & { opened?: boolean };
      const loaded = await loadTransformersModel(dir);
      expect(lazy.info).toEqual(loaded.info);
      expect(lazy.opened).toBe(false);
      const text = { kind: 'text' as const, text: 'the movie was good' };
      if (loaded.info.task === 'text-classification') expect(await lazy.predict([text])).toEqual(await loaded.predict([text]));
      await Promise.all([lazy.close?.(), loaded.close()]);
    }
  });

  it('a folder that cannot be loaded fails as loading it would, before anything runs', async () => {
    const missing = path.join(ROOT, 'test/fixtures/models/no-such-model');
    await expect(openModelToInspect({ model: missing })).rejects.toThrow(ModelError);
    expect(() => localModelInfo(path.join(ROOT, 'test/fixtures/models/tiny-bert-seq-dtypes'))).toThrow(/has no onnx\/model\.onnx/);
    expect(localModelInfo('Xenova/bert-base-uncased')).toBeUndefined();
  });
});
