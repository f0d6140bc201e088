/** The smaller things that misled: each now says what happened, naming the file, line or entry. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SST2, ROOT, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');

describe('small things that misled', () => {
  it('counts and reports text that is not valid UTF-8 (it reaches the model as U+FFFD)', async () => {
    const dir = tmp('latin1');
    const data = join(dir, 'latin1.tsv');
    writeFileSync(
      data,
      Buffer.concat([Buffer.from('sentence\tlabel\na good film\t1\na caf'), Buffer.from([0xe9]), Buffer.from(' with bad coffee\t0\n')]),
    );
    const r = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', data, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: 1 example hold U\+FFFD \(the first at .*latin1\.tsv:3\).*not UTF-8/);
    const s = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')) as { replacement_chars: unknown };
    expect(s.replacement_chars).toEqual({ rows: 1, first: expect.stringMatching(/latin1\.tsv:3$/) });
  });

  it('refuses --label-map entries that match no label, and reads label indices as the file’s label names', async () => {
    const dir = tmp('labelmap');
    const bad = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', REVIEWS, '--label-map', 'positiv=positive', '--out', dir]);
    expect(expectCleanError(bad)).toMatch(
      /--label-map positiv=positive does not fit: "positiv" is not a label of .*reviews\.tsv \[negative, positive\]/,
    );
    const badModel = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      REVIEWS,
      '--label-map',
      'positive=POS',
      '--out',
      dir,
    ]);
    expect(expectCleanError(badModel)).toMatch(/"POS" is not a label of the model \[negative, positive\]/);
    const ok = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      REVIEWS,
      '--label-map',
      '0=NEGATIVE,1=POSITIVE',
      '--limit',
      '2',
      '--out',
      dir,
      '--overwrite',
      '--no-progress',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('names the suite file when it refuses a YAML alias bomb', async () => {
    const dir = tmp('bomb');
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [prev, cur] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
    ])
      levels.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    writeFileSync(join(dir, 'bomb.yaml'), levels.join('\n') + '\n');
    const r = await runCli(['run', join(dir, 'bomb.yaml'), '--out', join(dir, 'o')]);
    expect(expectCleanError(r)).toMatch(/bomb\.yaml: invalid suite: line 1: cannot be read: .*alias/);
  });

  it('says a damaged ONNX file is damaged instead of blaming the model type', async () => {
    const dir = tmp('corrupt');
    cpSync(join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-seq'), join(dir, 'model'), { recursive: true });
    const onnx = join(dir, 'model', 'onnx', 'model.onnx');
    writeFileSync(onnx, readFileSync(onnx).subarray(0, 3000));
    const r = await runCli(['eval', '--model', join(dir, 'model'), '--data', REVIEWS]);
    const msg = expectCleanError(r);
    expect(msg).toMatch(/The file is damaged or not an ONNX model/);
    expect(msg).not.toMatch(/must support that type/);
  });

  it('refuses a suite model that would send an environment variable outside the allow-list', async () => {
    const dir = tmp('authenv');
    writeFileSync(
      join(dir, 's.yaml'),
      `models:\n  m: { path: "http://127.0.0.1:9/x", auth_env: AWS_SECRET_ACCESS_KEY }\ndatasets:\n  d: ${REVIEWS}\ntests:\n  - name: t\n    recipe: typos\n`,
    );
    const flag = await runCli(['run', join(dir, 's.yaml'), '--out', join(dir, 'o'), '--allow-auth-env', 'MY_API_TOKEN']);
    expect(expectCleanError(flag)).toMatch(
      /model "m" \(http:\/\/127\.0\.0\.1:9\/x\) would send the environment variable AWS_SECRET_ACCESS_KEY .* not allowed\. Allowed: MY_API_TOKEN/,
    );
    const env = await runCli(['run', join(dir, 's.yaml'), '--out', join(dir, 'o2')], { TEXTSTRESS_ALLOW_AUTH_ENV: 'MY_API_TOKEN,OTHER' });
    expect(expectCleanError(env)).toMatch(/AWS_SECRET_ACCESS_KEY is not allowed\. Allowed: MY_API_TOKEN, OTHER/);
  });
});
