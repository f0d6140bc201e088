/**
 * The stress-test spine on a suite declared outside src/ (test/registry/fixtures/stress-words.ts) and the
 * transparent lexicon model, so every number can be worked out by hand: one batch per example for the original
 * and the fixed cases, adaptive tests querying through the same session, not-applicable counts, per-test and
 * per-variant tallies, resume, a test subset making the same cases, zero examples, the gate and the report.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import type { ModelAdapter, ModelInput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { writeHtmlReport } from '../../src/report/html/index.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import { loadGroups, loadRun } from '../../src/report/html/load.ts';
import { attackRunOf } from '../../src/kinds/gate.ts';
import { checkTest } from '../../src/suite/gate.ts';
import { ModelError } from '../../src/util/errors.ts';
import { lexiconModel } from '../core/helpers.ts';
import { tmp } from '../cli/helpers.ts';
import { stressWordsRecipe } from '../registry/fixtures/stress-words.ts';

const registry = builtinRegistry().add(stressWordsRecipe);
const DATA = join(tmp('stress-data'), 'data.tsv');
writeFileSync(DATA, 'sentence\tlabel\na good film\t1\nbad acting\t0\ngood good nice plot\t1\nthe plot\t0\n');
writeFileSync(DATA.replace(/data\.tsv$/, 'bad-only.tsv'), 'sentence\tlabel\nbad acting\t0\n');

function counting(): { model: ModelAdapter; batches: ModelInput[][] } {
  const batches: ModelInput[][] = [];
  return { batches, model: { ...lexiconModel, predict: (inputs) => (batches.push(inputs), lexiconModel.predict(inputs)) } };
}

async function run(
  out: string,
  over: { settings?: Record<string, unknown>; resume?: boolean; data?: string; model?: ModelAdapter; concurrency?: number } = {},
) {
  const model = over.model ?? lexiconModel;
  return runRecipe({
    registry,
    recipe: 'stress-words',
    settings: over.settings ?? {},
    model: 'lexicon',
    data: over.data ?? DATA,
    labelMap: '0=negative,1=positive',
    out,
    seed: 3,
    concurrency: over.concurrency ?? 1,
    ...(over.resume ? { resume: true } : {}),
    shared: { model, engine: new QueryEngine(model) },
  });
}

const results = (dir: string): StressResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StressResult);
const summaryOf = (dir: string): StressSummary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StressSummary;
const stable = (s: StressSummary): unknown => ({ ...s, wall_seconds: 0, process: null });

describe('stress runs', () => {
  it('send the original and every fixed case of an example as one batch, then the adaptive test through the same session', async () => {
    const { model, batches } = counting();
    const out = tmp('stress-batch');
    const outcome = await run(out, { model });
    expect(outcome.kind).toBe('stress');
    // Example 1: original + drop-good + two add-nice cases in one batch (the engine orders a batch by length);
    // then the adaptive test's three candidates.
    expect(batches[0]!.map((b) => (b.kind === 'text' ? b.text : ''))).toEqual([
      'a film',
      'a good film',
      'a good film nice',
      'a good film nice nice',
    ]);
    expect(batches[1]).toHaveLength(3);
    const [first, second, third] = results(out);
    expect(first!.original).toEqual({
      text: { text: 'a good film' },
      gold: 'positive',
      prediction: 'positive',
      correct: true,
      confidence: 0.6977,
    });
    expect(first!.cases.map((c) => [c.test, c.variant, c.text.text, c.prediction, c.correct])).toEqual([
      ['drop-good', 'drop-good', 'a film', 'negative', false],
      ['add-nice', 'nice-1', 'a good film nice', 'positive', true],
      ['add-nice', 'nice-2', 'a good film nice nice', 'positive', true],
      // P(positive) of "a good film bad" is 3/4.4, the lowest of the three suffixes.
      ['worst-suffix', 'worst-suffix', 'a good film bad', 'positive', true],
    ]);
    expect(first!.cases[3]!.note).toEqual({ tried: 3, original_correct: true });
    expect(first!.queries).toBe(7);
    expect(second!.not_applicable).toEqual({ 'drop-good': 'no "good" to drop' });
    expect(third!.not_applicable).toEqual({ 'worst-suffix': 'longer than three words' });
  });

  it('tally each test and variant: accuracy, the original on the same examples, reduction, confusion, not applicable', async () => {
    const out = tmp('stress-tally');
    await run(out);
    const s = summaryOf(out);
    expect(s).toMatchObject({ kind: 'stress', recipe: 'stress-words', n: 4, cases: 13, mean_queries: 5.75 });
    expect(s.original).toMatchObject({
      n: 4,
      correct: 4,
      accuracy: 1,
      original_accuracy: null,
      reduction: null,
      majority: { label: 'negative', rate: 0.5 },
    });
    expect(s.tests['drop-good']).toMatchObject({
      n: 2,
      correct: 1,
      accuracy: 0.5,
      original_accuracy: 1,
      reduction: 0.5,
      examples: 2,
      not_applicable: 2,
    });
    expect(s.tests['drop-good']!.confusion).toEqual({ positive: { n: 2, predicted: { negative: 0.5, positive: 0.5 } } });
    expect(s.tests['drop-good']!.variants).toBeUndefined();
    expect(s.tests['add-nice']!.variants!['nice-2']).toMatchObject({ n: 4, accuracy: 0.5, reduction: 0.5 });
    expect(s.tests['add-nice']!.confusion!.negative).toEqual({ n: 4, predicted: { positive: 1 } });
    expect(s.tests['worst-suffix']).toMatchObject({
      n: 3,
      correct: 1,
      examples: 3,
      not_applicable: 1,
      not_applicable_reasons: { 'longer than three words': 1 },
    });
    expect(s.worst).toEqual({ test: 'worst-suffix', accuracy: 1 / 3 });
    expect(s.max_reduction!.test).toBe('worst-suffix');
    expect(s.max_reduction!.reduction).toBeCloseTo(2 / 3, 12);
  });

  it('resume after an interruption writes what an uninterrupted run writes', async () => {
    const whole = tmp('stress-whole');
    await run(whole);
    const cut = tmp('stress-cut');
    copyFileSync(join(whole, 'run.json'), join(cut, 'run.json'));
    writeFileSync(
      join(cut, 'results.jsonl'),
      readFileSync(join(whole, 'results.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n') + '\n{"id":"torn',
    );
    const { model, batches } = counting();
    await run(cut, { resume: true, model });
    expect(readFileSync(join(cut, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'results.jsonl'), 'utf8'));
    expect(stable(summaryOf(cut))).toEqual(stable(summaryOf(whole)));
    // Only the two unfinished examples were asked about.
    expect(
      batches
        .flat()
        .map((b) => (b.kind === 'text' ? b.text : ''))
        .filter((t) => t.startsWith('a good')),
    ).toEqual([]);
  });

  it('a failed example holds the finished ones after it back: results.jsonl stays in data order, the resume asks only for the failed one', async () => {
    const whole = tmp('stress-whole');
    await run(whole);
    // The third example's original fails (flagged input-specific, so the engine isolates it and fails its example
    // only); the fourth finishes meanwhile and must not be written ahead of it.
    const failing: ModelAdapter = {
      ...lexiconModel,
      async predict(inputs) {
        if (inputs.some((i) => i.kind === 'text' && i.text === 'good good nice plot'))
          throw new ModelError('the server went away', { inputSpecific: true });
        return lexiconModel.predict(inputs);
      },
    };
    const cut = tmp('stress-cut');
    await expect(run(cut, { model: failing, concurrency: 4 })).rejects.toThrow(
      `2 finished results are kept in ${join(cut, 'results.jsonl')}. 1 finished after it waits in ${join(cut, 'results.held.jsonl')}`,
    );
    expect(results(cut).map((r) => r.id)).toEqual(
      results(whole)
        .map((r) => r.id)
        .slice(0, 2),
    );
    expect((JSON.parse(readFileSync(join(cut, 'run.json'), 'utf8')) as { status: string }).status).toBe('failed');
    const { model, batches } = counting();
    await run(cut, { resume: true, model, concurrency: 4 });
    expect(readFileSync(join(cut, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'results.jsonl'), 'utf8'));
    expect(stable(summaryOf(cut))).toEqual(stable(summaryOf(whole)));
    expect(existsSync(join(cut, 'results.held.jsonl'))).toBe(false);
    // Only the failed example was asked about again: the held one cost no query.
    const asked = batches.flat().map((b) => (b.kind === 'text' ? b.text : ''));
    expect(asked).toContain('good good nice plot');
    expect(asked.filter((t) => /^(a good film|bad acting|the plot)/.test(t))).toEqual([]);
  });

  it('a subset of tests makes the same cases as the full set (each test has its own random stream)', async () => {
    const all = tmp('stress-all');
    const one = tmp('stress-one');
    await run(all);
    await run(one, { settings: { tests: ['worst-suffix'], suffixes: ['bad', 'dull', 'good'] } });
    const pick = (rs: StressResult[]) => rs.map((r) => r.cases.filter((c) => c.test === 'worst-suffix'));
    expect(pick(results(one))).toEqual(pick(results(all)));
    expect(Object.keys(summaryOf(one).tests)).toEqual(['worst-suffix']);
  });

  it('over zero examples every metric is null (n/a), never 0', async () => {
    const empty = join(tmp('stress-empty'), 'empty.tsv');
    writeFileSync(empty, 'sentence\tlabel\n');
    const out = tmp('stress-empty-out');
    await run(out, { data: empty });
    const s = summaryOf(out);
    expect(s).toMatchObject({ n: 0, cases: 0, worst: null, max_reduction: null, mean_queries: null });
    expect(s.original).toMatchObject({ n: 0, accuracy: null, majority: null });
    expect(s.tests['add-nice']).toMatchObject({ n: 0, accuracy: null, original_accuracy: null, reduction: null });
  });

  it('the gate reads the recipe metrics (n/a fails), and the report shows a stress section, card and the cases', async () => {
    const out = tmp('stress-gate');
    await run(join(out, 'words'));
    await run(join(out, 'drop-only'), { settings: { tests: ['drop-good'] }, data: DATA.replace(/data\.tsv$/, 'bad-only.tsv') });
    const groups = await loadGroups([out]);
    const metrics = registry.metrics();
    const words = groups.find((g) => g.name === 'words')!;
    const checks = checkTest(
      'words',
      words,
      ['words_drop_good_accuracy >= 0.5', 'words_max_reduction < 50%', 'words_original_accuracy == 1', 'clean_accuracy > 0.5'],
      undefined,
      metrics,
    );
    expect(checks.map((c) => [c.expr, c.passed])).toEqual([
      ['words_drop_good_accuracy >= 0.5', true],
      ['words_max_reduction < 50%', false],
      ['words_original_accuracy == 1', true],
      ['clean_accuracy > 0.5', false],
    ]);
    expect(checks[1]!.message).toBe('words: words_max_reduction = 0.667 fails < 0.500');
    expect(checks[3]!.message).toBe('words: clean_accuracy > 0.5 — clean_accuracy is not reported by this run');
    const dropOnly = groups.find((g) => g.name === 'drop-only')!;
    const na = checkTest('drop-only', dropOnly, ['words_drop_good_accuracy >= 0', 'words_add_nice_accuracy >= 0'], undefined, metrics);
    expect(na.map((c) => c.message)).toEqual([
      'drop-only: words_drop_good_accuracy >= 0 — words_drop_good_accuracy is n/a: it is taken over zero cases (the ' +
        'test applied to none of the 1 examples, or the original accuracy it is measured against is 0)',
      'drop-only: words_add_nice_accuracy >= 0 — words_add_nice_accuracy is not reported by this run',
    ]);

    // A loaded run says which list it belongs in; reading it as another kind's run is refused, not read as n/a.
    expect(words.stress.map((r) => r.slot)).toEqual(['stress']);
    await expect(loadRun(join(out, 'words'), 'words', 'words', { registry })).rejects.toThrow(
      /the run in .*words is a stress run, not an attack or probe run/,
    );
    expect(() => attackRunOf(words.stress[0]!)).toThrow(
      /internal error: the gate of attack and probe runs was handed a run of the 'stress' list/,
    );

    const html = join(tmp('stress-report'), 'report.html');
    await writeHtmlReport([join(out, 'words')], html, { registry });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Stress suite “stress-words”');
    expect(page).toContain(
      '<td>worst-suffix</td><td class="n">3</td><td class="n">33.3% (66.7%)</td><td class="n">100.0%</td><td class="n">1</td>',
    );
    expect(page).toMatch(/lowest test accuracy/);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(page)![1]!) as {
      examples: { id: string; s: number; k: string }[];
    };
    expect(data.examples).toHaveLength(13);
    expect(data.examples.find((e) => e.id.endsWith(':2 · drop-good'))).toMatchObject({ s: 0, k: 'broken by the test' });
    expect(data.examples.find((e) => e.id.endsWith(':3 · nice-1'))).toMatchObject({ s: 0 });
  });
});
