/**
 * The paper's AddAny / AddCommon rows (Jia & Liang 2017, Table 4: "the worst accuracy after running against all the
 * alternative adversarial datasets of that type; adversaries generated for the model itself are excluded") on the
 * real demo-squad over the first 8 questions of the SQuAD slice. Run A searches AddAny/AddCommon adversaries
 * against tiny-bert-qa (another model: random weights, a different folder digest) with seed 1; run B, the one
 * checked, takes A's sets (--addany-from), searches tiny-bert-qa again with seed 2 (a second set from another
 * model) and names a copy of demo-squad in another folder as a source, which must be left out by its identity,
 * not its path. B's rows are checked against demo-squad asked directly on every set's paragraphs: the worst set by
 * F1, over the same 8 questions as the noise row. Run C, on tiny-bert-qa, must leave A's sets out (made against
 * it) and say the row is n/a.
 */
import { cpSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import { bestOverGold } from '../../src/data/answers.ts';
import type { QaAnswer } from '../../src/data/types.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import type { QaDetails, Table4Row } from '../../src/families/stress/qa/tables.ts';
import { openModel } from '../../src/runner/open.ts';
import { stressQaFamily } from '../../src/families/stress/qa/report.ts';
import { fixtureData, ROOT, runCli, tmp, type CliResult } from './helpers.ts';

const DEMO_SQUAD = join(ROOT, 'models', 'demo-squad');
const TINY_QA = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-qa');
const DEV = fixtureData('squad-v1.1/dev-v1.1.json');
const BASE = ['--data', DEV, '--limit', '8', '--no-progress'];

const lines = (dir: string): StressResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StressResult);
const detailsOf = (dir: string): QaDetails =>
  (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StressSummary).details as unknown as QaDetails;
const row = (d: QaDetails, test: string): Table4Row => d.table4.find((r) => r.test === test)!;
const best = (o: { kind: string; spans?: { text: string }[] }): string => o.spans?.[0]?.text ?? '';

