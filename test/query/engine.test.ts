import { describe, expect, it } from 'vitest';
import type { ModelAdapter, ModelInput, ModelOutput } from '../../src/models/types.ts';
import { QueryEngine, queryKey } from '../../src/query/engine.ts';

/** A recording adapter: answers P(positive) = share of words that are "good". */
function recordingModel(): { model: ModelAdapter; batches: number[] } {
  const batches: number[] = [];
  const model: ModelAdapter = {
    info: { id: 'test', task: 'text-classification', labels: ['negative', 'positive'] },
    async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
      batches.push(inputs.length);
      await new Promise((r) => setTimeout(r, 5));
      return inputs.map((input) => {
        const words = input.kind === 'text' ? input.text.split(' ') : [];
        const p = words.filter((w) => w === 'good').length / Math.max(1, words.length);
        return { kind: 'classes', labels: ['negative', 'positive'], probs: [1 - p, p] };
      });
    },
  };
  return { model, batches };
}

const t = (text: string): ModelInput => ({ kind: 'text', text });

describe('QueryEngine', () => {
  it('gathers queries from concurrent callers into one batch', async () => {
    const { model, batches } = recordingModel();
    const engine = new QueryEngine(model);
    const answers = await Promise.all([
      engine.query([t('good film'), t('bad film')]),
      engine.query([t('good good')]),
      engine.query([t('a b c')]),
    ]);
    expect(batches).toEqual([4]);
    expect(answers[1]![0]).toEqual({ kind: 'classes', labels: ['negative', 'positive'], probs: [0, 1] });
    expect(engine.stats).toMatchObject({ requests: 4, cacheHits: 0, inferences: 4, flushes: 1 });
  });

  it('caches answers and de-duplicates queries in flight', async () => {
    const { model, batches } = recordingModel();
    const engine = new QueryEngine(model);
    await Promise.all([engine.query([t('x'), t('x')]), engine.query([t('x')])]);
    await engine.query([t('x'), t('y')]);
    expect(batches).toEqual([1, 1]);
    expect(engine.stats).toMatchObject({ requests: 5, cacheHits: 3, inferences: 2 });
  });

  it('keeps filling the next batch while the model is busy', async () => {
    const { model, batches } = recordingModel();
    const engine = new QueryEngine(model);
    const first = engine.query([t('a')]);
    await new Promise((r) => setImmediate(r));
    const later = Promise.all([engine.query([t('b')]), engine.query([t('c')])]);
    await Promise.all([first, later]);
    expect(batches).toEqual([1, 2]);
  });

  it('splits at maxFlushSize and evicts least recently used answers beyond its byte budget', async () => {
    const probe = new QueryEngine(recordingModel().model);
    await probe.query([t('a')]);
    const one = probe.cacheUse.bytes;
    const { model, batches } = recordingModel();
    const engine = new QueryEngine(model, { maxFlushSize: 2, cacheBytes: 2 * one });
    await engine.query([t('a'), t('b'), t('c')]);
    expect(batches).toEqual([2, 1]);
    expect(engine.cacheUse).toEqual({ entries: 2, bytes: 2 * one });
    await engine.query([t('a')]); // evicted: asked again
    expect(engine.stats.inferences).toBe(4);
  });

  it("cuts batches of similar lengths from what is queued, the oldest query's run first, the same at any concurrency", async () => {
    // Queued in this order; lengths 7, 1, 5, 2, 6, 3, 4.
    const queue = ['aaaaaaa', 'b', 'ccccc', 'dd', 'eeeeee', 'fff', 'gggg'];
    for (const maxConcurrentFlushes of [1, 3]) {
      const sent: string[][] = [];
      const model: ModelAdapter = {
        info: { id: 'lengths', task: 'text-classification', labels: ['short', 'long'] },
        async predict(inputs) {
          sent.push(inputs.map((i) => (i.kind === 'text' ? i.text : '')));
          await new Promise((r) => setTimeout(r, 5));
          return inputs.map((i) => ({
            kind: 'classes',
            labels: ['short', 'long'],
            probs: i.kind === 'text' && i.text.length > 3 ? [0, 1] : [1, 0],
          }));
        },
      };
      const engine = new QueryEngine(model, { maxFlushSize: 3, maxConcurrentFlushes });
      const answers = await engine.query(queue.map(t));
      // Sorted: b dd fff | gggg ccccc eeeeee aaaaaaa. The oldest ("aaaaaaa") is in the last run, taken full.
      expect(sent, `concurrency ${maxConcurrentFlushes}`).toEqual([['ccccc', 'eeeeee', 'aaaaaaa'], ['b', 'dd', 'fff'], ['gggg']]);
      // Every caller still gets its own answers in its own order.
      expect(answers.map((a) => (a.kind === 'classes' ? a.probs[1] : -1))).toEqual([1, 0, 1, 0, 1, 0, 1]);
    }
  });

  it('keeps its memory within the byte budget whatever the inputs, long ones keyed by hash', async () => {
    const { model } = recordingModel();
    const engine = new QueryEngine(model, { cacheBytes: 1_000_000 });
    const long = 'x'.repeat(100_000);
    await engine.query(Array.from({ length: 50 }, (_, i) => t(`${i} ${long}`)));
    // A 100,000-character text costs a hash key, not 200 KB: all 50 fit in 1 MB.
    expect(engine.cacheUse.entries).toBe(50);
    expect(engine.cacheUse.bytes).toBeLessThan(50 * 1000);
    await engine.query(Array.from({ length: 20_000 }, (_, i) => t(`short input ${i}`)));
    expect(engine.cacheUse.bytes).toBeLessThanOrEqual(1_000_000);
    expect(engine.cacheUse.entries).toBeLessThan(20_050);
    expect(queryKey(t(long))).toMatch(/^#[A-Za-z0-9+/=]{27,28}$/);
    expect(queryKey(t('short'))).toBe('t\u0000short');
  });

  it('rejects every waiting query when the model fails, and stops asking it: a run-wide circuit', async () => {
    let calls = 0;
    const model: ModelAdapter = {
      info: { id: 'flaky', task: 'text-classification' },
      async predict(inputs) {
        calls++;
        if (inputs.some((i) => i.kind === 'text' && i.text === 'b')) throw new Error('boom');
        return inputs.map(() => ({ kind: 'classes', labels: ['a'], probs: [1] }));
      },
    };
    const engine = new QueryEngine(model);
    await expect(engine.query([t('a')])).resolves.toHaveLength(1);
    await expect(Promise.all([engine.query([t('b')]), engine.query([t('c')])])).rejects.toThrow('boom');
    expect(String(engine.failure)).toBe('Error: boom');
    // Answered from the cache still; anything else fails at once, with the same error, and nothing is sent.
    await expect(engine.query([t('a')])).resolves.toHaveLength(1);
    await expect(engine.query([t('d')])).rejects.toThrow('boom');
    expect(calls).toBe(2);
  });

  it('sessions count their own distinct queries and repeats, whatever others ask', async () => {
    const { model } = recordingModel();
    const engine = new QueryEngine(model);
    const s1 = engine.session();
    const s2 = engine.session();
    await Promise.all([s1.query([t('a'), t('b'), t('a')]), s2.query([t('a')])]);
    await s1.query([t('b'), t('c')]);
    expect({ q: s1.queries, r: s1.requests, h: s1.cacheHits }).toEqual({ q: 3, r: 5, h: 2 });
    expect({ q: s2.queries, r: s2.requests, h: s2.cacheHits }).toEqual({ q: 1, r: 1, h: 0 });
  });
});
