/**
 * `textstress stress nli` as a user runs it: the 3-way demo-sick model (a real trained model) on the committed
 * SICK slice (114 TEST pairs), and a 2-way pair model (random weights, labels entailment / not_entailment) on the
 * QNLI slice. Counts are exact (they follow from the rules); every accuracy, reduction and confusion share of
 * summary.json is recomputed from results.jsonl; the printed Table 2 is checked row by row against the summary.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StressResult } from '../../src/core/stress-suite.ts';
import type { StressSummary } from '../../src/metrics/stress-summary.ts';
import { openModel } from '../../src/runner/open.ts';
import { ciText } from '../../src/families/stress/nli/tables.ts';
import { wilson, type Interval } from '../../src/stats/index.ts';
import { pct } from '../../src/util/format.ts';
import { fixtureData, ROOT, runCli, tmp, type CliResult } from './helpers.ts';

const DEMO_SICK = join(ROOT, 'models', 'demo-sick');
const SICK = fixtureData('sick/SICK.txt');
const QNLI = fixtureData('qnli/dev.tsv');
const TESTS = ['word-overlap', 'negation', 'length-mismatch', 'tautology', 'spelling', 'antonymy', 'numerical', 'premise-removed'];

const lines = (dir: string): StressResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StressResult);
const summaryOf = (dir: string): StressSummary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StressSummary;
const stable = (s: StressSummary): unknown => ({ ...s, wall_seconds: 0, process: null });
const stressNli = (args: string[]): Promise<CliResult> => runCli(['stress', 'nli', '--no-progress', ...args]);

/** Per test, recomputed from the result lines: cases, correct, originals right, gold → prediction counts. */
function recount(results: StressResult[]) {
  const t: Record<
    string,
    { n: number; correct: number; orig: number; pairs: number; na: number; conf: Record<string, Record<string, number>> }
  > = {};
  for (const r of results) {
    const seen = new Set<string>();
    for (const c of r.cases) {
      const x = (t[c.test] ??= { n: 0, correct: 0, orig: 0, pairs: 0, na: 0, conf: {} });
      x.n++;
      if (c.correct) x.correct++;
      if (r.original.correct) x.orig++;
      if (!seen.has(c.test)) x.pairs++;
      seen.add(c.test);
      const row = (x.conf[String(c.gold)] ??= {});
      row[c.prediction] = (row[c.prediction] ?? 0) + 1;
    }
    for (const test of Object.keys(r.not_applicable)) (t[test] ??= { n: 0, correct: 0, orig: 0, pairs: 0, na: 0, conf: {} }).na++;
  }
  return t;
}