describe('stress qa: AddAny/AddCommon as in Table 4, on demo-squad (8 questions)', () => {
  const root = tmp('stress-qa-transfer');
  const copy = join(root, 'elsewhere', 'my-qa-model');
  const [a, b, c, d] = ['run-a', 'run-b', 'run-c', 'run-d'].map((x) => join(root, x)) as [string, string, string, string];
  const runs: Record<string, CliResult> = {};
  let demo: ModelAdapter;
  beforeAll(async () => {
    cpSync(DEMO_SQUAD, copy, { recursive: true });
    const qa = (args: string[]): Promise<CliResult> => runCli(['stress', 'qa', ...BASE, ...args]);
    runs.a = await qa(['--model', DEMO_SQUAD, '--tests', 'addany,addcommon', '--addany-models', TINY_QA, '--seed', '1', '--out', a]);
    runs.b = await qa([
      '--model',
      DEMO_SQUAD,
      '--tests',
      'addany,addcommon,addany-adaptive,noise-swap',
      '--adaptive-limit',
      '8',
      '--addany-from',
      a,
      '--addany-models',
      `${TINY_QA},${copy}`,
      '--seed',
      '2',
      '--out',
      b,
    ]);
    runs.c = await qa(['--model', TINY_QA, '--tests', 'addany', '--addany-from', a, '--out', c]);
    // 10 questions against A's sets of 8: the last 2 are in no set.
    runs.d = await runCli([
      'stress',
      'qa',
      '--data',
      DEV,
      '--limit',
      '10',
      '--no-progress',
      '--model',
      DEMO_SQUAD,
      '--tests',
      'addany',
      '--addany-from',
      a,
      '--out',
      d,
    ]);
    demo = await openModel({ model: DEMO_SQUAD });
  }, 240_000);
  afterAll(async () => demo?.close?.());

  it('the runs finish; each names the model under test by its folder digest, the same for the copy', () => {
    for (const [k, r] of Object.entries(runs)) expect([k, r.code, r.stderr]).toEqual([k, 0, '']);
    expect(Object.keys(runs)).toEqual(['a', 'b', 'c', 'd']);
    expect(detailsOf(a).model_identity).toMatch(/^demo-squad#[0-9a-f]{16}$/);
    expect(detailsOf(b).model_identity).toBe(detailsOf(a).model_identity);
    expect(detailsOf(c).model_identity).toMatch(/^tiny-bert-qa#[0-9a-f]{16}$/);
  });

  it('B: two sets from tiny-bert-qa (A’s, seed 1, and its own, seed 2) used; the copy of demo-squad left out by identity', () => {
    const d = detailsOf(b);
    const tiny = detailsOf(c).model_identity!;
    for (const test of ['addany', 'addcommon']) {
      const r = row(d, test);
      expect(r.title).toBe(test === 'addany' ? 'AddAny' : 'AddCommon');
      expect(r.sets!.map((s) => [s.name, s.n])).toEqual([
        [`${tiny} @ ${basename(a)}`, 8],
        [`${tiny} @ this run`, 8],
      ]);
      // The copy's identity names its own folder but has demo-squad's digest: left out.
      const copyId = `my-qa-model#${d.model_identity!.split('#')[1]}`;
      expect(r.excluded).toEqual([
        { name: `${copyId} @ this run`, source: copyId, origin: `this run (${copy})`, why: 'generated against the model under test' },
      ]);
      // Over the same questions as the other rows: every question, as the noise row.
      expect([r.n, r.not_applicable]).toEqual([row(d, 'noise-swap').n, 0]);
      expect(r.f1_interval!.n).toBe(8);
    }
    expect(runs.b!.stdout).toContain(
      `left out: my-qa-model#${d.model_identity!.split('#')[1]} @ this run (generated against the model under test)`,
    );
  });

  it('B: the row is the worst set by F1, as demo-squad answers each set’s paragraphs asked directly', async () => {
    const d = detailsOf(b);
    const fromA = new Map(lines(a).map((r) => [r.id, r.cases.find((x) => x.test === 'addany')!.text.context]));
    for (const test of ['addany', 'addcommon'] as const) {
      const r = row(d, test);
      const per = new Map<string, { em: number; f1: number }[]>();
      for (const line of lines(b)) {
        const cases = line.cases.filter((x) => x.test === test);
        expect(cases.map((x) => x.variant)).toEqual(r.sets!.map((s) => s.name));
        // A's adversaries are taken as A wrote them (AddAny: checked against A's own file).
        if (test === 'addany') expect(cases[0]!.text.context).toBe(fromA.get(line.id));
        expect(cases[0]!.text.context).not.toBe(cases[1]!.text.context);
        const outs = await demo.predict(cases.map((x) => ({ kind: 'qa', question: x.text.question!, context: x.text.context! })));
        cases.forEach((x, i) => {
          const got = bestOverGold(
            best(outs[i] as { kind: string; spans?: { text: string }[] }),
            (x.gold as QaAnswer[]).map((g) => g.text),
          );
          expect(x.prediction).toBe(best(outs[i] as { kind: string; spans?: { text: string }[] }));
          per.set(x.variant, [...(per.get(x.variant) ?? []), got]);
        });
      }
      const means = [...per].map(([name, v]) => ({
        name,
        em: v.reduce((s, x) => s + x.em, 0) / v.length,
        f1: v.reduce((s, x) => s + x.f1, 0) / v.length,
      }));
      const worst = means.reduce((w, m) => (m.f1 < w.f1 || (m.f1 === w.f1 && m.em < w.em) ? m : w));
      expect(r.worst_set).toBe(worst.name);
      expect(r.f1).toBeCloseTo(worst.f1, 12);
      expect(r.em).toBeCloseTo(worst.em, 12);
      for (const m of means) expect(r.f1! <= m.f1 + 1e-12).toBe(true);
      expect(r.sets!.map((s) => [s.name, s.f1])).toEqual(means.map((m) => [m.name, expect.closeTo(m.f1, 12)]));
    }
  }, 60_000);

  it('B: the report draws the AddAny bar at the worst set’s EM, not the mean over every set', () => {
    const summary = JSON.parse(readFileSync(join(b, 'summary.json'), 'utf8')) as StressSummary;
    const section = stressQaFamily.stressSection!([{ slot: 'stress', dir: b, name: 'b', group: 'b', summary, sample: [] }]);
    const values = (section.charts[0]!.spec as { data: { values: { test: string; accuracy: number }[] } }).data.values;
    const r = row(detailsOf(b), 'addany');
    const worst = summary.tests.addany!.variants![r.worst_set!]!;
    expect(values.find((v) => v.test === 'AddAny')!.accuracy).toBe(worst.accuracy);
    expect(section.tables[0]!.rows.map((x) => x[0])).toContain('AddAny');
  });

  it('B: the adaptive search against demo-squad is its own row, its base in its label', () => {
    const r = row(detailsOf(b), 'addany-adaptive');
    expect(r.title).toBe(`AddAny adaptive (this model; ${r.n} it answered of the first 8)`);
    const attacked = lines(b).filter((l) => l.cases.some((x) => x.test === 'addany-adaptive'));
    expect(attacked.map((l) => l.original.metrics!.f1! > 0)).toEqual(attacked.map(() => true));
    expect(r.n).toBe(attacked.length);
    expect(lines(b).filter((l) => l.original.metrics!.f1! > 0).length).toBe(r.n);
  });

  it('C: on tiny-bert-qa, A’s sets were made against it: left out, and the row is n/a with the reason', () => {
    const r = row(detailsOf(c), 'addany');
    expect([r.n, r.em, r.f1, r.worst_set, r.sets]).toEqual([0, null, null, null, []]);
    expect(r.excluded!.map((x) => [x.source, x.why])).toEqual([[detailsOf(c).model_identity, 'generated against the model under test']]);
    expect(runs.c!.stdout).toContain(
      'AddAny: 8 (every AddAny set given was generated against this model (left out, as in the paper): no set from another model)',
    );
  });

  it('D: a question missing from a set is not applicable, so every set is scored on the same questions', () => {
    const r = row(detailsOf(d), 'addany');
    expect([r.n, r.not_applicable, r.sets!.map((x) => x.n)]).toEqual([8, 2, [8]]);
    expect(runs.d!.stdout).toContain(`AddAny: 2 (no adversary for this question in the set ${r.sets![0]!.name})`);
  });

  it('refuses an --addany-from that is not there, naming it', async () => {
    const r = await runCli([
      'stress',
      'qa',
      ...BASE,
      '--model',
      DEMO_SQUAD,
      '--tests',
      'addany',
      '--addany-from',
      join(root, 'nope'),
      '--out',
      join(root, 'x'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--addany-from ${join(root, 'nope')}: no such folder or file.`);
  }, 60_000);
});
