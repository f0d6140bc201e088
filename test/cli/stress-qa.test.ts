/**
 * `textstress stress qa` as a user runs it: tiny-bert-qa (random weights: its numbers mean nothing, the mechanics
 * are exact) on the committed SQuAD slice (test/fixtures/data/squad-v1.1, 89 questions) with its sibling
 * adversarial-squad slices (12 originals each, found without flags). Counts follow from the data and the cap;
 * AddSent's worst copy is checked against the model asked directly and against scoreAdversarialSquad; every
 * re-mapped gold answer is read back at its offset; Table 4 is checked row by row against summary.json.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import { loadSquad } from '../../src/data/squad.ts';
import type { QaAnswer, QaExample } from '../../src/data/types.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import type { QaDetails } from '../../src/families/stress/qa/tables.ts';
import { stressQaRecipe } from '../../src/families/stress/qa/recipe.ts';
import { openModel } from '../../src/runner/open.ts';
import { scoreAdversarialSquad } from '../../src/families/stress/qa/adversarial-squad.ts';
import { pct } from '../../src/util/format.ts';
import { fixtureData, ROOT, runCli, tmp, type CliResult } from './helpers.ts';

const TINY_QA = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-qa');
const DEV = fixtureData('squad-v1.1/dev-v1.1.json');
const ADDSENT = fixtureData('adversarial-squad/sample1k-HCVerifyAll.json');
const ADDONESENT = fixtureData('adversarial-squad/sample1k-HCVerifySample.json');
const TESTS = [
  'addsent',
  'addonesent',
  'addany',
  'addcommon',
  'addany-adaptive',
  'addcommon-adaptive',
  'noise-natural',
  'noise-swap',
  'noise-middle-random',
  'noise-fully-random',
  'noise-keyboard',
];

const lines = (dir: string): StressResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StressResult);
const summaryOf = (dir: string): StressSummary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StressSummary;
const detailsOf = (s: StressSummary): QaDetails => s.details as unknown as QaDetails;
const stable = (s: StressSummary): unknown => ({ ...s, wall_seconds: 0, process: null });
const stressQa = (args: string[]): Promise<CliResult> => runCli(['stress', 'qa', '--no-progress', ...args]);
const best = (o: { kind: string; spans?: { text: string }[] }): string => o.spans?.[0]?.text ?? '';

// The first 20 questions: 5 of them are originals of both adversarial slices; question 7 (index 6) is the first
// tiny-bert-qa answers with F1 > 0, so --adaptive-limit 7 gives the adaptive AddAny/AddCommon rows exactly one
// question. No alternative sets are given, so the paper's AddAny/AddCommon rows are n/a (test/cli/stress-qa-transfer.test.ts).
const ARGS = ['--model', TINY_QA, '--data', DEV, '--limit', '20', '--adaptive-limit', '7'];
const ADV_ORIGINALS = [
  '56be4db0acb8001400a502ee',
  '56bea9923aeaaa14008c91bb',
  '56beace93aeaaa14008c91e0',
  '56bf10f43aeaaa14008c94fd',
  '56bf10f43aeaaa14008c9500',
];
const ATTACKED = '56be8e613aeaaa14008c90d2';

describe('stress qa: tiny-bert-qa on the SQuAD slice (20 questions)', () => {
  const out = tmp('stress-qa');
  let run: CliResult;
  beforeAll(async () => {
    run = await stressQa([...ARGS, '--out', out]);
  }, 300_000);

  it('finds the adversarial files beside the data, and says so', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`AddSent file: ${ADDSENT} · AddOneSent file: ${ADDONESENT}`);
    const d = detailsOf(summaryOf(out));
    expect(d.files).toEqual({ addsent: ADDSENT, addonesent: ADDONESENT });
    expect([d.questions, d.adaptive_limit]).toEqual(['all', 7]);
  });

  it('writes one line per question; each test applies to the right questions or says why not', () => {
    const results = lines(out);
    expect(results).toHaveLength(20);
    const applied = (test: string): string[] => results.filter((r) => r.cases.some((c) => c.test === test)).map((r) => r.id);
    expect(applied('addsent')).toEqual(ADV_ORIGINALS);
    expect(applied('addonesent')).toEqual(ADV_ORIGINALS);
    expect(applied('addany')).toEqual([]);
    expect(applied('addcommon')).toEqual([]);
    expect(applied('addany-adaptive')).toEqual([ATTACKED]);
    expect(applied('addcommon-adaptive')).toEqual([ATTACKED]);
    for (const t of TESTS.slice(6)) expect([t, applied(t).length]).toEqual([t, 20]);
    const s = summaryOf(out);
    expect(Object.keys(s.tests)).toEqual(TESTS);
    expect(s.tests.addsent!.not_applicable_reasons).toEqual({ 'no adversarial copy of this question in the AddSent file': 15 });
    expect(s.tests.addany!.not_applicable_reasons).toEqual({
      'no AddAny sets from other models (give --addany-from RUN or --addany-models M)': 20,
    });
    expect(s.tests['addany-adaptive']!.not_applicable_reasons).toEqual({
      'beyond the first 7 questions of the run (--adaptive-limit)': 13,
      'the model had it wrong (F1 = 0): nothing to attack': 6,
    });
    expect(s.cases).toBe(5 + 5 + 1 + 1 + 5 * 20);
  });

  it('every case keeps the gold answers verbatim at their offsets in its edited context, edits in the context', () => {
    for (const r of lines(out)) {
      for (const c of r.cases) {
        const gold = c.perturbed_gold as QaAnswer[];
        expect(gold.map((a) => a.text)).toEqual((c.gold as QaAnswer[]).map((a) => a.text));
        for (const a of gold) expect(c.text.context!.slice(a.start, a.start + a.text.length)).toBe(a.text);
        expect(c.edits!.every((e) => e.field === 'context')).toBe(true);
        expect(c.text.context).not.toBe(r.original.text.context);
      }
    }
    const any = lines(out)
      .find((r) => r.id === ATTACKED)!
      .cases.find((c) => c.test === 'addany-adaptive')!;
    const sentence = (any.note as { distractor: string }).distractor;
    expect((any.note as { source: string }).source).toBe(detailsOf(summaryOf(out)).model_identity);
    expect(sentence.split(' ')).toHaveLength(10);
    expect(any.text.context).toBe(`${lines(out).find((r) => r.id === ATTACKED)!.original.text.context} ${sentence}`);
  });

  it('AddSent keeps the worst copy, as the model answers them, and its means equal scoreAdversarialSquad’s', async () => {
    const copies = new Map<string, QaExample[]>();
    const file: QaExample[] = [];
    for await (const e of (await loadSquad(ADDSENT)).examples()) {
      const orig = e.id.replace(/-high-conf-turk\d+$/, '');
      if (!ADV_ORIGINALS.includes(orig)) continue;
      file.push(e);
      if (orig !== e.id) copies.set(orig, [...(copies.get(orig) ?? []), e]);
    }
    const model = await openModel({ model: TINY_QA });
    try {
      const answer = async (batch: readonly QaExample[]): Promise<string[]> =>
        (await model.predict(batch.map((e) => ({ kind: 'qa' as const, question: e.question, context: e.context })))).map((o) =>
          best(o as { kind: string; spans?: { text: string }[] }),
        );
      for (const r of lines(out).filter((x) => ADV_ORIGINALS.includes(x.id))) {
        const c = r.cases.find((x) => x.test === 'addsent')!;
        const mine = copies.get(r.id)!;
        expect((c.note as { copies: number }).copies).toBe(mine.length);
        const chosen = mine.find((e) => e.id === (c.note as { copy: string }).copy)!;
        expect(c.text.context).toBe(chosen.context);
        expect(c.prediction).toBe((await answer([chosen]))[0]);
      }
      const official = await scoreAdversarialSquad(file, answer);
      const t = summaryOf(out).tests.addsent!;
      expect(t.metrics!.em!.mean).toBeCloseTo(official.adversarial!.em, 12);
      expect(t.metrics!.f1!.mean).toBeCloseTo(official.adversarial!.f1, 12);
      expect(t.metrics!.f1!.original).toBeCloseTo(official.original!.f1, 12);
    } finally {
      await model.close?.();
    }
  }, 120_000);

  it('prints Table 4 from summary.json: EM and F1 with the reduction, n/a where the original is 0', () => {
    const s = summaryOf(out);
    const d = detailsOf(s);
    const rowOf = (name: string): string | undefined =>
      run.stdout
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.replace(/\s+/g, ' ')
        .trim();
    expect(run.stdout).toContain('Table 4: EM and F1 per stress test (% reduction from the original on the same questions)');
    const ci = (iv: { low: number | null; high: number | null } | undefined): string =>
      `[${(100 * iv!.low!).toFixed(1)}, ${(100 * iv!.high!).toFixed(1)}]`;
    expect(rowOf('original')).toBe(
      `original 20 ${pct(d.original.em)} ${pct(d.original.f1)} ${ci(d.original.em_interval)} ${ci(d.original.f1_interval)}`,
    );
    // tiny-bert-qa never matches exactly: every EM reduction is over a zero original, so null.
    expect(d.table4.filter((r) => r.n > 0).every((r) => r.em === 0 && r.em_reduction === null)).toBe(true);
    const swap = d.table4.find((r) => r.test === 'noise-swap')!;
    expect(swap.f1_reduction).toBeCloseTo((swap.original_f1! - swap.f1!) / swap.original_f1!, 12);
    expect(rowOf('noise: swap')).toBe(
      `noise: swap 20 0.0% ${pct(swap.f1)} ` +
        `(${swap.f1_reduction! < 0 ? '−' : ''}${Math.abs(100 * swap.f1_reduction!).toFixed(1)}%) ` +
        `${ci(swap.em_interval)} ${ci(swap.f1_interval)} 0.0% / ${pct(swap.original_f1)} 0`,
    );
    // n and a 95% interval on every row: over the row's questions, the value its figure.
    for (const r of d.table4) {
      for (const f of ['em', 'f1'] as const) {
        const iv = r[`${f}_interval`]!;
        // EM is right or wrong per question: Wilson; F1 a bootstrap. Never a zero-width interval where n > 0.
        expect([r.test, f, iv.n, iv.value, iv.method]).toEqual([r.test, f, r.n, r[f], f === 'em' ? 'wilson' : iv.method]);
        if (r.n) expect(iv.low! <= r[f]! && r[f]! <= iv.high! && iv.high! > iv.low!).toBe(true);
      }
    }
    expect(d.original.f1_interval!.n).toBe(20);
    expect(rowOf('AddAny adaptive')).toMatch(/^AddAny adaptive \(this model; 1 it answered of the first 7\) 1 /);
    expect(d.table4.map((r) => [r.test, r.n])).toEqual(
      TESTS.map((t) => [
        t,
        t === 'addany' || t === 'addcommon' ? 0 : t.startsWith('add') ? (t.startsWith('addsent') || t === 'addonesent' ? 5 : 1) : 20,
      ]),
    );
  });

  it('the report card has the QA section (Table 4, EM chart) and QA cards with gold spans before and after', async () => {
    const html = join(tmp('stress-qa-report'), 'report.html');
    const r = await runCli(['report', out, '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    const at = page.indexOf('id="fam-stress-qa"');
    const section = page.slice(at, page.indexOf('</section>', at));
    expect([...section.matchAll(/<h[234]>([^<]+)<\/h[234]>/g)].map((m) => m[1]).slice(0, 3)).toEqual([
      'QA stress tests',
      'Table 4: EM and F1 per stress test (% reduction from the original on the same questions)',
      'EM per test',
    ]);
    const island = page.slice(
      page.indexOf('<script type="application/json" id="report-data">') + 49,
      page.indexOf('</script>', page.indexOf('id="report-data"')),
    );
    const data = JSON.parse(island) as {
      examples: { id: string; g: string; q?: { c: { s?: number }[]; ga: string[]; m: (number | null)[] } }[];
    };
    const addsent = data.examples.find((e) => e.id.endsWith(' · addsent'))!;
    expect(addsent.q!.ga).toEqual([
      'Santa Clara, California',
      "Levi's Stadium",
      "Levi's Stadium in the San Francisco Bay Area at Santa Clara, California.",
    ]);
    expect(addsent.g).toBe(addsent.q!.ga.join(' | '));
    expect(data.examples.filter((e) => e.q).length).toBe(data.examples.length);
  }, 120_000);

  it('--resume finishes an interrupted run with the same files', async () => {
    const cut = tmp('stress-qa-cut');
    cpSync(join(out, 'run.json'), join(cut, 'run.json'));
    writeFileSync(
      join(cut, 'results.jsonl'),
      readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').slice(0, 9).join('\n') + '\n{"id":"torn',
    );
    const resumed = await stressQa([...ARGS, '--out', cut, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(cut, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'results.jsonl'), 'utf8'));
    expect(stable(summaryOf(cut))).toEqual(stable(summaryOf(out)));
  }, 300_000);
});

describe('stress qa: metrics over zero questions, gate metrics, refusals', () => {
  it('a test with no question is null in summary.json, n/a in Table 4 and n/a to the gate', async () => {
    const out = tmp('stress-qa-zero');
    const r = await stressQa([
      '--model',
      TINY_QA,
      '--data',
      DEV,
      '--limit',
      '3',
      '--tests',
      'addany,addany-adaptive,noise-keyboard',
      '--adaptive-limit',
      '0',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = summaryOf(out);
    const none = { value: null, low: null, high: null, n: 0, method: 'bootstrap' };
    const noneEm = { ...none, method: 'wilson' };
    const nulls = {
      n: 0,
      not_applicable: 3,
      em: null,
      f1: null,
      original_em: null,
      original_f1: null,
      em_reduction: null,
      f1_reduction: null,
      em_interval: noneEm,
      f1_interval: none,
      em_reduction_interval: none,
      f1_reduction_interval: none,
    };
    const rows = detailsOf(s).table4;
    expect(rows.find((x) => x.test === 'addany')).toEqual({
      test: 'addany',
      title: 'AddAny',
      ...nulls,
      sets: [],
      worst_set: null,
      excluded: [],
    });
    expect(rows.find((x) => x.test === 'addany-adaptive')).toEqual({
      test: 'addany-adaptive',
      title: 'AddAny adaptive (this model; 0 it answered of the first 0)',
      ...nulls,
    });
    const line = (start: string): string =>
      r.stdout
        .split('\n')
        .find((l) => l.startsWith(start))!
        .replace(/\s+/g, ' ')
        .trim();
    expect(line('AddAny ')).toBe('AddAny 0 n/a n/a n/a n/a n/a 3');
    expect(r.stdout).toContain('AddAny: n/a, no set from another model');
    expect(r.stdout).toContain('AddAny: 3 (no AddAny sets from other models (give --addany-from RUN or --addany-models M))');
    const m = stressQaRecipe.metrics!;
    const asRecord = s as unknown as Record<string, unknown>;
    expect(m.qa_addany_em!.read(asRecord)).toBeNull();
    expect(m.qa_addany_adaptive_em!.read(asRecord)).toBeNull();
    expect(m.qa_addany_f1_reduction!.read(asRecord)).toBeNull();
    expect(m.qa_addsent_em!.read(asRecord)).toBeUndefined();
    expect(m.qa_noise_keyboard_f1!.read(asRecord)).toBe(detailsOf(s).table4.find((x) => x.test === 'noise-keyboard')!.f1);
  }, 120_000);

  it('in a suite, the gate reads the QA metrics: pass, fail, n/a and not reported', async () => {
    const dir = tmp('qa-suite');
    const suite = join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      // 4 questions: min_n 4 lets the checks be judged (below min_n each would be inconclusive).
      `models:\n  tiny: ${TINY_QA}\ndatasets:\n  slice: { path: ${DEV}, limit: 4 }\nmin_n: 4\ntests:\n  - name: qa\n    recipe: stress-qa\n` +
        '    settings: { tests: [addany, noise-swap], adaptive_limit: 0 }\n' +
        '    thresholds: [qa_original_f1 >= 0, qa_noise_swap_em < 0.5, qa_addany_f1 < 1, qa_addsent_em > 0]\n',
    );
    const out = join(dir, 'out');
    const r = await runCli(['run', suite, '--out', out]);
    expect(r.code).toBe(1);
    const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as {
      checks: { expr: string; passed: boolean; message: string }[];
    };
    expect(verdict.checks.map((c) => [c.expr, c.passed])).toEqual([
      ['qa_original_f1 >= 0', true],
      ['qa_noise_swap_em < 0.5', true],
      ['qa_addany_f1 < 1', false],
      ['qa_addsent_em > 0', false],
    ]);
    expect(verdict.checks[2]!.message).toBe(
      'qa: qa_addany_f1 < 1 — qa_addany_f1 is n/a: it is taken over zero cases (the test applied to none of the 4 ' +
        'examples, or the original accuracy it is measured against is 0)',
    );
    expect(verdict.checks[3]!.message).toBe('qa: qa_addsent_em > 0 — qa_addsent_em is not reported by this run');
  }, 120_000);

  it('refuses a missing --addsent file and --questions adversarial without the files', async () => {
    const r = await stressQa(['--model', TINY_QA, '--data', DEV, '--addsent', 'nope.json', '--out', tmp('stress-qa-nope')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--addsent nope.json: no such file.');
    const alone = tmp('stress-qa-alone');
    cpSync(DEV, join(alone, 'dev.json'));
    const q = await stressQa([
      '--model',
      TINY_QA,
      '--data',
      join(alone, 'dev.json'),
      '--questions',
      'adversarial',
      '--out',
      join(alone, 'out'),
    ]);
    expect(q.code).toBe(1);
    expect(q.stderr).toContain(
      '--questions adversarial: neither sample1k-HCVerifyAll.json nor sample1k-HCVerifySample.json was found beside',
    );
  }, 120_000);
});
