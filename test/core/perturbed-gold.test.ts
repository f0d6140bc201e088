/**
 * perturbed_gold: a probe that rewrites a QA context records where the gold answers went, so a report can draw
 * them in the perturbed context; a rewrite that leaves the gold where it was adds nothing (results stay as before).
 */
import { describe, expect, it } from 'vitest';
import { QaF1Drop } from '../../src/core/goals/index.ts';
import { probeExample, type Probe } from '../../src/core/probe.ts';
import { rewriteExample } from '../../src/data/rewrite.ts';
import type { Example, QaExample } from '../../src/data/types.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { qaContextNoise } from '../../src/families/stress/qa/noise.ts';
import { Rng } from '../../src/util/rng.ts';

const context = 'In Santa Clara on February 7, 2016, the Denver Broncos beat the Carolina Panthers because their defense was better.';
const example: QaExample = {
  kind: 'qa',
  id: 'q1',
  question: 'Who beat the Panthers?',
  context,
  answers: [
    { text: 'Denver Broncos', start: 40 },
    { text: 'Broncos', start: 47 },
  ],
};

/** Answers the word "Broncos" wherever it is, else the first word. */
const model: ModelAdapter = {
  info: { id: 'function:broncos', task: 'question-answering' },
  predict: async (inputs) =>
    inputs.map((input) => {
      if (input.kind !== 'qa') throw new Error('QA only');
      const at = input.context.indexOf('Broncos');
      const [start, end] = at >= 0 ? [at, at + 7] : [0, input.context.indexOf(' ')];
      return { kind: 'spans' as const, spans: [{ text: input.context.slice(start, end), start, end, score: 0.9 }] };
    }),
};

/** The result of a one-variant probe of `example`. */
function probeWith(variant: (e: QaExample) => Example): ReturnType<typeof probeExample> {
  const probe: Probe = {
    name: 'test',
    goal: new QaF1Drop(),
    budget: 1,
    variants: (e) => [{ example: variant(e as QaExample), edits: [] }],
  };
  return probeExample(probe, example, new QueryEngine(model).session(), new Rng(0));
}

describe('perturbed_gold in probe results', () => {
  it('records the answers re-mapped into a noisy context, each at its new offset', async () => {
    const r = await probeWith((e) => qaContextNoise(e, 'natural', { seed: 3 }).example);
    const noisy = r.perturbed.context as string;
    expect(noisy).not.toBe(context);
    expect(r.gold).toEqual(example.answers);
    const moved = r.perturbed_gold as { text: string; start: number }[];
    // Misspellings before the answers made the context 4 characters longer there.
    expect(moved).toEqual([
      { text: 'Denver Broncos', start: 44 },
      { text: 'Broncos', start: 51 },
    ]);
    for (const a of moved) expect(noisy.slice(a.start, a.start + a.text.length)).toBe(a.text);
  });

  it('inserting text before the answers shifts them by its length', async () => {
    const r = await probeWith(
      (e) => rewriteExample(e, [{ field: 'context', start: 0, end: 0, text: 'In 2016, ', type: 'test:insert' }]).example,
    );
    expect(r.perturbed_gold).toEqual([
      { text: 'Denver Broncos', start: 49 },
      { text: 'Broncos', start: 56 },
    ]);
  });

  it('adds no field when the gold did not move (an edited question)', async () => {
    const r = await probeWith((e) => rewriteExample(e, [{ field: 'question', start: 0, end: 3, text: 'Whoo', type: 'test:typo' }]).example);
    expect(r.perturbed.question).toBe('Whoo beat the Panthers?');
    expect('perturbed_gold' in r).toBe(false);
  });
});
