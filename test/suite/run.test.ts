import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/report/html/types.ts';
import { ROOT, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

/**
 * examples/suite.yaml as a fresh clone sees it: next to demo/reviews.tsv (its fallback) and with no shared data folder,
 * so this test does not depend on what sits beside the checkout (test/full-data/example-suite.data.test.ts runs it
 * in place, on the shared data).
 */
function exampleSuiteWithoutShared(): string {
  const dir = tmp('example-suite');
  mkdirSync(join(dir, 'examples'));
  mkdirSync(join(dir, 'demo'));
  copyFileSync(join(ROOT, 'examples', 'suite.yaml'), join(dir, 'examples', 'suite.yaml'));
  copyFileSync(join(ROOT, 'demo', 'reviews.tsv'), join(dir, 'demo', 'reviews.tsv'));
  return join(dir, 'examples', 'suite.yaml');
}

/** A one-test suite on the project's own reviews (works without the shared data folder). */
function suite(dir: string, thresholds: string[]): string {
  const file = join(dir, 'suite.yaml');
  writeFileSync(
    file,
    [
      'models:',
      '  m: demo-sst2',
      'datasets:',
      `  reviews: { path: ${JSON.stringify(join(import.meta.dirname, '..', '..', 'demo', 'reviews.tsv'))}, limit: 12 }`,
      // The gate's plumbing on 12 examples: no minimum n (test/suite/gate-intervals.test.ts tests the minimum).
      'min_n: 1',
      'tests:',
      '  - name: typos-k1',
      '    recipe: typos',
      '    settings: { k: 1 }',
      '    thresholds:',
      ...thresholds.map((t) => `      - "${t}"`),
    ].join('\n') + '\n',
  );
  return file;
}

describe('textstress run', () => {
  it('runs examples/suite.yaml end to end: one folder per test, verdict and report; without CoNLL it says it skipped NER', async () => {
    const out = tmp('suite');
    const file = exampleSuiteWithoutShared();
    const r = await runCli(['run', file, '--out', out, '--limit', '12', '--no-progress']);
    // 12 examples are fewer than the gate's min_n (30): the checks that hold are inconclusive (exit 3), not a pass.
    expect(r.code, r.stderr + r.stdout).toBe(3);
    expect(r.stdout).toMatch(/Gate: INCONCLUSIVE/);
    expect(r.stdout).not.toMatch(/Gate: FAIL/);
    expect(r.stdout).toMatch(/Report: /);
    for (const t of ['typos-max-k2', 'noise-middle-random', 'grammar-greedy']) expect(existsSync(join(out, t, 'summary.json'))).toBe(true);
    // The sentiment tests fell back to demo/reviews.tsv; the optional CoNLL dataset is reported as skipped.
    expect(JSON.parse(readFileSync(join(out, 'typos-max-k2', 'summary.json'), 'utf8'))).toMatchObject({
      dataset: expect.stringMatching(/demo\/reviews\.tsv$/),
    });
    expect(existsSync(join(out, 'ner-typos-k1'))).toBe(false);
    expect(r.stdout).toMatch(/Skipped ner-typos-k1: .*eng\.testb not found/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<svg/);
    expect(html.length).toBeLessThan(5_000_000);
    const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as Verdict;
    expect(verdict).toMatchObject({ passed: false, status: 'inconclusive' });
    // The fallback is announced, never silent (issue 34 item 12): terminal, verdict.json, suite.json and the report.
    const fallback = {
      dataset: 'sst2-dev',
      wanted: expect.stringMatching(/shared\/data\/sst2\/dev\.tsv$/),
      used: expect.stringMatching(/demo\/reviews\.tsv$/),
      tests: ['typos-max-k2', 'noise-middle-random', 'grammar-greedy'],
    };
    expect(verdict.fallbacks).toEqual([fallback]);
    expect(JSON.parse(readFileSync(join(out, 'suite.json'), 'utf8'))).toMatchObject({ fallbacks: [fallback] });
    expect(r.stdout).toMatch(
      /Data: FALLBACK — dataset "sst2-dev": \S*sst2\/dev\.tsv not found, so typos-max-k2, noise-middle-random, grammar-greedy ran on its fallback \S*demo\/reviews\.tsv; these figures are not over the data the suite names\./,
    );
    expect(html).toMatch(/<p class="gate-warn" data-fallback>⚠ Data: FALLBACK — dataset &#34;sst2-dev&#34;/);
    // Resumable: a second run with --resume keeps the results and reaches the same verdict.
    const again = await runCli(['run', file, '--out', out, '--limit', '12', '--no-progress', '--resume']);
    expect(again.code, again.stderr).toBe(3);
    // Without --resume it refuses to touch the folder.
    const refused = await runCli(['run', file, '--out', out, '--limit', '12', '--no-progress']);
    expect(expectCleanError(refused)).toMatch(/already holds results.*--resume/);
  });

  it('gate: an impossible threshold exits 1 naming the failed check; a reachable one exits 0', async () => {
    const dir = tmp('gate');
    const bad = await runCli([
      'run',
      suite(dir, ['attack_success_rate < 0', 'clean_accuracy > 0.3']),
      '--out',
      join(dir, 'out-bad'),
      '--no-progress',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/Gate: FAIL — 1 of 2 checks failed/);
    expect(bad.stdout).toMatch(/✗ typos-k1: attack_success_rate = [\d.]+ fails < 0\.000/);
    expect(bad.stdout).not.toMatch(/✗ .*clean_accuracy/);

    const good = await runCli([
      'run',
      suite(dir, ['attack_success_rate <= 1', 'stability >= 0%']),
      '--out',
      join(dir, 'out-good'),
      '--no-progress',
    ]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Gate: PASS — all 2 checks hold/);

    // Against a baseline: the same model is no worse than itself; "better by 50 points" is impossible.
    const base = join(dir, 'out-good');
    const same = await runCli([
      'run',
      suite(dir, ['attacked_accuracy >= baseline - 2pts']),
      '--out',
      join(dir, 'out-b1'),
      '--baseline',
      base,
      '--no-progress',
    ]);
    expect(same.code, same.stdout).toBe(0);
    // The side-by-side table says what differs between the two runs of the test: here nothing (issue 34 item 13).
    expect(readFileSync(join(dir, 'out-b1', 'report.html'), 'utf8')).toContain('same recipe, model, data, seed and settings');
    const worse = await runCli([
      'run',
      suite(dir, ['attacked_accuracy >= baseline + 50pts']),
      '--out',
      join(dir, 'out-b2'),
      '--baseline',
      base,
      '--no-progress',
    ]);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toMatch(
      /attacked_accuracy = .* vs baseline .* \+ 0\.5 fails >= \(the whole 95% interval of the difference is beyond the margin/,
    );
    expect(readFileSync(join(dir, 'out-b2', 'report.html'), 'utf8')).toMatch(/Baseline comparison/);
  });

  it('a test that fails costs its own row: the others run, the table, verdict.json and report.html name it, exit 1', async () => {
    const dir = tmp('suite-fails');
    const reviews = JSON.stringify(join(ROOT, 'demo', 'reviews.tsv'));
    const typos = (name: string, model: string, dataset = 'reviews'): string[] => [
      `  - name: ${name}`,
      '    recipe: typos',
      `    model: ${model}`,
      `    dataset: ${dataset}`,
    ];
    const write = (name: string, tests: string[]): string => {
      const file = join(dir, name);
      writeFileSync(
        file,
        [
          'models:',
          '  good: demo-sst2',
          '  tagger: demo-ner',
          `  broken: ${JSON.stringify(join(dir, 'no-such-model'))}`,
          'datasets:',
          `  reviews: { path: ${reviews}, limit: 4 }`,
          '  missing: no-such-file.tsv',
          'min_n: 1',
          'tests:',
          ...tests,
        ].join('\n') + '\n',
      );
      return file;
    };
    const file = write('suite.yaml', [
      ...typos('first', 'good'),
      ...typos('unsupported', 'broken'),
      ...typos('same-model', 'broken'),
      ...typos('no-data', 'good', 'missing'),
      ...typos('wrong-task', 'tagger'),
      ...typos('last', 'good'),
    ]);
    const out = join(dir, 'out');
    const r = await runCli(['run', file, '--out', out, '--no-progress']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    // The tests on either side of the failures ran.
    for (const t of ['first', 'last']) expect(existsSync(join(out, t, 'summary.json')), t).toBe(true);
    const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as Verdict;
    expect(verdict).toMatchObject({ passed: false, status: 'fail' });
    expect(verdict.failed!.map((f) => f.test)).toEqual(['unsupported', 'same-model', 'no-data', 'wrong-task']);
    const reason = (t: string): string => verdict.failed!.find((f) => f.test === t)!.reason;
    expect(reason('unsupported')).toMatch(/model "broken" could not be opened: .*no-such-model/);
    expect(reason('same-model')).toBe(reason('unsupported'));
    expect(reason('no-data')).toMatch(/dataset "missing": .*no-such-file\.tsv not found/);
    expect(reason('wrong-task')).toMatch(/token-classification|tagger|tokens/);
    // Each failure fails a check of its own, reason and all.
    const failedChecks = verdict.checks.filter((c) => c.expr === 'finished');
    expect(failedChecks.map((c) => [c.test, c.passed])).toEqual(verdict.failed!.map((f) => [f.test, false]));
    // The terminal table has a FAILED row per failure; the gate lines and the report give the reasons.
    for (const t of ['unsupported', 'same-model', 'no-data', 'wrong-task']) {
      expect(r.stdout).toMatch(new RegExp(`^${t} +typos +FAILED +.+$`, 'm'));
      expect(r.stdout).toContain(`✗ ${t}: did not finish — `);
    }
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/no-data: did not finish — dataset (&#34;|&quot;)missing/);
    expect(html).toMatch(/id="verdict" data-status="fail"/);

    // Nothing finished at all: verdict.json and a report all the same.
    const none = await runCli(['run', write('none.yaml', typos('only', 'broken')), '--out', join(dir, 'out-none'), '--no-progress']);
    expect(none.code, none.stderr + none.stdout).toBe(1);
    expect((JSON.parse(readFileSync(join(dir, 'out-none', 'verdict.json'), 'utf8')) as Verdict).failed).toHaveLength(1);
    expect(readFileSync(join(dir, 'out-none', 'report.html'), 'utf8')).toMatch(/only: did not finish — model (&#34;|&quot;)broken/);
    expect(none.stdout).toMatch(/^only +typos +FAILED/m);
  });

  it('a misspelled key fails before anything runs, naming the key and line', async () => {
    const dir = tmp('badsuite');
    const file = join(dir, 'suite.yaml');
    writeFileSync(
      file,
      'models:\n  m: demo-sst2\ndatasets:\n  d: x.tsv\ntests:\n  - name: a\n    recipe: noise\n    setings: { noise: swap }\n',
    );
    const err = expectCleanError(await runCli(['run', file, '--out', join(dir, 'out')]));
    expect(err).toMatch(/line 8: tests\[0\]\.setings: unknown key "setings"/);
  });

  it('init writes a commented starter suite that validates', async () => {
    const dir = tmp('init');
    const file = join(dir, 'textstress.yaml');
    const r = await runCli(['init', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^# textstress suite/);
    expect(expectCleanError(await runCli(['init', file]))).toMatch(/already exists/);
  });

  it('report: writes one self-contained HTML file from run folders', async () => {
    const dir = tmp('report-cli');
    await runCli(['run', suite(dir, ['stability >= 0']), '--out', join(dir, 'out'), '--no-progress']);
    const html = join(dir, 'r.html');
    const r = await runCli(['report', join(dir, 'out', 'typos-k1'), '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Report: .*r\.html \(1 runs, 12 examples/);
    const text = readFileSync(html, 'utf8');
    expect(text).not.toMatch(/<(link|img)\b|src="http|href="http/);
    expect(text).toMatch(/Content-Security-Policy/);
  });
});

describe('run options a suite can set', () => {
  it('a test may ask for compact results and a concurrency; a dataset for max_chars; a model for HTTP timeouts', async () => {
    const dir = tmp('suite-options');
    const data = join(dir, 'd.tsv');
    writeFileSync(
      data,
      'sentence\tlabel\na warm and funny film\t1\na dull and lifeless film that goes on and on and on\t0\na bad film\t0\n',
    );
    const file = join(dir, 'suite.yaml');
    writeFileSync(
      file,
      [
        'models:',
        '  m: { path: demo-sst2, timeout: 5000, retries: 1, request_concurrency: 2 }',
        'datasets:',
        '  d: { path: d.tsv, max_chars: 30, skip_bad_rows: true }',
        'tests:',
        '  - { name: t, recipe: typos, compact: true, concurrency: 1, settings: { k: 1 } }',
      ].join('\n') + '\n',
    );
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(dir, 'out', 't', 'summary.json'), 'utf8')) as Record<string, unknown>;
    // The 51-character row is over max_chars: skipped, not attacked.
    expect(s).toMatchObject({ n: 2, skipped_rows: 1, compact_results: true });
  });
});
