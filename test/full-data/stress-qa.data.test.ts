/**
 * `textstress stress qa` with models/demo-squad on the real SQuAD v1.1 dev file and Jia & Liang's adversarial
 * files (found beside it in ../shared/data). Honest checks only: the original EM/F1 on the adversarial files'
 * 1,000 originals equal the held-out figures the model's metrics.json records (they are its held-out set);
 * counts that must add up (AddSent applies to exactly the originals that have copies in the file); reductions
 * equal (original − test) / original on the same questions; every re-mapped answer at its offset; AddAny and
 * AddCommon only on questions with F1 > 0 within the cap. No ordering between the tests is assumed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import type { QaAnswer } from '../../src/data/types.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import type { QaDetails } from '../../src/families/stress/qa/tables.ts';
import { ROOT, runCli, tmp, type CliResult } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

const DEV = shared('squad-v1.1/dev-v1.1.json');
const ADDSENT = shared('adversarial-squad/sample1k-HCVerifyAll.json');
const heldout = (
  JSON.parse(readFileSync(join(ROOT, 'models', 'demo-squad', 'metrics.json'), 'utf8')) as {
    metrics: { heldout_originals: { n: number; exact_match: number; f1: number } };
  }
).metrics.heldout_originals;
const lines = (dir: string): StressResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StressResult);
const summaryOf = (dir: string): StressSummary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StressSummary;
const detailsOf = (s: StressSummary): QaDetails => s.details as unknown as QaDetails;

/** Originals of the AddSent file with at least one -high-conf-turkN copy. */
function originalsWithCopies(): Set<string> {
  const doc = JSON.parse(readFileSync(ADDSENT, 'utf8')) as { data: { paragraphs: { qas: { id: string }[] }[] }[] };
  const ids = doc.data.flatMap((a) => a.paragraphs.flatMap((p) => p.qas.map((q) => q.id)));
  return new Set(ids.filter((id) => /-high-conf-turk\d+$/.test(id)).map((id) => id.replace(/-high-conf-turk\d+$/, '')));
}

function checkRows(d: QaDetails): void {
  for (const r of d.table4) {
    if (r.n === 0) {
      expect([r.test, r.em, r.f1, r.em_reduction]).toEqual([r.test, null, null, null]);
      continue;
    }
    for (const x of [r.em, r.f1, r.original_em, r.original_f1]) expect(x!).toBeGreaterThanOrEqual(0);
    if (r.original_f1) expect(r.f1_reduction!).toBeCloseTo((r.original_f1 - r.f1!) / r.original_f1, 12);
    if (r.original_em) expect(r.em_reduction!).toBeCloseTo((r.original_em - r.em!) / r.original_em, 12);
  }
}

describe('stress qa with demo-squad on the adversarial files’ 1,000 originals (AddSent, fully-random noise)', () => {
  const out = tmp('stress-qa-full');
  let run: CliResult;
  beforeAll(async () => {
    run = await runCli([
      'stress',
      'qa',
      '--model',
      'models/demo-squad',
      '--data',
      DEV,
      '--questions',
      'adversarial',
      '--tests',
      'addsent,noise-fully-random',
      '--out',
      out,
      '--no-progress',
    ]);
  }, 1_200_000);

  it('scores the held-out originals exactly as the model’s metrics.json records them', () => {
    expect(run.code, run.stderr).toBe(0);
    const d = detailsOf(summaryOf(out));
    expect(d.original.n).toBe(heldout.n);
    expect(Math.round(d.original.em! * 1e4) / 1e4).toBe(heldout.exact_match);
    expect(Math.round(d.original.f1! * 1e4) / 1e4).toBe(heldout.f1);
    expect(d.files.addsent).toBe(ADDSENT);
  });

  it('AddSent applies to the originals with copies, noise to every question; the rows add up', () => {
    const s = summaryOf(out);
    const withCopies = originalsWithCopies();
    const results = lines(out);
    expect(results.filter((r) => r.cases.some((c) => c.test === 'addsent')).map((r) => r.id)).toEqual(
      results.map((r) => r.id).filter((id) => withCopies.has(id)),
    );
    expect(s.tests.addsent!.n + s.tests.addsent!.not_applicable).toBe(1000);
    expect(s.tests['noise-fully-random']!.n).toBe(1000);
    checkRows(detailsOf(s));
    for (const r of results) {
      for (const c of r.cases)
        for (const a of c.perturbed_gold as QaAnswer[]) expect(c.text.context!.slice(a.start, a.start + a.text.length)).toBe(a.text);
    }
  });
});

describe('stress qa with demo-squad: the adaptive AddAny and AddCommon rows on the first 150 dev questions', () => {
  it('run on the questions with F1 > 0 among the first 20, each with a 10-word distractor appended', async () => {
    const out = tmp('stress-qa-full-addany');
    const run = await runCli([
      'stress',
      'qa',
      '--model',
      'models/demo-squad',
      '--data',
      DEV,
      '--limit',
      '150',
      '--tests',
      'addany-adaptive,addcommon-adaptive',
      '--adaptive-limit',
      '20',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const results = lines(out);
    const right = results
      .slice(0, 20)
      .filter((r) => r.original.metrics!.f1! > 0)
      .map((r) => r.id);
    for (const test of ['addany-adaptive', 'addcommon-adaptive']) {
      const got = results.filter((r) => r.cases.some((c) => c.test === test));
      expect(got.map((r) => r.id)).toEqual(right);
      for (const r of got) {
        const c = r.cases.find((x) => x.test === test)!;
        const sentence = (c.note as { distractor: string }).distractor;
        expect(sentence.slice(0, -1).split(' ')).toHaveLength(10);
        expect(c.text.context).toBe(`${r.original.text.context} ${sentence}`);
      }
    }
    checkRows(detailsOf(summaryOf(out)));
    expect(run.stdout).toContain('Table 4: EM and F1 per stress test');
  }, 1_200_000);
});
