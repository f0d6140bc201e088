/**
 * QA through the CLI: typos and noise on the question of SQuAD v1.1 examples, with the random-weight
 * tiny-bert-qa fixture. The model's answers mean nothing, so these tests check mechanics only — fields, counts,
 * consistency between results, summary and eval, byte-identical reruns and resume — never quality.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { ROOT, fixtureData, readJson, readJsonl, runCli, stable, tmp } from './helpers.ts';

const MODEL = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-qa');
/** Two articles of SQuAD v1.1 dev (89 questions). */
const SQUAD = fixtureData('squad-v1.1/dev-v1.1.json');
const LIMIT = 30;

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const typosArgs = (out: string, extra: string[] = []): string[] => [
  'attack',
  'typos',
  '--model',
  MODEL,
  '--data',
  SQUAD,
  '--k',
  '1',
  '--target',
  'max',
  '--limit',
  String(LIMIT),
  '--seed',
  '1',
  '--out',
  out,
  '--no-progress',
  ...extra,
];

/** What every QA run must hold, whatever the model answers. */
function checkRun(out: string): { summary: Record<string, unknown>; results: ExampleResult[] } {
  const summary = readJson(join(out, 'summary.json'));
  const results = readJsonl(join(out, 'results.jsonl'));
  expect(results).toHaveLength(LIMIT);
  expect(summary.n).toBe(LIMIT);
  expect((summary.succeeded as number) + (summary.failed as number) + (summary.skipped as number)).toBe(LIMIT);
  for (const key of ['clean_em', 'clean_f1', 'attacked_em', 'attacked_f1']) expect(typeof summary[key], key).toBe('number');
  expect(summary.attacked_f1 as number).toBeLessThanOrEqual(summary.clean_f1 as number);
  expect(summary.attacked_em as number).toBeLessThanOrEqual(summary.clean_em as number);
  // The summary is the mean of the per-question scores in results.jsonl.
  expect(summary.clean_f1).toBeCloseTo(mean(results.map((r) => r.original_prediction.f1!)), 12);
  expect(summary.attacked_f1).toBeCloseTo(mean(results.map((r) => r.perturbed_prediction.f1!)), 12);
  expect(summary.clean_em).toBeCloseTo(mean(results.map((r) => r.original_prediction.em!)), 12);
  expect(summary.clean_accuracy).toBeCloseTo(results.filter((r) => r.original_prediction.f1! > 0).length / LIMIT, 12);
  for (const r of results) {
    expect(r.field).toBe('question');
    // Only the question is edited; the answers are spans of the unchanged context.
    expect(r.perturbed.context).toBe(r.original.context);
    for (const p of [r.original_prediction, r.perturbed_prediction]) {
      const context = r.original.context as string;
      expect(p.answer, r.id).toBeDefined();
      expect(context.slice(p.answer!.start, p.answer!.end)).toBe(p.answer!.text);
      expect(p.label).toBe(p.answer!.text);
    }
    for (const e of r.edits) expect(e.field).toBe('question');
    if (r.status === 'skipped') expect(r.original_prediction.f1).toBe(0);
    if (r.status === 'succeeded') {
      expect(r.original_prediction.f1!).toBeGreaterThan(0);
      expect(r.perturbed_prediction.f1).toBe(0);
      expect(r.perturbed.question).not.toBe(r.original.question);
    }
  }
  return { summary, results };
}

