import { describe, expect, it } from 'vitest';
import {
  labelFromText,
  labelsFromLogprobs,
  mapClassAnswer,
  mapQaAnswer,
  mapTagAnswer,
  normalise,
} from '../../src/models/openai/mapping.ts';
import { AdaptiveLimiter, BudgetError, CostMeter } from '../../src/models/openai/meter.ts';
import { checkTemplate, DEFAULT_TEMPLATES, renderPrompt } from '../../src/models/openai/templates.ts';
import { guardUnmappable, UNMAPPABLE_LABEL, UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';

const LABELS = ['negative', 'positive'];

describe('reading a chat answer as a label', () => {
  it('normalises case, quotes, markdown and final punctuation', () => {
    expect(normalise('  **Positive.** ')).toBe('positive');
    expect(normalise('"not entailment"')).toBe('not entailment');
  });

  it('maps by exact match, the first or last label named, and a regex', () => {
    expect(labelFromText('Positive.', LABELS, 'exact')).toBe(1);
    expect(labelFromText('It is positive', LABELS, 'exact')).toBe(-1);
    expect(labelFromText('Not negative — positive overall', LABELS, 'first')).toBe(0);
    expect(labelFromText('Not negative — positive overall', LABELS, 'last')).toBe(1);
    // whole words only: "positively" names no label
    expect(labelFromText('positively glowing', LABELS, 'first')).toBe(-1);
    // a longer label at the same place wins over one inside it
    expect(labelFromText('answer: not entailment', ['entailment', 'not entailment'], 'first')).toBe(1);
    expect(labelFromText('Sentiment: NEGATIVE (confident)', LABELS, 'regex', /sentiment:\s*(\w+)/i)).toBe(0);
    expect(labelFromText('no match here', LABELS, 'regex', /sentiment:\s*(\w+)/i)).toBe(-1);
  });

  it('turns the label tokens of the first position into a class distribution, renormalised', () => {
    const probs = labelsFromLogprobs(
      [
        { token: 'positive', logprob: Math.log(0.6) },
        { token: ' Neg', logprob: Math.log(0.2) },
        { token: 'The', logprob: Math.log(0.1) },
        { token: 'negative', logprob: Math.log(0.15) },
      ],
      LABELS,
    )!;
    // negative takes its best alternative (" Neg", 0.2), "The" names no label
    expect(probs[0]).toBeCloseTo(0.2 / 0.8, 12);
    expect(probs[1]).toBeCloseTo(0.6 / 0.8, 12);
    // a prefix shared by two labels is ambiguous and ignored
    expect(labelsFromLogprobs([{ token: 'ne', logprob: -0.1 }], ['negative', 'neutral'])).toBeUndefined();
    expect(labelsFromLogprobs([{ token: 'Hmm', logprob: -0.1 }], LABELS)).toBeUndefined();
  });

  it('keeps an answer that names no label as unmappable, never as a label', () => {
    const out = mapClassAnswer({ content: 'I would rather not say.', firstTokenTop: [{ token: 'I', logprob: -0.01 }] }, LABELS, 'logprobs');
    expect(out.unmappable).toBe('I would rather not say.');
    expect(out.probs).toEqual([0, 0]);
    // logprobs that name no label, but a text that does: one-hot from the text
    expect(mapClassAnswer({ content: 'positive', firstTokenTop: [{ token: '**', logprob: -0.01 }] }, LABELS, 'logprobs').probs).toEqual([
      0, 1,
    ]);
    expect(mapClassAnswer({ content: '{"label": "Negative"}' }, LABELS, 'json').probs).toEqual([1, 0]);
    expect(mapClassAnswer({ content: '{"label": "neutral"}' }, LABELS, 'json').unmappable).toBe('{"label": "neutral"}');
    expect(mapClassAnswer({ content: 'Here you go: ```json\n{"label": "positive"}\n```' }, LABELS, 'json').probs).toEqual([0, 1]);
  });

  it('a goal never scores an unmappable answer, and skips an example whose clean answer is one', () => {
    const goal = guardUnmappable(
      new UntargetedClassification(new LabelAligner(LABELS)).create({ kind: 'text', id: 'x', text: 'a', label: 'positive' }),
    );
    const status = goal.evaluate({ kind: 'classes', labels: LABELS, probs: [0, 0], unmappable: 'hmm' });
    expect(status).toEqual({
      score: 0,
      done: false,
      correct: false,
      metric: 0,
      prediction: { label: UNMAPPABLE_LABEL, score: 0, unmappable: 'hmm' },
    });
    expect(goal.skipReason(status)).toMatch(/could not be mapped/);
    expect(goal.evaluate({ kind: 'classes', labels: LABELS, probs: [0.9, 0.1] }).done).toBe(true);
  });

  it('reads tagger JSON (one known tag per token) and QA JSON located in the context', () => {
    expect(mapTagAnswer('{"tags": ["B-PER", "O"]}', ['Ann', 'ran'], ['O', 'B-PER', 'I-PER'])).toEqual({
      kind: 'tags',
      tags: ['B-PER', 'O'],
      scores: [1, 1],
    });
    expect(mapTagAnswer('{"tags": ["B-PER"]}', ['Ann', 'ran'], ['O', 'B-PER']).unmappable).toBeDefined();
    expect(mapTagAnswer('{"tags": ["B-XYZ", "O"]}', ['Ann', 'ran'], ['O', 'B-PER']).unmappable).toBeDefined();
    const context = 'The Eiffel Tower is in Paris, France.';
    expect(mapQaAnswer('{"answer": "paris"}', context)).toEqual({
      kind: 'spans',
      spans: [{ text: 'Paris', start: 23, end: 28, score: 1 }],
    });
    expect(mapQaAnswer('{"answer": "Lyon"}', context).spans[0]).toMatchObject({ text: 'Lyon', start: -1, end: -1 });
    expect(mapQaAnswer('Paris', context).unmappable).toBe('Paris');
  });
});

describe('prompt templates', () => {
  it('fills placeholders once (a text holding "{{labels}}" stays as it is) and checks them up front', () => {
    const msgs = renderPrompt(DEFAULT_TEMPLATES.text, { kind: 'text', text: 'say {{labels}}' }, LABELS);
    expect(msgs[0]!.role).toBe('system');
    expect(msgs[1]!.content).toContain('<text>say {{labels}}</text>');
    expect(msgs[1]!.content).toContain('negative, positive');
    expect(() => checkTemplate({ user: 'Classify {{text}} as {{lables}}', source: 't.txt' }, 'text')).toThrow(/\{\{lables\}\}/);
    expect(() => checkTemplate({ user: 'Classify {{text_a}}', source: 't.txt' }, 'pair')).toThrow(/never puts in \{\{text_b\}\}/);
    for (const kind of ['text', 'pair', 'tokens', 'qa'] as const) expect(() => checkTemplate(DEFAULT_TEMPLATES[kind], kind)).not.toThrow();
  });
});

describe('cost meter and adaptive concurrency', () => {
  it('reserves the worst case before sending, refuses a request that could pass the limit, and stays stopped', async () => {
    const meter = new CostMeter({ input: 1, output: 2 }, 0.0001); // $1 / $2 per million tokens, $0.0001 limit = 100 input tokens
    const r = meter.reserve(100, 4); // 50 tokens at 0.5/byte + 4 out = 58 µ$
    expect(r).toBeCloseTo(58e-6, 12);
    expect(() => meter.reserve(100, 4)).toThrow(BudgetError);
    expect(meter.stopped).toBe(true);
    let settled = false;
    const done = meter.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // one request still in flight
    meter.record(r, { input: 20, output: 1 }, 100);
    await done;
    expect(meter.cost).toBeCloseTo(22e-6, 12);
    expect(meter.tokens).toEqual({ input: 20, output: 1 });
    // The stop is for good: the real cost came in lower, yet no request starts after the first refusal, so the
    // count in the message is final once the requests in flight have settled.
    expect(() => meter.reserve(100, 4)).toThrow(BudgetError);
    expect(meter.budgetError().message).toBe(
      'stopped before --max-cost $0.000100: $0.0000220 spent on 1 answered request; the next request could cost up to $0.0000580, ' +
        'so no further request was sent.',
    );
  });

  it('halves on pushback once per round and grows back by one after a full window of answers', async () => {
    const lim = new AdaptiveLimiter(8);
    lim.pushback(0);
    lim.pushback(0); // a call from the same round: no second cut
    expect(lim.current).toBe(4);
    for (let i = 0; i < 4; i++) lim.success();
    expect(lim.current).toBe(5);
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        lim.run(async () => {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, 2));
          inFlight--;
        }),
      ),
    );
    expect(most).toBeLessThanOrEqual(8);
    expect(most).toBeGreaterThanOrEqual(5);
    expect(lim.lowest).toBe(4);
  });
});
