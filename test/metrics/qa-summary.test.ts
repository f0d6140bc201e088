/**
 * QA summary fields on hand-made results: clean/attacked EM and F1 are the means of SQuAD v1.1's per-question
 * scores (best over the gold answers), over every example; null (n/a) over zero examples; the same through compact
 * results; shown in the terminal table and readable as gate metrics.
 */
import { describe, expect, it } from 'vitest';
import { QaF1Drop } from '../../src/core/goals/index.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import type { QaExample } from '../../src/data/types.ts';
import { summarize, SummaryAccumulator, type RunSummary } from '../../src/metrics/summary.ts';
import type { SpanOutput } from '../../src/models/types.ts';
import { headlineMetrics } from '../../src/kinds/attack/headline.ts';
import { summaryTable } from '../../src/kinds/attack/print.ts';
import { compactResult } from '../../src/kinds/attack/run.ts';
import { GATE_METRICS, metricValue } from '../../src/kinds/attack/gate.ts';

const CONTEXT =
  "The Denver Broncos beat the Carolina Panthers on February 7, 2016, at Levi's Stadium in the San Francisco Bay Area at Santa Clara, California.";

/** A span output whose best answer is `text`, found in CONTEXT. */
function spans(text: string): SpanOutput {
  const start = CONTEXT.indexOf(text);
  if (start < 0) throw new Error(`"${text}" is not in the context`);
  return { kind: 'spans', spans: [{ text, start, end: start + text.length, score: 0.5 }] };
}

/** One result line as the attack writes it, scored by the real QA goal. */
function qaResult(id: string, golds: string[], clean: string, attacked: string): ExampleResult {
  const example: QaExample = {
    kind: 'qa',
    id,
    question: 'Who won?',
    context: CONTEXT,
    answers: golds.map((text) => ({ text, start: Math.max(0, CONTEXT.indexOf(text)) })),
  };
  const goal = new QaF1Drop().create(example, spans(clean));
  const before = goal.evaluate(spans(clean));
  const skip = goal.skipReason(before);
  const after = skip ? before : goal.evaluate(spans(attacked));
  const edited = !skip && attacked !== clean;
  return {
    id,
    status: skip ? 'skipped' : after.done ? 'succeeded' : 'failed',
    ...(skip ? { skip_reason: skip } : {}),
    gold: example.answers,
    field: 'question',
    original: { question: 'Who won?', context: CONTEXT },
    perturbed: { question: edited ? 'Who wno?' : 'Who won?', context: CONTEXT },
    original_prediction: before.prediction,
    perturbed_prediction: after.prediction,
    original_correct: before.correct,
    perturbed_correct: after.correct,
    edits: edited ? [{ type: 'typo:swap', field: 'question', wordIndex: 1, start: 4, before: 'won?', after: 'wno?' }] : [],
    num_words: 2,
    words_perturbed: edited ? 1 : 0,
    perturbed_word_pct: edited ? 50 : 0,
    queries: 3,
    requests: 3,
    cache_hits: 0,
    trace: [],
  };
}

/** F1 of "levis stadium in san francisco bay area" against "levis stadium", as SQuAD computes it (= 4/9). */
const F1_B = (2 * (2 / 7) * 1) / (2 / 7 + 1);

const RESULTS = [
  // Articles and punctuation normalised away: EM 1, F1 1; after: "broncos" vs "denver broncos" F1 = 2/3 (failed).
  qaResult('a', ['Denver Broncos', 'the Denver Broncos'], 'The Denver Broncos', 'Broncos'),
  // Best of two golds: "levis stadium in san francisco bay area" vs "levis stadium" F1 = 2·(2/7·1)/(2/7+1) = 4/9; then 0.
  qaResult('b', ['Santa Clara, California', "Levi's Stadium"], "Levi's Stadium in the San Francisco Bay Area", 'February 7, 2016'),
  // Wrong from the start: skipped, counts 0 before and after.
  qaResult('c', ['Carolina Panthers'], 'Denver', 'Denver'),
];

