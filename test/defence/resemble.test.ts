import { describe, expect, it } from 'vitest';
import { resembleCombine } from '../../src/defence/eq2.ts';
import { openAnnotator } from '../../src/defence/open.ts';
import { resembleModel } from '../../src/defence/resemble.ts';
import { openModel } from '../../src/runner/open.ts';
import { gazetteerAnnotator } from '../../src/entities/annotate.ts';
import { loadDictionaries } from '../../src/entities/dictionaries.ts';
import type { Mention, MentionAnnotator } from '../../src/entities/types.ts';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import type { ClassOutput, ModelInput, ModelOutput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';

/** A classifier by name: texts with "Alice" lean negative, "Zed" positive, others a fixed [0.6, 0.4]. */
function probsOf(text: string): number[] {
  if (text.includes('Alice')) return [0.2, 0.8];
  if (text.includes('Zed')) return [0.9, 0.1];
  if (text.includes('Bob')) return [0.5, 0.5];
  return [0.6, 0.4];
}

function fakeModel(): { model: ReturnType<typeof createFunctionModel>; calls: ModelInput[][] } {
  const calls: ModelInput[][] = [];
  const model = createFunctionModel(
    (inputs) => {
      calls.push(inputs);
      return inputs.map((i): ModelOutput => ({
        kind: 'classes',
        labels: ['neg', 'pos'],
        probs: probsOf(i.kind === 'text' ? i.text : i.kind === 'pair' ? `${i.textA} ${i.textB}` : ''),
      }));
    },
    { id: 'fake', task: 'text-classification', labels: ['neg', 'pos'] },
  );
  return { model, calls };
}

/** Finds "Tom" as a PER mention with confidence 0.8 in every text field. */
const tomAnnotator: MentionAnnotator = {
  name: 'tom',
  async annotate(examples) {
    return examples.map((ex) => {
      const fields = ex.kind === 'pair' ? (['textA', 'textB'] as const) : (['text'] as const);
      return fields.flatMap((field): Mention[] => {
        const text = (ex as unknown as Record<string, string>)[field]!;
        const at = text.indexOf('Tom');
        return at < 0
          ? []
          : [
              {
                type: 'PER',
                field,
                start: at,
                end: at + 3,
                text: 'Tom',
                confidence: 0.8,
                parts: [{ role: 'first', start: at, end: at + 3, text: 'Tom' }],
              },
            ];
      });
    });
  },
};

describe('resembleModel', () => {
  it('mixes the original and canonical predictions by Eq. (2), in one inner batch per call', async () => {
    const { model, calls } = fakeModel();
    const defended = resembleModel(model, { type: 'PER', canonical: ['Alice', 'Bob', 'Zed'], temperature: 2 }, tomAnnotator);
    const [a, b] = (await defended.predict([
      { kind: 'text', text: 'Tom was great.' },
      { kind: 'text', text: 'A fine film.' },
    ])) as ClassOutput[];
    // Tom → Alice [0.2, 0.8], Bob [0.5, 0.5], Zed [0.9, 0.1]; original [0.6, 0.4]; c = 0.8, T = 2: the M = 3 hand value (eq2.test.ts).
    expect(a!.probs[0]).toBeCloseTo(0.5601432, 6);
    expect(a!.probs).toEqual(
      resembleCombine(
        [0.6, 0.4],
        [
          [0.2, 0.8],
          [0.5, 0.5],
          [0.9, 0.1],
        ],
        0.8,
        2,
      ),
    );
    // No mention: the model's own answer, unchanged.
    expect(b!.probs).toEqual([0.6, 0.4]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.map((i) => (i.kind === 'text' ? i.text : ''))).toEqual(
      expect.arrayContaining(['Tom was great.', 'A fine film.', 'Alice was great.', 'Bob was great.', 'Zed was great.']),
    );
    expect(calls[0]).toHaveLength(5);
    expect(defended.stats).toMatchObject({
      inputs: 2,
      withMentions: 1,
      canonicalInputs: 3,
      inner: { requests: 5, inferences: 5, cacheHits: 0, flushes: 1 },
    });
  });

  it('answers repeated canonical inputs from the cache', async () => {
    const { model, calls } = fakeModel();
    const defended = resembleModel(model, { type: 'PER', canonical: ['Alice'], temperature: 2 }, tomAnnotator);
    await defended.predict([{ kind: 'text', text: 'Tom was great.' }]);
    // "Tom was great." and "Tom was great." again, plus a new text whose canonical input is new.
    const [again] = (await defended.predict([{ kind: 'text', text: 'Tom was great.' }])) as ClassOutput[];
    expect(calls).toHaveLength(1);
    expect(again!.probs).toEqual(resembleCombine([0.6, 0.4], [[0.2, 0.8]], 0.8, 2));
    expect(defended.stats.inner).toMatchObject({ requests: 4, cacheHits: 2, inferences: 2 });
  });

  it('replaces mentions in both texts of a pair, with the product of their confidences', async () => {
    const { model, calls } = fakeModel();
    const defended = resembleModel(model, { type: 'PER', canonical: ['Bob'], temperature: 2 }, tomAnnotator);
    const [out] = (await defended.predict([{ kind: 'pair', textA: 'Tom sang.', textB: 'Did Tom sing?' }])) as ClassOutput[];
    expect(calls[0]).toContainEqual({ kind: 'pair', textA: 'Bob sang.', textB: 'Did Bob sing?' });
    expect(out!.probs).toEqual(resembleCombine([0.6, 0.4], [[0.5, 0.5]], 0.8 * 0.8, 2));
  });

  it('passes texts without a name through unchanged with the gazetteer annotator', async () => {
    const { model } = fakeModel();
    const defended = resembleModel(
      model,
      { type: 'PER', canonical: ['Alice Walker'], temperature: 2 },
      gazetteerAnnotator(await loadDictionaries()),
    );
    const [plain, named] = (await defended.predict([
      { kind: 'text', text: 'a quiet , lovely film .' },
      { kind: 'text', text: 'Robert De Niro is wonderful here .' },
    ])) as ClassOutput[];
    expect(plain!.probs).toEqual([0.6, 0.4]);
    expect(named!.probs).not.toEqual([0.6, 0.4]);
    expect(defended.stats.withMentions).toBe(1);
  });

  it('is a model the query engine can batch across examples', async () => {
    const { model, calls } = fakeModel();
    const engine = new QueryEngine(resembleModel(model, { type: 'PER', canonical: ['Zed'], temperature: 2 }, tomAnnotator));
    const outs = await Promise.all([engine.query([{ kind: 'text', text: 'Tom a.' }]), engine.query([{ kind: 'text', text: 'Tom b.' }])]);
    expect(outs).toHaveLength(2);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(4);
  });

  it('refuses NER and QA models', () => {
    const ner = createFunctionModel((i) => i.map(() => ({ kind: 'tags', tags: [], scores: [] })), {
      id: 'ner',
      task: 'token-classification',
    });
    expect(() => resembleModel(ner, { type: 'PER', canonical: ['Zed'], temperature: 2 }, tomAnnotator)).toThrow(
      /text classifiers only.*not token-classification/,
    );
  });

  it('takes its mentions and confidences from a token-classification model (demo-ner)', async () => {
    const open = (spec: string): ReturnType<typeof openModel> => openModel({ model: spec });
    const { annotator, close } = await openAnnotator({ kind: 'model', model: 'demo-ner' }, open);
    try {
      const text = 'Tom Hanks was great in this film .';
      const [found] = await annotator.annotate([{ kind: 'text', id: 'x', text, label: '' }]);
      expect(found!.map((m) => [m.type, m.text])).toEqual([['PER', 'Tom Hanks']]);
      const c = found![0]!.confidence;
      expect(c).toBeGreaterThan(0.5);
      const { model, calls } = fakeModel();
      const [out] = (await resembleModel(model, { type: 'PER', canonical: ['Alice Walker'], temperature: 2 }, annotator).predict([
        { kind: 'text', text },
      ])) as ClassOutput[];
      expect(calls[0]).toContainEqual({ kind: 'text', text: 'Alice Walker was great in this film .' });
      expect(out!.probs).toEqual(resembleCombine([0.6, 0.4], [[0.2, 0.8]], c, 2));
    } finally {
      await close();
    }
    // A classifier is no annotator.
    await expect(openAnnotator({ kind: 'model', model: 'demo-sst2' }, open)).rejects.toThrow(
      /text-classification model, not token classification/,
    );
  }, 60_000);
});