describe('stress nli: demo-sick (3-way) on the SICK slice, 114 TEST pairs', () => {
  const out = tmp('stress-nli-sick');
  let run: CliResult;
  beforeAll(async () => {
    run = await stressNli(['--model', DEMO_SICK, '--data', SICK, '--split', 'TEST', '--out', out]);
  }, 180_000);

  it('writes one result line per pair: every case with its test, text, gold, prediction and correct', () => {
    expect(run.code, run.stderr).toBe(0);
    const results = lines(out);
    expect(results).toHaveLength(114);
    const first = results[0]!;
    expect(first.id).toBe('6');
    expect(first.original.text).toEqual({
      premise: 'There is no boy playing outdoors and there is no man smiling',
      hypothesis: 'A group of kids is playing in a yard and an old man is standing in the background',
    });
    expect(first.original.gold).toBe('neutral');
    expect(first.cases.map((c) => c.variant)).toEqual([
      'word-overlap',
      'negation',
      'length-mismatch',
      ...['premise', 'hypothesis'].flatMap((side) => [1, 2, 3, 4, 5].map((n) => `tautology-${side}-${n}`)),
      'spelling-swap',
      'premise-removed',
    ]);
    const negation = first.cases.find((c) => c.test === 'negation')!;
    expect(negation.text.hypothesis).toBe(
      'A group of kids is playing in a yard and an old man is standing in the background and false is not true',
    );
    expect(Object.keys(negation).sort()).toEqual(['confidence', 'correct', 'edits', 'gold', 'prediction', 'test', 'text', 'variant']);
    // "There is no … man smiling": a negated premise gets no antonymy pair ("no woman smiling" would not contradict it).
    expect(first.not_applicable).toEqual({
      antonymy: 'no adjective or noun of the premise has a WordNet antonym in its sense and context',
      numerical: 'no count of two or more before a noun in the premise',
    });
    // Competence golds are the rules': antonymy is always contradiction.
    expect(new Set(results.flatMap((r) => r.cases.filter((c) => c.test === 'antonymy').map((c) => c.gold)))).toEqual(
      new Set(['contradiction']),
    );
  });

  it('numerical reasoning has entailed, contradicting and neutral cases (Naik et al. §4.2); neutral = the entailed pair turned round', () => {
    const numerical = lines(out).flatMap((r) => r.cases.filter((c) => c.test === 'numerical'));
    const golds = (variant: string) => [...new Set(numerical.filter((c) => c.variant === variant).map((c) => c.gold))];
    expect(
      Object.fromEntries(['entailment', 'contradiction', 'neutral'].map((g) => [g, numerical.filter((c) => c.gold === g).length])),
    ).toEqual({ entailment: 41, contradiction: 90, neutral: 41 });
    expect([golds('numerical-at-least-reversed'), golds('numerical-more-than-less-reversed')]).toEqual([['neutral'], ['neutral']]);
    const turned = numerical.find((c) => c.variant === 'numerical-at-least-reversed')!;
    const entailed = lines(out)
      .flatMap((r) => r.cases)
      .find((c) => c.variant === 'numerical-at-least' && c.text.premise === turned.text.hypothesis)!;
    expect([turned.text.premise, turned.text.hypothesis]).toEqual([entailed.text.hypothesis, entailed.text.premise]);
    expect(turned.edits).toEqual([{ ...entailed.edits![0], field: 'premise' }]);
  });

  it('each case’s prediction is what the model answers when asked directly', async () => {
    const model = await openModel({ model: DEMO_SICK });
    try {
      const cases = lines(out)
        .slice(0, 3)
        .flatMap((r) => r.cases.map((c) => c));
      const outputs = await model.predict(cases.map((c) => ({ kind: 'pair', textA: c.text.premise!, textB: c.text.hypothesis! })));
      const answers = outputs.map((o) => (o.kind === 'classes' ? o.labels[o.probs.indexOf(Math.max(...o.probs))] : ''));
      expect(answers).toEqual(cases.map((c) => c.prediction));
    } finally {
      await model.close?.();
    }
  }, 60_000);

  it('summary.json: counts follow from the rules; accuracy, reduction and confusion agree with the result lines', () => {
    const s = summaryOf(out);
    const results = lines(out);
    expect(s).toMatchObject({
      kind: 'stress',
      recipe: 'stress-nli',
      n: 114,
      cases: 1923,
      settings: { split: 'TEST', tests: TESTS, scheme: 'auto', maxTautologies: 5 },
    });
    const counted = recount(results);
    const origRight = results.filter((r) => r.original.correct).length;
    expect(s.original).toMatchObject({ n: 114, correct: origRight, accuracy: origRight / 114 });
    expect(Object.keys(s.tests)).toEqual(TESTS);
    expect(Object.fromEntries(TESTS.map((t) => [t, [s.tests[t]!.examples, s.tests[t]!.n, s.tests[t]!.not_applicable]]))).toEqual({
      'word-overlap': [114, 114, 0],
      negation: [114, 114, 0],
      'length-mismatch': [114, 114, 0],
      tautology: [114, 1140, 0],
      spelling: [114, 114, 0],
      antonymy: [41, 41, 73],
      numerical: [30, 172, 84],
      'premise-removed': [114, 114, 0],
    });
    for (const test of TESTS) {
      const t = s.tests[test]!;
      const c = counted[test]!;
      expect([test, t.correct, t.accuracy, t.original_accuracy]).toEqual([test, c.correct, c.correct / c.n, c.orig / c.n]);
      // The competence tests' golds are the rules': no reduction (the paper gives none).
      if (test === 'antonymy' || test === 'numerical') expect([test, t.reduction, t.reduction_interval]).toEqual([test, null, undefined]);
      else expect(t.reduction).toBeCloseTo((c.orig - c.correct) / c.orig, 12);
      for (const [gold, row] of Object.entries(c.conf)) {
        const n = Object.values(row).reduce((a, b) => a + b, 0);
        expect(t.confusion![gold]).toEqual({
          n,
          predicted: Object.fromEntries(
            Object.entries(row)
              .sort()
              .map(([p, k]) => [p, k / n]),
          ),
        });
      }
    }
    const d = s.details as {
      scheme: string;
      premise: string;
      hypothesis: string;
      sweep: { premise: { n: number; cases: number }[] };
      premise_removed: { majority: { label: string; rate: number }; over_majority: number };
    };
    expect([d.scheme, d.premise, d.hypothesis]).toEqual(['3-way', 'sentence_A', 'sentence_B']);
    expect(d.sweep.premise.map((p) => [p.n, p.cases])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 114]));
    // Length mismatch is five tautologies on the premise: the same pairs, so the same accuracy as the sweep's N = 5.
    expect((d.sweep.premise[4] as unknown as { accuracy: number }).accuracy).toBe(s.tests['length-mismatch']!.accuracy);
    const golds = results.map((r) => r.original.gold as string);
    const top = ['contradiction', 'entailment', 'neutral'].map((l) => golds.filter((g) => g === l).length);
    expect(d.premise_removed.majority).toEqual({ label: 'neutral', rate: Math.max(...top) / 114 });
    expect(d.premise_removed.over_majority).toBeCloseTo(s.tests['premise-removed']!.accuracy! - Math.max(...top) / 114, 12);
  });

  it('max_reduction ignores the competence tests; the gate has no reduction metric for them', async () => {
    const s = summaryOf(out);
    const distraction = ['word-overlap', 'negation', 'length-mismatch', 'tautology', 'spelling'];
    const top = distraction.reduce((a, t) => (s.tests[t]!.reduction! > s.tests[a]!.reduction! ? t : a));
    expect(s.max_reduction).toEqual({ test: top, reduction: s.tests[top]!.reduction });
    expect(s.intervals!.max_reduction).toEqual(s.tests[top]!.reduction_interval);
    const { stressNliRecipe } = await import('../../src/families/stress/nli/recipe.ts');
    const metrics = Object.keys(stressNliRecipe.metrics ?? {});
    expect(metrics.filter((k) => k.endsWith('_reduction')).sort()).toEqual([
      'nli_length_mismatch_reduction',
      'nli_max_reduction',
      'nli_negation_reduction',
      'nli_premise_removed_reduction',
      'nli_spelling_reduction',
      'nli_tautology_reduction',
      'nli_word_overlap_reduction',
    ]);
  });

  it('every row has its 95% interval and n: Wilson over one case per pair, else Wilson over clusters (pairs; premises for the competence tests)', () => {
    const s = summaryOf(out);
    const results = lines(out);
    expect(s.original.accuracy_interval).toEqual(wilson(s.original.correct, 114));
    // The competence tests' cases are made from the premise alone: SICK pairs that share a premise give the same
    // cases, so the unit is the distinct premise (issue 34: 41 antonymy cases here come from 25 premises).
    const premises = (test: string): number =>
      new Set(results.filter((r) => r.cases.some((c) => c.test === test)).map((r) => (r.original.text as { premise: string }).premise))
        .size;
    expect([premises('antonymy'), premises('numerical')]).toEqual([25, 18]);
    for (const test of TESTS) {
      const t = s.tests[test]!;
      const iv = t.accuracy_interval!;
      const units = test === 'antonymy' || test === 'numerical' ? premises(test) : test === 'tautology' ? t.examples : t.n;
      expect([test, iv.value, iv.method, iv.n, t.clusters]).toEqual([
        test,
        t.accuracy,
        'wilson',
        units,
        test === 'antonymy' || test === 'numerical' ? units : undefined,
      ]);
      if (units === t.n) expect(iv).toEqual(wilson(t.correct, t.n));
      else expect([iv.cases, iv.n_eff! <= t.n]).toEqual([t.n, true]);
      expect(iv.low! <= t.accuracy! && t.accuracy! <= iv.high!).toBe(true);
      // Never a zero-width interval shown as precise (antonymy is 0 of 41 here).
      expect(iv.high! - iv.low!).toBeGreaterThan(0);
      if (t.reduction !== null) {
        expect(t.reduction_interval).toMatchObject({ value: t.reduction, n: t.examples, method: 'bootstrap' });
        expect(t.reduction_interval!.low! <= t.reduction && t.reduction <= t.reduction_interval!.high!).toBe(true);
      }
      for (const v of Object.values(t.variants ?? {})) expect(v.accuracy_interval!.value).toBe(v.accuracy);
    }
    const d = s.details as {
      accuracy_by_gold: Record<
        string,
        Record<string, { n: number; correct: number; accuracy: number; clusters?: number; accuracy_interval: Interval }>
      >;
      premise_removed: { over_majority: number; over_majority_interval: Interval };
      sweep: { premise: { accuracy: number; accuracy_interval: Interval; reduction_interval: Interval }[] };
    };
    const cases = results.flatMap((r) => r.cases);
    for (const test of ['antonymy', 'numerical']) {
      for (const [gold, g] of Object.entries(d.accuracy_by_gold[test]!)) {
        const mine = results.filter((r) => r.cases.some((c) => c.test === test && c.gold === gold));
        const n = cases.filter((c) => c.test === test && c.gold === gold);
        const distinct = new Set(mine.map((r) => (r.original.text as { premise: string }).premise)).size;
        expect([test, gold, g.n, g.correct, g.clusters, g.accuracy_interval.n]).toEqual([
          test,
          gold,
          n.length,
          n.filter((c) => c.correct).length,
          distinct,
          distinct,
        ]);
        expect(g.accuracy_interval.high! - g.accuracy_interval.low!).toBeGreaterThan(0);
      }
    }
    expect(Object.keys(d.accuracy_by_gold.numerical!)).toEqual(['contradiction', 'entailment', 'neutral']);
    // numerical contradiction: 0 of 90 cases from 18 premises — [0, 19.8%], where a bootstrap over pairs gave [0.0, 0.0].
    expect(d.accuracy_by_gold.numerical!.contradiction).toMatchObject({ n: 90, correct: 0, clusters: 18 });
    expect(d.accuracy_by_gold.numerical!.contradiction!.accuracy_interval.high).toBeGreaterThan(0.1);
    expect(d.premise_removed.over_majority_interval).toMatchObject({ value: d.premise_removed.over_majority, n: 114, method: 'bootstrap' });
    expect(d.sweep.premise[0]!.accuracy_interval.value).toBe(d.sweep.premise[0]!.accuracy);
  });

  it('prints the Table-2 layout, the error confusion and the tautology sweep', () => {
    const s = summaryOf(out);
    const text = run.stdout;
    expect(text).toContain(`textstress · stress-nli · ${DEMO_SICK} on ${SICK} (TEST)`);
    expect(text).toContain(
      '3-way labels (entailment, neutral, contradiction) · premise: sentence_A · hypothesis: sentence_B · 114 pairs, 1923 cases',
    );
    expect(text).toContain('Table 2: accuracy per stress test (% reduction from the original accuracy on the same pairs)');
    const row = (title: string): string =>
      text
        .split('\n')
        .find((l) => l.startsWith(title))!
        .replace(/\s+/g, ' ')
        .trim();
    const red = (r: number): string => `(${r < 0 ? '−' : ''}${Math.abs(100 * r).toFixed(1)}%)`;
    expect(row('original ')).toBe(`original 114 114 ${pct(s.original.accuracy)} ${ciText(s.original.accuracy_interval)}`);
    for (const [title, test, family] of [
      ['word overlap', 'word-overlap', 'distraction'],
      ['negation', 'negation', 'distraction'],
      ['length mismatch', 'length-mismatch', 'distraction'],
      ['spelling error', 'spelling', 'noise'],
    ] as const) {
      const t = s.tests[test]!;
      expect(row(`${title} `)).toBe(
        `${title} ${family} ${t.examples} ${t.n} ${pct(t.accuracy)} ${red(t.reduction!)} ${ciText(t.accuracy_interval)} ` +
          `${ciText(t.reduction_interval)} ${pct(t.original_accuracy)}`,
      );
    }
    // The competence tests: accuracy and its interval only.
    for (const [title, test] of [
      ['antonymy', 'antonymy'],
      ['numerical reasoning', 'numerical'],
    ] as const) {
      const t = s.tests[test]!;
      // pairs, cases, the distinct premises they were made from, then accuracy and its interval.
      expect(row(`${title} `)).toBe(
        `${title} competence ${t.examples} ${t.n} ${t.clusters} ${pct(t.accuracy)} ${ciText(t.accuracy_interval)}`,
      );
    }
    const pr = s.tests['premise-removed']!;
    expect(row('premise removed ')).toBe(
      `premise removed annotation artifacts 114 114 ${pct(pr.accuracy)} (majority class neutral ${pct(pr.majority!.rate)}) ` +
        `${ciText(pr.accuracy_interval)} ${pct(pr.original_accuracy)}`,
    );
    expect(text).toContain('Competence tests: accuracy per gold label');
    const byGold = (
      s.details as {
        accuracy_by_gold: Record<string, Record<string, { n: number; clusters: number; accuracy: number; accuracy_interval: Interval }>>;
      }
    ).accuracy_by_gold;
    expect(text).toMatch(/test +gold +cases +distinct premises +accuracy +95% CI/);
    for (const [gold, g] of Object.entries(byGold.numerical!)) {
      const line = text.split('\n').find((l) => new RegExp(`^numerical reasoning +${gold} `).test(l))!;
      expect(line.replace(/\s+/g, ' ').trim()).toBe(
        `numerical reasoning ${gold} ${g.n} ${g.clusters} ${pct(g.accuracy)} ${ciText(g.accuracy_interval)}`,
      );
    }
    expect(text).toMatch(/Error confusion: share of gold X predicted as Y\ntest +E→N +E→C +N→E +N→C +C→E +C→N\n/);
    const e2n = s.tests.negation!.confusion!.entailment!.predicted.neutral ?? 0;
    expect(
      text
        .split('\n')
        .filter((l) => l.startsWith('negation '))
        .map((l) => l.replace(/\s+/g, ' ').trim())[1],
    ).toMatch(new RegExp(`^negation ${pct(e2n).replace('.', '\\.')} `));
    expect(text).toContain('Tautology sweep: "and true is true" appended N times (the paper’s Figure 2)');
    expect(row('0 (original)')).toBe(
      `0 (original) ${pct(s.tests.tautology!.original_accuracy)} ${pct(s.tests.tautology!.original_accuracy)}`,
    );
    expect(text).toContain(
      'Not applicable (no case made, not scored): antonymy: 73 pairs (no adjective or noun of the premise has a ' +
        'WordNet antonym in its sense and context); numerical reasoning: 84 pairs (no count of two or more before a noun in the premise).',
    );
    expect(text).toContain(`Results: ${join(out, 'summary.json')}, ${join(out, 'results.jsonl')}`);
  });

  it('the report shows the distinct premises beside the cases, as the terminal does', async () => {
    const s = summaryOf(out);
    const html = join(tmp('nli-report'), 'report.html');
    const r = await runCli(['report', out, '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<th class="n">distinct premises</th>');
    const t = s.tests.antonymy!;
    expect(page).toContain(
      `<td>antonymy</td><td>competence</td><td class="n">${t.examples}</td><td class="n">${t.n}</td><td class="n">${t.clusters}</td>`,
    );
  });

  it('--resume finishes an interrupted run with the same files; a test subset makes the same cases', async () => {
    const cut = tmp('stress-nli-cut');
    cpSync(join(out, 'run.json'), join(cut, 'run.json'));
    writeFileSync(
      join(cut, 'results.jsonl'),
      readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n') + '\n{"id":"torn',
    );
    const resumed = await stressNli(['--model', DEMO_SICK, '--data', SICK, '--split', 'TEST', '--out', cut, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(cut, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'results.jsonl'), 'utf8'));
    expect(stable(summaryOf(cut))).toEqual(stable(summaryOf(out)));

    const sub = tmp('stress-nli-sub');
    const only = await stressNli([
      '--model',
      DEMO_SICK,
      '--data',
      SICK,
      '--split',
      'TEST',
      '--out',
      sub,
      '--tests',
      'spelling,numerical',
      '--json',
    ]);
    expect(only.code, only.stderr).toBe(0);
    const json = JSON.parse(only.stdout) as StressSummary;
    expect(Object.keys(json.tests)).toEqual(['spelling', 'numerical']);
    const pick = (rs: StressResult[]) => rs.map((r) => r.cases.filter((c) => c.test === 'spelling' || c.test === 'numerical'));
    expect(pick(lines(sub))).toEqual(pick(lines(out)));
  }, 180_000);
});