describe('textstress attack typos on a QA model (tiny-bert-qa, random weights) over SQuAD v1.1', () => {
  const out = tmp('qa-typos');
  let stdout = '';
  beforeAll(async () => {
    const r = await runCli(typosArgs(out));
    expect(r.code, r.stderr).toBe(0);
    stdout = r.stdout;
  });

  it('edits the question with one typo and reports EM/F1 before and after', () => {
    const { summary, results } = checkRun(out);
    expect(summary).toMatchObject({ recipe: 'typos', complete: true, seed: 1 });
    expect(summary.settings).toMatchObject({ k: 1, target: 'max' });
    for (const r of results) expect(r.edits.length).toBeLessThanOrEqual(1);
    // Occlusion ranking and the search ran on the examples the model had (partly) right.
    expect(results.filter((r) => r.status !== 'skipped').every((r) => r.queries > 1)).toBe(true);
    expect(stdout).toMatch(/clean EM\s+│\s+\d+\.\d% \[\d+\.\d–\d+\.\d\]/);
    expect(stdout).toMatch(/clean F1\s+│\s+\d+\.\d% \[\d+\.\d–\d+\.\d\]/);
    expect(stdout).toMatch(/F1 under attack/);
    // The examples of successful attacks show the answers before → after with their scores, and the gold answers.
    expect(stdout).toMatch(/: answer “[^”]+” \(EM [01], F1 (0\.\d\d|1\.00)\) → (“[^”]*”|\(no answer\)) \(EM 0, F1 0\.00\)\n {4}gold: {3}“/);
  });

  it('writes byte-identical results.jsonl on a rerun with the same seed', async () => {
    const again = tmp('qa-typos-again');
    const r = await runCli(typosArgs(again));
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(again, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'results.jsonl'), 'utf8'));
  });

  it('resumes an interrupted run to the same results and summary', async () => {
    const cut = tmp('qa-typos-cut');
    cpSync(out, cut, { recursive: true });
    const lines = readFileSync(join(cut, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(join(cut, 'results.jsonl'), lines.slice(0, 12).join('\n') + '\n');
    rmSync(join(cut, 'summary.json'));
    const state = readJson(join(cut, 'run.json'));
    writeFileSync(join(cut, 'run.json'), JSON.stringify({ ...state, status: 'running' }));
    const r = await runCli(typosArgs(cut, ['--resume']));
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(cut, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'results.jsonl'), 'utf8'));
    const resumed = readJson(join(cut, 'summary.json'));
    expect(stable(resumed)).toEqual(stable(readJson(join(out, 'summary.json'))));
    // Only the 18 missing examples were worked on.
    const requests = (s: Record<string, unknown>): number => (s.process as { requests: number }).requests;
    expect(requests(resumed)).toBeLessThan(requests(readJson(join(out, 'summary.json'))));
  });

  it('eval gives the clean EM/F1 and accuracy the attack summary reports', async () => {
    const r = await runCli(['eval', '--model', MODEL, '--data', SQUAD, '--limit', String(LIMIT), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const metrics = JSON.parse(r.stdout) as Record<string, number>;
    const summary = readJson(join(out, 'summary.json'));
    expect(metrics.n).toBe(LIMIT);
    expect(metrics.exact_match).toBeCloseTo(summary.clean_em as number, 12);
    expect(metrics.f1).toBeCloseTo(summary.clean_f1 as number, 12);
    expect(metrics.accuracy).toBeCloseTo(summary.clean_accuracy as number, 12);
    const table = await runCli(['eval', '--model', MODEL, '--data', SQUAD, '--limit', '5']);
    expect(table.stdout).toMatch(/exact match \(EM\)/);
    expect(table.stdout).toMatch(/answers with F1 > 0/);
  });
});

describe('textstress attack noise on a QA model (tiny-bert-qa, random weights)', () => {
  it('puts noise in every question word at once and reports EM/F1 before and after', async () => {
    const out = tmp('qa-noise');
    const r = await runCli([
      'attack',
      'noise',
      '--model',
      MODEL,
      '--data',
      SQUAD,
      '--noise',
      'swap',
      '--limit',
      String(LIMIT),
      '--seed',
      '1',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { summary, results } = checkRun(out);
    expect(summary).toMatchObject({ recipe: 'noise', accuracy_by_edits: null });
    // One query for the clean question, one for the noisy one (skipped examples stop after the first).
    for (const r of results) expect(r.queries).toBe(r.status === 'skipped' ? 1 : 2);
    expect(results.some((r) => r.status !== 'skipped' && r.edits.length > 1)).toBe(true);
  });
});
