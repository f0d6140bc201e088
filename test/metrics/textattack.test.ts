/** TextAttack's "Attack Results" figures from our results, by TextAttack's definitions (metrics/textattack.ts). */
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { textAttackOf, textAttackSummary, textAttackTable } from '../../src/metrics/textattack.ts';
import { summarize } from '../../src/metrics/summary.ts';
import { wilson } from '../../src/stats/index.ts';
import { classicFamily, textAttackReportTable } from '../../src/families/classic/report.ts';
import type { LoadedRun } from '../../src/recipes/report/types.ts';

const prediction = { label: 'positive', score: 0.9 };

/** A result with what the figures read; everything else plain. */
function result(id: string, o: Partial<ExampleResult>): ExampleResult {
  return {
    id,
    status: 'failed',
    gold: 'positive',
    field: 'text',
    original: { text: 'x' },
    perturbed: { text: 'x' },
    original_prediction: prediction,
    perturbed_prediction: prediction,
    original_correct: true,
    perturbed_correct: true,
    edits: [],
    num_words: 10,
    words_perturbed: 0,
    perturbed_word_pct: 0,
    queries: 5,
    requests: 5,
    cache_hits: 0,
    trace: [],
    ...o,
  };
}

// 6 examples: 2 successful, 1 failed, 1 skipped by us because no word may be edited (TextAttack: failed), 2 misclassified.
const results: ExampleResult[] = [
  result('s1', {
    status: 'succeeded',
    perturbed_correct: false,
    words_perturbed: 2,
    num_words: 10,
    perturbed_word_pct: 20,
    requests: 30,
    queries: 20,
  }),
  result('s2', {
    status: 'succeeded',
    perturbed_correct: false,
    words_perturbed: 1,
    num_words: 20,
    perturbed_word_pct: 5,
    requests: 12,
    queries: 12,
  }),
  result('f1', { status: 'failed', num_words: 4, requests: 40, queries: 25 }),
  result('n1', {
    status: 'skipped',
    skip_reason: 'nothing to edit: every word is ruled out by stopwords',
    num_words: 2,
    requests: 1,
    queries: 1,
  }),
  result('w1', { status: 'skipped', original_correct: false, perturbed_correct: false, num_words: 6, requests: 1, queries: 1 }),
  result('w2', { status: 'skipped', original_correct: false, perturbed_correct: false, num_words: 8, requests: 1, queries: 1 }),
];

describe("TextAttack's summary figures", () => {
  const t = textAttackSummary(results, 7);

  it('counts as TextAttack: skipped = already misclassified; an example nothing could be edited in is a failed attack', () => {
    expect([t.successful_attacks, t.failed_attacks, t.skipped_attacks]).toEqual([2, 2, 2]);
    expect(t.original_accuracy).toBeCloseTo(4 / 6, 12);
    expect(t.accuracy_under_attack).toBeCloseTo(2 / 6, 12);
    expect(t.attack_success_rate).toBeCloseTo(2 / 4, 12);
    // mean over successes of 100 · changed / words: (20 + 5) / 2; words over all 6; queries (requests) over the 4 attacked
    expect(t.avg_perturbed_word_pct).toBeCloseTo(12.5, 12);
    expect(t.avg_words_per_input).toBeCloseTo((10 + 20 + 4 + 2 + 6 + 8) / 6, 12);
    expect(t.avg_num_queries).toBeCloseTo((30 + 12 + 40 + 1) / 4, 12);
  });

  it('each figure has its interval: Wilson for shares, a seeded bootstrap for means', () => {
    expect(t.intervals.attack_success_rate).toEqual(wilson(2, 4));
    expect(t.intervals.original_accuracy).toEqual(wilson(4, 6));
    expect(t.intervals.avg_num_queries).toMatchObject({ method: 'bootstrap', n: 4 });
    expect(t.intervals.avg_words_per_input.n).toBe(6);
    expect(textAttackSummary(results, 7)).toEqual(t);
  });

  it('differs from ours exactly where the definitions do', () => {
    const ours = summarize(results);
    expect(ours.clean_accuracy).toBeCloseTo(t.original_accuracy!, 12);
    expect(ours.attacked_accuracy).toBeCloseTo(t.accuracy_under_attack!, 12);
    // ours leaves the example with nothing to edit out of the attacked ones
    expect(ours.attack_success_rate).toBeCloseTo(2 / 3, 12);
    expect(ours.mean_perturbed_word_pct).toBeCloseTo(12.5, 12);
    expect(ours.mean_queries).toBeCloseTo((20 + 12 + 25 + 1 + 1 + 1) / 6, 12);
  });

  it('over zero examples every figure is n/a, never 0', () => {
    const none = textAttackSummary([]);
    expect([none.original_accuracy, none.attack_success_rate, none.avg_num_queries, none.avg_words_per_input]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(textAttackTable(none)).toContain('n/a (n=0)');
  });

  it('reads back from summary details and prints with TextAttack’s labels', () => {
    expect(textAttackOf({ textattack: t })).toEqual(t);
    expect(textAttackOf({})).toBeUndefined();
    const table = textAttackTable(t);
    expect(table).toContain('Attack success rate');
    expect(table).toContain('50.0% [15.0–85.0] too few examples (n=4)');
    expect(table).toContain('Avg num queries');
  });
});

describe("the report's TextAttack table", () => {
  it('one row per run with the figures and intervals, runs without them left out', () => {
    const t = textAttackSummary(results, 7);
    const run = (name: string, details?: Record<string, unknown>): LoadedRun =>
      ({ name, group: name, summary: { ...summarize(results), recipe: 'pwws', ...(details ? { details } : {}) } }) as unknown as LoadedRun;
    const table = textAttackReportTable([run('a', { textattack: t }), run('old')])!;
    expect(table.head[0]).toBe('run');
    expect(table.head).toContain('Attack success rate');
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]![0]).toBe('a (pwws)');
    expect(table.rows[0]).toContain('50.0% [15.0–85.0] too few examples (n=4)');
    expect(textAttackReportTable([run('old')])).toBeUndefined();
    expect(classicFamily.section!([run('a', { textattack: t })], []).tables).toEqual([table]);
  });
});
