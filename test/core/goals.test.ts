import { describe, expect, it } from 'vitest';
import { answerF1, bestOverGold, exactMatch, normalizeAnswer } from '../../src/data/answers.ts';
import type { QaExample, TextExample, TokenExample } from '../../src/data/types.ts';
import { Invariance, QaF1Drop, TargetConfidence, UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import type { ModelOutput } from '../../src/models/types.ts';

const classes = (p: number): ModelOutput => ({ kind: 'classes', labels: ['negative', 'positive'], probs: [1 - p, p] });
const spans = (...texts: string[]): ModelOutput => ({
  kind: 'spans',
  spans: texts.map((text, i) => ({ text, start: i, end: i + text.length, score: 0.9 - i / 10 })),
});

describe('SQuAD v1.1 answer scoring', () => {
  it('normalises like evaluate-v1.1.py: lower case, no punctuation, no articles, single spaces', () => {
    expect(normalizeAnswer('  The  Eiffel-Tower, in Paris!  ')).toBe('eiffeltower in paris');
    expect(normalizeAnswer('An apple a day')).toBe('apple day');
    // "a" inside words and next to non-ASCII letters is not an article.
    expect(normalizeAnswer('Théa and a café')).toBe('théa and café');
    expect(normalizeAnswer('a')).toBe('');
  });

  it('computes EM and token F1 by hand', () => {
    expect(exactMatch('the Denver Broncos', 'Denver Broncos')).toBe(1);
    expect(exactMatch('Denver', 'Denver Broncos')).toBe(0);
    // pred {denver}, gold {denver, broncos}: P = 1, R = 1/2 → F1 = 2/3.
    expect(answerF1('Denver', 'Denver Broncos')).toBeCloseTo(2 / 3, 12);
    // pred {in, 1990, season}, gold {1990}: P = 1/3, R = 1 → 0.5.
    expect(answerF1('in the 1990 season.', '1990')).toBeCloseTo(0.5, 12);
    // Repeated tokens count with multiplicity: pred {new, new, york}, gold {new, york}: common 2, P 2/3, R 1 → 0.8.
    expect(answerF1('new new york', 'New York')).toBeCloseTo(0.8, 12);
    expect(answerF1('Paris', 'London')).toBe(0);
    expect(answerF1('the', 'a')).toBe(0);
  });

  it('takes the best over several gold answers, 0 when there are none', () => {
    expect(bestOverGold('Santa Clara', ['Santa Clara, California', "Levi's Stadium", 'Santa Clara'])).toEqual({ em: 1, f1: 1 });
    const partial = bestOverGold('Levi Stadium', ["Levi's Stadium in Santa Clara", "Levi's Stadium"]);
    expect(partial.em).toBe(0);
    // {levi, stadium} vs {levis, stadium}: 1 common → P = R = 1/2 → 0.5.
    expect(partial.f1).toBeCloseTo(0.5, 12);
    expect(bestOverGold('x', [])).toEqual({ em: 0, f1: 0 });
  });
});

describe('goals', () => {
  const qa: QaExample = {
    kind: 'qa',
    id: 'q',
    question: 'Who won?',
    context: 'Denver Broncos won.',
    answers: [{ text: 'Denver Broncos', start: 0 }],
  };

  it('QA: success when the answer stops overlapping every gold answer on an example the model had right', () => {
    const goal = new QaF1Drop().create(qa, spans('Denver'));
    const clean = goal.evaluate(spans('Denver'));
    expect(clean).toMatchObject({ correct: true, done: false, metric: 2 / 3, prediction: { label: 'Denver', em: 0, f1: 2 / 3 } });
    expect(goal.skipReason(clean)).toBeUndefined();
    expect(goal.evaluate(spans('Broncos'))).toMatchObject({ done: false, correct: true, score: 0 });
    const broken = goal.evaluate(spans('won'));
    expect(broken).toMatchObject({ done: true, correct: false, metric: 0 });
    expect(broken.score).toBeCloseTo(2 / 3, 12);
    expect(new QaF1Drop().create(qa, spans('won')).skipReason(broken)).toMatch(/already answers wrong/);
    expect(new QaF1Drop().create({ ...qa, answers: [] }, spans('x')).skipReason(broken)).toMatch(/no gold answer/);
  });

  it('invariance: success when the answer changes from the model’s own, for classes, tags and spans', () => {
    const text: TextExample = { kind: 'text', id: 't', text: 'x', label: 'negative' };
    // The model says positive (0.7) although gold is negative: invariance compares with the model, not gold.
    const inv = new Invariance().create(text, classes(0.7));
    expect(inv.evaluate(classes(0.6))).toMatchObject({ done: false, correct: true, metric: 1 });
    expect(inv.evaluate(classes(0.6)).score).toBeCloseTo(0.4, 12);
    expect(inv.evaluate(classes(0.2))).toMatchObject({ done: true, correct: false, metric: 0 });
    // With a gold goal, `correct` is accuracy against gold.
    const withGold = new Invariance(new UntargetedClassification(new LabelAligner(['negative', 'positive']))).create(text, classes(0.7));
    expect(withGold.evaluate(classes(0.2))).toMatchObject({ done: true, correct: true });

    const tok: TokenExample = { kind: 'tokens', id: 'k', tokens: ['John', 'ran'], tags: ['B-PER', 'O'] };
    const tags = (t: string[]): ModelOutput => ({ kind: 'tags', tags: t, scores: t.map(() => 0.9) });
    const tinv = new Invariance().create(tok, tags(['B-PER', 'O']));
    expect(tinv.evaluate(tags(['B-PER', 'O']))).toMatchObject({ done: false, score: 0 });
    expect(tinv.evaluate(tags(['B-LOC', 'O']))).toMatchObject({ done: true, score: 0.5 });
    // After an insertion (origin −1) the new token must be O.
    expect(tinv.evaluate(tags(['B-PER', 'O', 'O']), [0, -1, 1])).toMatchObject({ done: false });
    // A variant of another length (a name of two tokens) compares entity types in order.
    expect(tinv.evaluate(tags(['B-PER', 'I-PER', 'O']))).toMatchObject({ done: false });
    expect(tinv.evaluate(tags(['B-ORG', 'I-ORG', 'O']))).toMatchObject({ done: true });

    const qinv = new Invariance().create(qa, spans('Denver Broncos'));
    expect(qinv.evaluate(spans('the Denver Broncos'))).toMatchObject({ done: false, score: 0 });
    expect(qinv.evaluate(spans('Denver'))).toMatchObject({ done: true });
    expect(qinv.evaluate(spans('Denver')).score).toBeCloseTo(1 / 3, 12);
  });

  it('target-class confidence: the score is P(target), done at the threshold, usable without an example', () => {
    const goal = new TargetConfidence(1, 0.9);
    expect(goal.status(classes(0.95))).toMatchObject({ score: 0.95, done: true, metric: 0.95, correct: false });
    expect(goal.status(classes(0.5))).toMatchObject({ done: false, correct: true });
    const text: TextExample = { kind: 'text', id: 't', text: 'x', label: 'negative' };
    const perExample = new TargetConfidence(1, 0.9, new LabelAligner(['negative', 'positive'])).create(text, classes(0.1));
    expect(perExample.evaluate(classes(0.95))).toMatchObject({ done: true, correct: false });
    expect(perExample.skipReason(perExample.evaluate(classes(0.95)))).toMatch(/already gives the target class/);
    expect(() => new TargetConfidence(1, 1.5)).toThrow(/threshold/);
  });
});
