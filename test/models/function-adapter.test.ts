import { describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { Limiter } from '../../src/models/limiter.ts';
import type { ModelInput, ModelOutput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { rejection } from './helpers.ts';

const tags = (inputs: ModelInput[]): ModelOutput[] =>
  inputs.map((i) =>
    i.kind === 'tokens'
      ? { kind: 'tags', tags: i.tokens.map(() => 'O'), scores: i.tokens.map(() => 1) }
      : { kind: 'tags', tags: [], scores: [] },
  );

describe('function adapter', () => {
  it('wraps sync and async functions, splitting into batches of maxBatchSize', async () => {
    const seen: number[] = [];
    const model = createFunctionModel(
      async (inputs) => {
        seen.push(inputs.length);
        return tags(inputs);
      },
      { id: 'ner', task: 'token-classification', labels: ['O'] },
      { maxBatchSize: 4 },
    );
    expect(model.info.id).toBe('ner');
    const inputs: ModelInput[] = Array.from({ length: 10 }, (_, i) => ({ kind: 'tokens', tokens: Array(i).fill('w') }));
    const out = await model.predict(inputs);
    expect(seen).toEqual([4, 4, 2]);
    expect(out.map((o) => (o as { tags: string[] }).tags.length)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(model.tokenize).toBeUndefined();

    const sync = createFunctionModel(tags, { id: 'sync', task: 'token-classification' }, { tokenize: (t) => [t] });
    expect(await sync.predict([{ kind: 'tokens', tokens: ['a'] }])).toEqual([{ kind: 'tags', tags: ['O'], scores: [1] }]);
    expect(await sync.tokenize!('x')).toEqual(['x']);
  });

  it('checks the answers: count, kind, one tag per word', async () => {
    const input: ModelInput[] = [
      { kind: 'tokens', tokens: ['a', 'b'] },
      { kind: 'tokens', tokens: ['c'] },
    ];
    const cases: [() => unknown, RegExp][] = [
      [() => [], /returned a malformed answer: outputs has 0 item\(s\) for 2 input\(s\)/],
      [() => 'nope', /outputs is string, not a list/],
      [() => tags(input).map(() => ({ kind: 'classes', labels: ['x'], probs: [1] })), /kind 'classes'.*'tags'/],
      [() => [{ kind: 'tags', tags: ['O'], scores: [1] }, ...tags(input).slice(1)], /outputs\[0\]\.tags has 1 tag\(s\) for 2 word\(s\)/],
    ];
    for (const [fn, re] of cases) {
      const model = createFunctionModel(fn as () => ModelOutput[], { id: 'bad', task: 'token-classification' });
      const err = await rejection(model.predict(input));
      expect(err).toBeInstanceOf(ModelError);
      expect(err.message).toContain('function:bad');
      expect(err.message).toMatch(re);
    }
  });

  it('turns a throwing function into a ModelError and rejects wrong input kinds', async () => {
    const model = createFunctionModel(
      () => {
        throw new Error('boom');
      },
      { id: 'function:thrower', task: 'text-classification' },
    );
    const err = await rejection(model.predict([{ kind: 'text', text: 'x' }]));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toBe('the model function function:thrower failed: boom');
    expect((err as ModelError).cause).toBeInstanceOf(Error);
    await expect(model.predict([{ kind: 'qa', question: 'q', context: 'c' }])).rejects.toThrow(/'qa' input/);
    expect(() => createFunctionModel(tags, { id: 'x', task: 'token-classification' }, { maxBatchSize: 0 })).toThrow(ModelError);
  });
});

describe('Limiter', () => {
  it('runs at most max tasks at once, in order', async () => {
    const lim = new Limiter(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        lim.run(async () => {
          active++;
          peak = Math.max(peak, active);
          order.push(i);
          await new Promise((r) => setTimeout(r, 5));
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(lim.running).toBe(0);
    await expect(lim.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(lim.running).toBe(0);
  });
});
