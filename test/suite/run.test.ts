import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/report/html/types.ts';
import { expectCleanError, runCli, tmp } from '../cli/helpers.ts';

/** A one-test suite on the project's own reviews (works without ../shared). */
function suite(dir: string, thresholds: string[]): string {
  const file = join(dir, 'suite.yaml');
  writeFileSync(
    file,
    [
      'models:',
      '  m: demo-sst2',
      'datasets:',
      `  reviews: { path: ${JSON.stringify(join(import.meta.dirname, '..', '..', 'demo', 'reviews.tsv'))}, limit: 12 }`,
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
  it('runs examples/suite.yaml end to end: one folder per test, verdict and report', async () => {
    const out = tmp('suite');
    const r = await runCli(['run', 'examples/suite.yaml', '--out', out, '--limit', '12', '--no-progress']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/Gate: PASS/);
    expect(r.stdout).toMatch(/Report: /);
    for (const t of ['typos-max-k2', 'noise-middle-random']) expect(existsSync(join(out, t, 'summary.json'))).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<svg/);
    expect(html.length).toBeLessThan(5_000_000);
    const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')) as Verdict;
    expect(verdict.passed).toBe(true);
    // Resumable: a second run with --resume keeps the results and succeeds.
    const again = await runCli(['run', 'examples/suite.yaml', '--out', out, '--limit', '12', '--no-progress', '--resume']);
    expect(again.code, again.stderr).toBe(0);
    // Without --resume it refuses to touch the folder.
    const refused = await runCli(['run', 'examples/suite.yaml', '--out', out, '--limit', '12', '--no-progress']);
    expect(expectCleanError(refused)).toMatch(/already holds results.*--resume/);
  });

  it('gate: an impossible threshold exits 1 naming the failed check; a reachable one exits 0', async () => {
    const dir = tmp('gate');
    const bad = await runCli(['run', suite(dir, ['attack_success_rate < 0', 'clean_accuracy > 0.3']), '--out', join(dir, 'out-bad'), '--no-progress']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/Gate: FAIL — 1 of 2 checks failed/);
    expect(bad.stdout).toMatch(/✗ typos-k1: attack_success_rate = [\d.]+ fails < 0\.000/);
    expect(bad.stdout).not.toMatch(/✗ .*clean_accuracy/);

    const good = await runCli(['run', suite(dir, ['attack_success_rate <= 1', 'stability >= 0%']), '--out', join(dir, 'out-good'), '--no-progress']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Gate: PASS — all 2 checks hold/);

    // Against a baseline: the same model is no worse than itself; "better by 50 points" is impossible.
    const base = join(dir, 'out-good');
    const same = await runCli(['run', suite(dir, ['attacked_accuracy >= baseline - 2pts']), '--out', join(dir, 'out-b1'), '--baseline', base, '--no-progress']);
    expect(same.code, same.stdout).toBe(0);
    const worse = await runCli(['run', suite(dir, ['attacked_accuracy >= baseline + 50pts']), '--out', join(dir, 'out-b2'), '--baseline', base, '--no-progress']);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toMatch(/attacked_accuracy = .* fails >= .*\(baseline \+ 0\.5\)/);
    expect(readFileSync(join(dir, 'out-b2', 'report.html'), 'utf8')).toMatch(/Baseline comparison/);
  });

  it('a misspelled key fails before anything runs, naming the key and line', async () => {
    const dir = tmp('badsuite');
    const file = join(dir, 'suite.yaml');
    writeFileSync(file, 'models:\n  m: demo-sst2\ndatasets:\n  d: x.tsv\ntests:\n  - name: a\n    recipe: noise\n    setings: { noise: swap }\n');
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