function asSummary(m: ReturnType<typeof summarize>): RunSummary {
  return {
    complete: true,
    recipe: 'typos',
    model: 'm',
    dataset: 'squad.json',
    seed: 0,
    settings: {},
    ...m,
    wall_seconds: 1,
    skipped_rows: 0,
    process: { requests: 9, cache_hits: 0, cache_hit_rate: 0, model_inferences: 9 },
  };
}

describe('QA summary fields', () => {
  it('are the means of the per-question EM and F1 (best over gold answers), before and after', () => {
    expect(
      RESULTS.map((r) => [
        r.status,
        r.original_prediction.em,
        r.original_prediction.f1,
        r.perturbed_prediction.em,
        r.perturbed_prediction.f1,
      ]),
    ).toEqual([
      ['failed', 1, 1, 0, 2 / 3],
      ['succeeded', 0, F1_B, 0, 0],
      ['skipped', 0, 0, 0, 0],
    ]);
    const m = summarize(RESULTS);
    expect(m.clean_em).toBeCloseTo(1 / 3, 12);
    expect(m.clean_f1).toBeCloseTo((1 + 4 / 9) / 3, 12);
    expect(m.attacked_em).toBe(0);
    expect(m.attacked_f1).toBeCloseTo(2 / 9, 12);
    // clean_accuracy for QA: the share of answers overlapping a gold one (F1 > 0).
    expect(m).toMatchObject({
      n: 3,
      succeeded: 1,
      failed: 1,
      skipped: 1,
      clean_accuracy: 2 / 3,
      attacked_accuracy: 1 / 3,
      attack_success_rate: 0.5,
    });
    expect(m.skip_reasons).toEqual({ 'the model already answers wrong (F1 = 0) on the clean example': 1 });
  });

  it('are the same from compact results', () => {
    expect(summarize(RESULTS.map(compactResult))).toEqual(summarize(RESULTS));
  });

  it('are null (n/a) over zero examples of a QA run, and absent from other runs', () => {
    expect(new SummaryAccumulator({ qa: true }).finish()).toMatchObject({
      n: 0,
      clean_em: null,
      clean_f1: null,
      attacked_em: null,
      attacked_f1: null,
    });
    const other = summarize([]);
    expect('clean_em' in other || 'clean_f1' in other).toBe(false);
  });

  it('show in the terminal table as percentages, n/a over zero examples', () => {
    const table = summaryTable(asSummary(summarize(RESULTS)));
    expect(table).toMatch(/clean EM\s+│\s+33\.3% \[/);
    expect(table).toMatch(/clean F1\s+│\s+48\.1% \[/);
    // Exact match is a share: Wilson's interval of 0 in 3, never [0.0–0.0].
    expect(table).toMatch(/EM under attack\s+│\s+0\.0% \[0\.0–56\.1\] too few examples \(n=3\)/);
    expect(table).toMatch(/F1 under attack\s+│\s+22\.2% \[/);
    expect(table).toMatch(/clean answers with F1 > 0\s+│\s+66\.7%/);
    expect(table).not.toMatch(/entity F1/);
    const empty = summaryTable(asSummary(new SummaryAccumulator({ qa: true }).finish()));
    expect(empty).toMatch(/clean EM\s+│\s+n\/a \(n=0\)/);
    expect(empty).toMatch(/clean F1\s+│\s+n\/a \(n=0\)/);
  });

  it('are gate metrics; the headline metric of a QA run is answer F1', () => {
    const s = asSummary(summarize(RESULTS));
    const h = headlineMetrics(s, s);
    expect(h.metric).toBe('answer F1');
    expect(h.clean).toBeCloseTo(13 / 27, 12);
    expect(GATE_METRICS.clean_em).toMatch(/exact match/);
    expect(metricValue('clean_em', s, h)).toBeCloseTo(1 / 3, 12);
    expect(metricValue('attacked_em', s, h)).toBe(0);
    expect(metricValue('attacked_f1', s, h)).toBeCloseTo(2 / 9, 12);
    expect(metricValue('metric_drop', s, h)).toBeCloseTo(13 / 27 - 2 / 9, 12);
    const none = asSummary(new SummaryAccumulator({ qa: true }).finish());
    expect(metricValue('clean_em', none, headlineMetrics(none, none))).toBeNull();
  });
});
