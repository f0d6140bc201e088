/**
 * The gate that small samples cannot fool (issue 27, part 3), on real runs of demo-sst2 over the first 10 reviews:
 * a holding check over fewer than min_n examples is inconclusive (exit 3), interval bounds can be checked, and a
 * baseline check is decided by the paired test.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/report/html/types.ts';
import { metricInterval, parseThreshold, verdictOf } from '../../src/suite/gate.ts';
import { wilson } from '../../src/stats/index.ts';
import { ROOT, runCli, tmp } from '../cli/helpers.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');

/** A one-test suite: middle-random noise on demo-sst2 over the first 10 reviews. */
function suite(dir: string, thresholds: string[], extra: string[] = []): string {
  const file = join(dir, `suite-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    [
      'models:',
      '  m: demo-sst2',
      'datasets:',
      `  reviews: { path: ${JSON.stringify(REVIEWS)}, limit: 10 }`,
      ...extra,
      'tests:',
      '  - name: noise',
      '    recipe: noise',
      '    settings: { noise: middle-random }',
      '    thresholds:',
      ...thresholds.map((t) => `      - "${t}"`),
    ].join('\n') + '\n',
  );
  return file;
}

const verdictOfRun = (out: string): Verdict => JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as Verdict;

describe('gate: intervals, minimum n, paired baseline', () => {
  const dir = tmp('gate-iv');

  it('a suite over 10 examples ends inconclusive (exit 3), never PASS, and never FAIL either: too few examples to judge', async () => {
    const out = join(dir, 'ten');
    const r = await runCli(['run', suite(dir, ['attack_success_rate < 0.5', 'attack_success_rate < 0.1']), '--out', out, '--no-progress']);
    expect(r.code, r.stderr + r.stdout).toBe(3);
    // 2 of the 10 attacks succeed, on 10 attacked examples (< min_n 30): the first check would hold, the second
    // would fail (issue 34, item 2: it failed with exit 1, as if the model had regressed) — both are inconclusive.
    expect(r.stdout).toMatch(/Gate: INCONCLUSIVE — 2 of 2 checks inconclusive/);
    expect(r.stdout).toContain(
      '? noise: attack_success_rate = 0.200 (n = 10) would meet < 0.500 — inconclusive: n = 10 < min_n 30, too few examples to judge',
    );
    expect(r.stdout).toContain(
      '? noise: attack_success_rate = 0.200 (n = 10) would fail < 0.100 — inconclusive: n = 10 < min_n 30, too few examples to judge',
    );
    expect(r.stdout).not.toMatch(/PASS|Gate: FAIL/);
    const v = verdictOfRun(out);
    expect(v).toMatchObject({ passed: false, status: 'inconclusive', checked: ['attack_success_rate'], robustness: true });
    for (const c of v.checks) expect(c).toMatchObject({ status: 'inconclusive', passed: false, n: 10, actual: 0.2 });
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Gate inconclusive: 2 of 2 checks have too few examples to judge');
    // The report's banner speaks in words and units, not the suite's snake_case (issue 34 item 14); the check as written is its tooltip.
    expect(html).toContain('Checked: attack success rate.');
    expect(html).toContain(
      '? noise: attack success rate 20.0% (n = 10) would fail &#60; 10.0% — inconclusive: n = 10 is below the suite&#39;s ' +
        'minimum of 30, too few examples to judge',
    );
    expect(html).toContain('title="attack_success_rate &#60; 0.1"');
    const banner = /<div class="verdict[\s\S]*?<\/div>/.exec(html)![0].replace(/title="[^"]*"/g, '');
    expect(banner).not.toMatch(/[a-z]_[a-z]|[a-z][A-Z]/);
  });

  it('interval bounds: .high and .low read the Wilson interval; min_n is a suite setting; a failing check still fails', async () => {
    const out = join(dir, 'bounds');
    const r = await runCli([
      'run',
      suite(dir, ['attack_success_rate.high < 0.6', 'attack_success_rate.low > 0.1'], ['min_n: 5']),
      '--out',
      out,
      '--no-progress',
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'noise', 'summary.json'), 'utf8')) as { succeeded: number; attacked: number };
    const iv = wilson(summary.succeeded, summary.attacked);
    expect([summary.succeeded, summary.attacked]).toEqual([2, 10]);
    // Wilson(2, 10) = [0.0567, 0.5098]: the high bound passes 0.6, the low bound fails 0.1.
    expect(r.code, r.stdout).toBe(1);
    const v = verdictOfRun(out);
    expect(v.checks.map((c) => [c.status, c.actual])).toEqual([
      ['pass', iv.high],
      ['fail', iv.low],
    ]);
    expect(v.checks[0]!.message).toBe('noise: attack_success_rate.high = 0.510 (0.200 [0.057, 0.510], n = 10) meets < 0.600');
    // The fallback interval (Wilson from the summary's counts) is what the check read.
    expect(metricInterval('attack_success_rate', summary)).toEqual(iv);
  });

  it('a baseline check uses the paired test; a check only on clean accuracy is flagged as no robustness check', async () => {
    const base = join(dir, 'base');
    const first = await runCli(['run', suite(dir, ['clean_accuracy > 0.5'], ['min_n: 5']), '--out', base, '--no-progress']);
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toMatch(/Gate: note — no check reads a robustness metric/);
    expect(readFileSync(join(base, 'report.html'), 'utf8')).toContain('No check reads a robustness metric');

    const out = join(dir, 'vs-base');
    const r = await runCli([
      'run',
      suite(dir, ['attacked_accuracy >= baseline + 5pts', 'stability >= baseline'], ['min_n: 5', `baseline: ${JSON.stringify(base)}`]),
      '--out',
      out,
      '--no-progress',
    ]);
    // Same model, data and seed: every example agrees. No difference: the paired test finds none (p = 1), so
    // "no worse than the baseline" holds; "5 points better" fails: the difference's interval is [0, 0], wholly short of it.
    expect(r.code, r.stdout).toBe(1);
    const v = verdictOfRun(out);
    expect(v.checks.map((c) => [c.status, c.p])).toEqual([
      ['fail', 1],
      ['pass', 1],
    ]);
    expect(v.checks[0]!.message).toMatch(
      /attacked_accuracy = ([\d.]+) vs baseline \1 \+ 0\.05 fails >= \(the whole 95% interval of the difference is beyond the margin: paired exact McNemar over 10 examples, p \(Holm\) = 1\.00; difference 0\.000 \[0\.000, 0\.000\]\)/,
    );
    expect(v.checks[1]!.message).toMatch(
      /stability = ([\d.]+) vs baseline \1 meets >= \(paired exact McNemar over 10 examples, p \(Holm\) = 1\.00\)/,
    );
  });

  it('parses interval bounds and refuses a bound on a baseline check', () => {
    expect(parseThreshold('attack_success_rate.high < 0.30')).toMatchObject({
      metric: 'attack_success_rate',
      bound: 'high',
      op: '<',
      value: 0.3,
    });
    expect(parseThreshold('clean_accuracy.low > 80%')).toMatchObject({ metric: 'clean_accuracy', bound: 'low', value: 0.8 });
    expect(parseThreshold('clean_accuracy > 0.8').bound).toBeUndefined();
    expect(() => parseThreshold('clean_accuracy.low >= baseline')).toThrow(/paired test/);
    expect(verdictOf([])).toMatchObject({ passed: true, status: 'pass', robustness: false });
  });
});
