/**
 * Issue 25, item 8: a suite's fooling `train:` resolved from the working folder (not the suite file) with a hint
 * to "Pass --train"; a threshold on a metric the recipe never reports passed validation and failed the gate
 * later as "not reported".
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
