/**
 * Bounded work on long texts, settings that cannot silently contradict each other, accuracy by edits that means
 * what it says, and runs read without holding them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { summarize } from '../../src/metrics/summary.ts';
import { loadRun } from '../../src/report/html/load.ts';
import { compactResult } from '../../src/kinds/attack/run.ts';
import { DEMO_SST2, ROOT, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

const lines = (p: string): ExampleResult[] =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);

describe('a 100,000-character text', () => {
  // 17,900 words of real reviews: the attack edits its first 512 (the edit window) and carries the rest along.
  const words = readFileSync(join(ROOT, 'demo', 'reviews.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0])
    .join(' ');
  let text = '';
  while (text.length < 99_990) text += words + ' ';
  text = text.slice(0, 99_990).replace(/\s+\S*$/, '');

  it.each(['typos', 'grammar'])('%s: attacked within its window, bounded queries, the whole text kept in the result', async (recipe) => {
    const dir = tmp(`long-${recipe}`);
    writeFileSync(join(dir, 'long.tsv'), `sentence\tlabel\n${text}\t1\n`);
    const refused = await runCli([
      'attack',
      recipe,
      '--model',
      DEMO_SST2,
      '--data',
      join(dir, 'long.tsv'),
      '--out',
      join(dir, 'refused'),
      '--no-progress',
    ]);
    expect(expectCleanError(refused)).toMatch(/longer than.*20000|20000.*characters|--max-chars/);
    const r = await runCli([
      'attack',
      recipe,
      '--model',
      DEMO_SST2,
      '--data',
      join(dir, 'long.tsv'),
      '--max-chars',
      '100000',
      '--out',
      join(dir, 'out'),
      '--no-progress',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [res] = lines(join(dir, 'out', 'results.jsonl'));
    expect(res!.window_capped).toBe(true);
    expect(res!.num_words).toBeGreaterThan(15_000);
    expect(res!.queries).toBeLessThan(2_000);
    const summary = JSON.parse(r.stdout) as { window_capped: number; settings: { maxWords: number } };
    expect(summary.window_capped).toBe(1);
    expect(summary.settings.maxWords).toBe(512);
    // The suffix beyond the window is untouched: the perturbed text ends exactly like the original.
    expect((res!.perturbed.text as string).slice(-20_000)).toBe(text.slice(-20_000));
  });
});

describe('settings that would contradict each other', () => {
  it('an error rate above the budget is refused on the command line and in a suite, with the line', async () => {
    const dir = tmp('rate');
    const cli = await runCli([
      'attack',
      'grammar',
      '--search',
      'probabilistic',
      '--error-rate',
      '0.5',
      '--model',
      DEMO_SST2,
      '--data',
      join(ROOT, 'demo', 'reviews.tsv'),
      '--out',
      dir,
    ]);
    expect(expectCleanError(cli)).toMatch(/--error-rate: the error rate 0\.5 is above the budget 0\.15/);
    writeFileSync(
      join(dir, 's.yaml'),
      `models:\n  m: demo-sst2\ndatasets:\n  d: x.tsv\ntests:\n  - name: t\n    recipe: grammar\n    settings:\n     ` +
        ` ` +
        `search: probabilistic\n      error_rate: 0.5\n`,
    );
    const suite = await runCli(['run', join(dir, 's.yaml'), '--out', join(dir, 'o')]);
    expect(expectCleanError(suite)).toMatch(/line 10: tests\[0\]\.settings\.error_rate: the error rate 0\.5 is above the budget 0\.15/);
  });
});

describe('accuracy by edits', () => {
  const result = (over: Partial<ExampleResult>): ExampleResult => ({
    id: 'x',
    status: 'failed',
    gold: 'positive',
    field: 'text',
    original: { text: '' },
    perturbed: { text: '' },
    original_prediction: { label: 'positive', score: 1 },
    perturbed_prediction: { label: 'positive', score: 1 },
    original_correct: true,
    perturbed_correct: true,
    edits: [],
    num_words: 10,
    words_perturbed: 0,
    perturbed_word_pct: 0,
    queries: 1,
    requests: 1,
    cache_hits: 0,
    trace: [],
    ...over,
  });
  const edit = { type: 'grammar:Prep', field: 'text', wordIndex: 0, start: 0, before: 'a', after: 'b' };

  it('counts an example broken at k when the attack succeeded with at most k edits, whatever order its trace is in', () => {
    // A genetic search's trace is per generation: its elite went from 3 edits to 1 (and succeeded with 1).
    const genetic = result({
      status: 'succeeded',
      perturbed_correct: false,
      edits: [edit],
      trace: [
        { edits: 3, correct: true, done: false, score: 0.4, label: 'positive' },
        { edits: 1, correct: false, done: true, score: 0.7, label: 'negative' },
      ],
    });
    const failed = result({ edits: [edit, edit, edit], trace: [{ edits: 3, correct: true, done: false, score: 0.2, label: 'positive' }] });
    const wrong = result({ status: 'skipped', original_correct: false, perturbed_correct: false });
    // Before: the trace was read as if ordered by edit count, so the genetic example counted as right at K = 1 and 2.
    expect(summarize([genetic, failed, wrong]).accuracy_by_edits).toEqual([2 / 3, 1 / 3, 1 / 3, 1 / 3]);
  });

  it('is null for attacks that put a fixed number of edits in at once', async () => {
    const dir = tmp('noise-curve');
    const r = await runCli([
      'attack',
      'noise',
      '--model',
      DEMO_SST2,
      '--data',
      join(ROOT, 'demo', 'reviews.tsv'),
      '--limit',
      '5',
      '--out',
      dir,
      '--json',
    ]);
    expect((JSON.parse(r.stdout) as { accuracy_by_edits: unknown }).accuracy_by_edits).toBeNull();
  });
});

describe('runs of any size', () => {
  it('the report reads a run in one pass: an evenly spaced sample, successes first, counts from every line', async () => {
    const dir = tmp('big-run');
    const n = 20_000;
    const rows: string[] = [];
    let wins = 0;
    for (let i = 0; i < n; i++) {
      const win = i % 7 === 0;
      if (win) wins++;
      const pct = win ? 5 + (i % 3) * 5 : 0;
      rows.push(
        JSON.stringify({
          id: `e${i}`,
          status: win ? 'succeeded' : 'failed',
          original_correct: true,
          perturbed_correct: !win,
          perturbed_word_pct: pct,
          edits: [],
          trace: [],
          original: { text: 'x' },
          perturbed: { text: 'y' },
          original_prediction: { label: 'a', score: 1 },
          perturbed_prediction: { label: win ? 'b' : 'a', score: 1 },
          queries: 1,
          requests: 1,
          cache_hits: 0,
        }),
      );
    }
    writeFileSync(join(dir, 'results.jsonl'), rows.join('\n') + '\n');
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify({
        recipe: 'typos',
        model: 'm',
        dataset: 'd',
        n,
        succeeded: wins,
        failed: n - wins,
        skipped: 0,
        settings: {},
        clean_accuracy: 1,
        attacked_accuracy: 1 - wins / n,
        attack_success_rate: wins / n,
        stability: 1 - wins / n,
        stability_n: n,
      }),
    );
    const run = await loadRun(dir, 'big', 'big', { sampleSize: 300 });
    expect(run.results).toHaveLength(300);
    expect(run.results.filter((r) => r.status === 'succeeded')).toHaveLength(180);
    expect(run.profile).toEqual({
      examples: n,
      attacked: n,
      successByPct: [
        [5, 953],
        [10, 953],
        [15, 952],
      ],
    });
  });

  it('compact results keep what the summary needs and drop traces, probabilities and the texts of failed attacks', () => {
    const full: ExampleResult = {
      id: 'a',
      status: 'failed',
      gold: 'positive',
      field: 'text',
      original: { text: 'good film' },
      perturbed: { text: 'g00d film' },
      original_prediction: { label: 'positive', score: 0.9, probs: [0.1, 0.9] },
      perturbed_prediction: { label: 'positive', score: 0.8, probs: [0.2, 0.8] },
      original_correct: true,
      perturbed_correct: true,
      edits: [{ type: 'typo:mistype', field: 'text', wordIndex: 0, start: 0, before: 'good', after: 'g00d' }],
      num_words: 2,
      words_perturbed: 1,
      perturbed_word_pct: 50,
      queries: 9,
      requests: 9,
      cache_hits: 0,
      trace: [{ edits: 1, correct: true, done: false, score: 0.2, label: 'positive' }],
      subwords: [{ before: 'good', after: 'g00d', before_pieces: ['good'], after_pieces: ['g', '##00', '##d'] }],
    };
    const c = compactResult(full);
    expect(c).toMatchObject({
      original: {},
      perturbed: {},
      trace: [],
      edits: [],
      edit_counts: { 'typo:mistype': 1 },
      original_prediction: { label: 'positive', score: 0.9 },
    });
    expect(c.subwords).toBeUndefined();
    expect(c.original_prediction.probs).toBeUndefined();
    expect(summarize([c])).toEqual(summarize([full]));
    expect(JSON.stringify(c).length).toBeLessThan(JSON.stringify(full).length / 1.5);
    expect(compactResult({ ...full, status: 'succeeded' }).perturbed).toEqual({ text: 'g00d film' });
  });
});