describe('stress nli: a 2-way pair model (entailment / not_entailment) on the QNLI slice', () => {
  it('reads sentence as the premise and question as the hypothesis, in the 2-way scheme', async () => {
    // A tiny random-weight pair model with GLUE QNLI's label names (its answers mean nothing; the mechanics do).
    const model = join(tmp('qnli-model'), 'tiny-qnli');
    cpSync(fixtureData('../models/tiny-bert-seq'), model, { recursive: true });
    const config = JSON.parse(readFileSync(join(model, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(model, 'config.json'),
      JSON.stringify({ ...config, id2label: { 0: 'entailment', 1: 'not_entailment' }, label2id: { entailment: 0, not_entailment: 1 } }),
    );
    const out = tmp('stress-nli-qnli');
    const r = await stressNli(['--model', model, '--data', QNLI, '--premise', 'sentence', '--hypothesis', 'question', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '2-way labels (entailment, not_entailment) · premise: sentence · hypothesis: question · 60 pairs, 954 cases',
    );
    expect(r.stdout).toMatch(/\ntest +E→¬E +¬E→E\n/);
    const s = summaryOf(out);
    expect([s.tests.antonymy!.examples, s.tests.antonymy!.not_applicable, s.tests.numerical!.examples, s.tests.numerical!.n]).toEqual([
      16, 44, 6, 38,
    ]);
    const results = lines(out);
    // The sentence is the premise: the length-mismatch tautologies go on it; antonymy's gold is not_entailment.
    const first = results[0]!;
    expect(first.original.text).toEqual({
      premise: 'As of that day, the new constitution heralding the Second Republic came into force.',
      hypothesis: 'What came into force after the new constitution was herald?',
    });
    expect(first.cases.find((c) => c.test === 'length-mismatch')!.text.premise).toBe(
      'As of that day, the new constitution heralding the Second Republic came into force and true is true and true ' +
        'is true and true is true and true is true and true is true.',
    );
    expect(new Set(results.flatMap((x) => x.cases.filter((c) => c.test === 'antonymy').map((c) => c.gold)))).toEqual(
      new Set(['not_entailment']),
    );
    expect(new Set(results.flatMap((x) => x.cases.map((c) => c.prediction)))).toEqual(new Set(['entailment', 'not_entailment']));
  }, 120_000);
});

describe('stress nli: bad input is refused with file and line, or counted with --skip-bad-rows', () => {
  it('a pair with an empty hypothesis names file, line and column; --skip-bad-rows counts it', async () => {
    const path = fixtureData('mnli/missing-hypothesis.tsv');
    const bad = await stressNli(['--model', DEMO_SICK, '--data', path, '--out', tmp('nli-bad')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${path}:3: empty text in column "sentence2" (hypothesis).`);
    const out = tmp('nli-skip');
    const skipped = await stressNli(['--model', DEMO_SICK, '--data', path, '--out', out, '--skip-bad-rows']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(summaryOf(out)).toMatchObject({ n: 1, skipped_rows: 1 });
    expect(JSON.parse(readFileSync(join(out, 'skipped-rows.json'), 'utf8'))).toEqual([
      { file: path, line: 3, reason: 'empty text in column "sentence2" (hypothesis).' },
    ]);
    const jsonl = fixtureData('snli/missing-hypothesis.jsonl');
    const missing = await stressNli(['--model', DEMO_SICK, '--data', jsonl, '--out', tmp('nli-bad-jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${jsonl}:2: missing key "sentence2" (hypothesis).`);
  }, 120_000);

  it('an unknown --premise names the texts there are; unmappable model labels are listed; single texts are refused', async () => {
    const col = await stressNli(['--model', DEMO_SICK, '--data', QNLI, '--hypothesis', 'questions', '--out', tmp('nli-col')]);
    expect(col.code).toBe(1);
    expect(col.stderr).toContain(
      `textstress: error: --hypothesis questions: ${QNLI} has no pair text of that name (did you mean "question"?); ` +
        `its two texts are "question" (textA) and "sentence" (textB).`,
    );
    const labels = await stressNli(['--model', fixtureData('../models/tiny-bert-seq'), '--data', QNLI, '--out', tmp('nli-labels')]);
    expect(labels.code).toBe(1);
    expect(labels.stderr).toMatch(
      /cannot be mapped to the NLI labels \(entailment, neutral, contradiction, not_entailment\): no NLI label for "NEGATIVE", "POSITIVE"\. Map each to the NLI class it means with --label-map: "NEGATIVE=<entailment\|not_entailment>,POSITIVE=<entailment\|not_entailment>"\./,
    );
    const text = await stressNli(['--model', DEMO_SICK, '--data', fixtureData('sst2/dev.tsv'), '--out', tmp('nli-text')]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/the stress-nli recipe runs on pair-classification data/);
  }, 120_000);
});

describe('stress nli in a suite: the gate reads its metrics, the report gets its section', () => {
  it('thresholds pass, fail, or fail as not reported; the report shows Table 2, the confusion, the sweep and its charts', async () => {
    const dir = tmp('nli-suite');
    const suite = join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      // 20 pairs: min_n 10 lets the checks be judged (below min_n every check on these metrics is inconclusive).
      `models:\n  sick: ${DEMO_SICK}\ndatasets:\n  slice: { path: ${SICK}, split: TEST, limit: 20 }\nmin_n: 10\n` +
        'tests:\n  - name: nli\n    recipe: stress-nli\n' +
        '    settings: { tests: [negation, tautology, premise-removed], max_tautologies: 3 }\n' +
        '    thresholds: [nli_original_accuracy > 0.99, nli_negation_reduction >= -1, nli_antonymy_accuracy > 0, nli_premise_removed_over_majority > -1]\n',
    );
    const out = join(dir, 'out');
    const r = await runCli(['run', suite, '--out', out]);
    expect(r.code).toBe(1);
    const s = summaryOf(join(out, 'nli'));
    expect([s.n, s.cases, Object.keys(s.tests)]).toEqual([20, 20 + 6 * 20 + 20, ['negation', 'tautology', 'premise-removed']]);
    const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as {
      checks: { expr: string; passed: boolean; message: string }[];
    };
    expect(verdict.checks.map((c) => [c.expr, c.passed])).toEqual([
      ['nli_original_accuracy > 0.99', false],
      ['nli_negation_reduction >= -1', true],
      ['nli_antonymy_accuracy > 0', false],
      ['nli_premise_removed_over_majority > -1', true],
    ]);
    expect(verdict.checks[0]!.message).toBe(`nli: nli_original_accuracy = ${s.original.accuracy!.toFixed(3)} fails > 0.990`);
    expect(verdict.checks[2]!.message).toBe('nli: nli_antonymy_accuracy > 0 — nli_antonymy_accuracy is not reported by this run');
    const row = r.stdout
      .split('\n')
      .find((l) => l.startsWith('nli '))!
      .replace(/\s+/g, ' ')
      .trim();
    expect(row).toBe(`nli stress-nli 20 ${pct(s.original.accuracy)} ${pct(s.worst!.accuracy)} (${s.worst!.test})`);

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const section = html.slice(
      html.indexOf('<section class="family" id="fam-stress-nli"'),
      html.indexOf('</section>', html.indexOf('id="fam-stress-nli"')),
    );
    expect(section).toContain('<h2>NLI stress tests</h2>');
    for (const title of [
      'Table 2: accuracy per stress test (% reduction from the original accuracy on the same pairs)',
      'Error confusion: share of gold X predicted as Y',
      'Tautology sweep: &#34;and true is true&#34; appended N times (the paper’s Figure 2)',
    ]) {
      expect(section).toContain(`<h4>${title}</h4>`);
    }
    expect(section).toContain(
      // pairs, cases, distinct premises (blank: negation's cases are not shared between pairs), accuracy …
      `<td>negation</td><td>distraction</td><td class="n">20</td><td class="n">20</td><td></td><td class="n">${pct(s.tests.negation!.accuracy)} `,
    );
    expect([...section.matchAll(/<figure class="chart"><h4>([^<]+)<\/h4><svg/g)].map((m) => m[1])).toEqual([
      'Accuracy per test',
      'Tautology sweep (Figure 2)',
    ]);
    expect(html).toMatch(/<div class="v">[\d.]+%<\/div><div class="l">original accuracy<\/div>/);
  }, 180_000);
});
