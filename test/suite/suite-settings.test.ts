/**
 * Issue 25, item 8: a suite's fooling `train:` resolved from the working folder (not the suite file) with a hint
 * to "Pass --train"; a threshold on a metric the recipe never reports passed validation and failed the gate
 * later as "not reported".
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SST2, readJson, runCli, SST2_TRAIN, tmp } from '../cli/helpers.ts';

/** A suite with one fooling test whose settings are `settings`, in a folder of its own. */
function foolingSuite(dir: string, settings: string): string {
  const file = join(dir, 'suites', 'suite.yaml');
  mkdirSync(join(dir, 'suites'), { recursive: true });
  writeFileSync(
    file,
    `models:\n  m: ${DEMO_SST2}\ndatasets: {}\ntests:\n  - name: fooling\n    recipe: fooling\n` +
      `    settings: { ${settings}population: 10, length: 4, epochs: 2, threshold: 1 }\n`,
  );
  return file;
}

describe('suite test settings that name files', () => {
  it("fooling's train: is relative to the suite file, as data: is", async () => {
    const dir = tmp('suite-train');
    const suite = foolingSuite(dir, 'train: ../data/train.tsv, ');
    mkdirSync(join(dir, 'data'));
    copyFileSync(SST2_TRAIN, join(dir, 'data', 'train.tsv'));
    // The test process's working folder is the repository: ../data/train.tsv from there does not exist.
    expect(existsSync(join(process.cwd(), '..', 'data', 'train.tsv'))).toBe(false);
    const r = await runCli(['run', suite, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const summary = readJson(join(dir, 'out', 'fooling', 'summary.json'));
    expect(JSON.stringify(summary)).toContain(join(dir, 'data', 'train.tsv'));
  }, 60_000);

  it('a fooling test without train: says to set it in the suite', async () => {
    const dir = tmp('suite-no-train');
    const r = await runCli(['run', foolingSuite(dir, ''), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('EFSG needs the training file for D_task and T_task.');
    expect(r.stderr + r.stdout).toContain("in a suite, set train: in the test's settings (a path relative to the suite file)");
  }, 60_000);
});

describe('thresholds are checked against what the test reports, before anything runs', () => {
  /** A suite of one stress-nli test (and one typos attack) with `extra` YAML appended. */
  function suite(dir: string, thresholds: string, extra = ''): string {
    const file = join(dir, 'suite.yaml');
    writeFileSync(
      file,
      `models:\n  m: ${DEMO_SST2}\ndatasets:\n  d: ${SST2_TRAIN}\ntests:\n` +
        `  - name: typos\n    recipe: typos\n` +
        `  - name: nli\n    recipe: stress-nli\n    thresholds: [${thresholds}]\n${extra}`,
    );
    return file;
  }

  it('a clean_accuracy threshold on a stress test is refused at once, naming the file, the line and what it reports', async () => {
    const dir = tmp('suite-unreported');
    const file = suite(dir, '"clean_accuracy > 0.5"');
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `${file}: invalid suite: line 10: tests[1].thresholds[0]: "clean_accuracy > 0.5": test "nli" (recipe stress-nli) does not ` +
        'report clean_accuracy; it reports nli_original_accuracy, nli_word_overlap_accuracy,',
    );
    // Nothing ran: the output folder was never made.
    expect(existsSync(join(dir, 'out'))).toBe(false);
  }, 30_000);

  it("did you mean: a near miss of the test's own metric, and a suite-wide gate: checked against each test", async () => {
    const dir = tmp('suite-near-miss');
    const file = suite(dir, '"nli_worst_acuracy > 0.5"', 'gate: ["attack_success_rate < 0.5"]\n');
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('line 10: tests[1].thresholds[0]: unknown metric "nli_worst_acuracy" in threshold');
    expect(r.stderr).toContain('(did you mean nli_worst_accuracy?)');
    // Fixed, the gate line is what remains: the typos test reports attack_success_rate, stress-nli does not.
    writeFileSync(file, readFileSync(file, 'utf8').replace('nli_worst_acuracy', 'nli_worst_accuracy'));
    const gate = await runCli(['run', file, '--out', join(dir, 'out'), '--no-progress']);
    expect(gate.code, gate.stderr).toBe(1);
    expect(gate.stderr).toContain(
      'line 11: gate[0]: gate "attack_success_rate < 0.5": test "nli" (recipe stress-nli) does not report attack_success_rate;',
    );
    expect(gate.stderr).not.toContain('test "typos"');
  }, 30_000);
});
