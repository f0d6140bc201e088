/**
 * Issue 25, item 9: a RESEMBLE config naming `annotator: {kind: model, model: http://…}` made `resemble eval` (and
 * any --defence run) post the texts to that URL with no sign on the command line. Now the URL must be named with
 * --allow-remote, and where the texts go is printed. Counted server-side, on a real `textstress serve` of demo-ner.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NER, DEMO_SST2, freePort, runCli, servedUrl, SST2_DEV, startCliProcess, stderrMatch, tmp } from '../cli/helpers.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A `textstress serve` of demo-ner; `requests()` stops it and resolves with the requests it says reached it. */
async function nerServer(): Promise<{ url: string; requests: () => Promise<number> }> {
  const child = startCliProcess(['serve', '--model', DEMO_NER, '--port', String(await freePort())]);
  children.push(child);
  const url = await servedUrl(child);
  return {
    url,
    requests: async () => {
      const stopped = stderrMatch(child, /serve stopped after (\d+) requests/, 'serve');
      child.kill('SIGTERM');
      return Number((await stopped)[1]);
    },
  };
}

/** A config whose annotator is the model at `url`, and 40 SST-2 rows. */
function setup(url: string): { config: string; data: string } {
  const dir = tmp('remote-annotator');
  const config = join(dir, 'resemble.json');
  writeFileSync(
    config,
    JSON.stringify({
      textstress: 'resemble',
      version: 1,
      type: 'PER',
      canonical: ['John'],
      temperature: 2,
      annotator: { kind: 'model', model: url },
    }),
  );
  const data = join(dir, 'dev.tsv');
  writeFileSync(data, readFileSync(SST2_DEV, 'utf8').split('\n').slice(0, 41).join('\n') + '\n');
  return { config, data };
}

const evalArgs = (config: string, data: string): string[] => [
  'resemble',
  'eval',
  '--model',
  DEMO_SST2,
  '--data',
  data,
  '--config',
  config,
  '--budget',
  '2',
  '--random-sets',
  '1',
];

describe('a RESEMBLE config cannot send texts anywhere the command line did not name', () => {
  it('resemble eval and --defence refuse a remote annotator: the message names the config and the URL; nothing reaches it', async () => {
    const server = await nerServer();
    const { config, data } = setup(server.url);
    const evalRun = await runCli(evalArgs(config, data));
    expect(evalRun.code, evalRun.stderr).toBe(1);
    expect(evalRun.stderr).toContain(`the RESEMBLE config ${config} names the annotator model ${server.url}`);
    expect(evalRun.stderr).toContain('a config file may not send data anywhere the command line did not name');
    expect(evalRun.stderr).toContain(`--allow-remote ${server.url}`);
    // The same config through --defence on another verb; and a different URL allowed does not count.
    const defended = await runCli([
      'eval',
      '--model',
      DEMO_SST2,
      '--defence',
      config,
      '--data',
      data,
      '--allow-remote',
      'http://127.0.0.1:1',
    ]);
    expect(defended.code, defended.stderr).toBe(1);
    expect(defended.stderr).toContain(`the RESEMBLE config ${config} names the annotator model ${server.url}`);
    // A suite whose model entry names the config: the same refusal, before that test runs.
    const suite = join(tmp('remote-suite'), 'suite.yaml');
    writeFileSync(
      suite,
      `models:\n  m: { path: ${DEMO_SST2}, defence: ${config} }\ndatasets:\n  d: ${data}\ntests:\n  - name: t\n    recipe: typos\n`,
    );
    const run = await runCli(['run', suite, '--out', join(tmp('remote-suite-out'), 'out'), '--no-progress']);
    expect(run.code, run.stderr).toBe(1);
    // The suite goes on past a test that fails (issue 32 item 6): the refusal is that test's row and reason.
    expect(run.stdout + run.stderr).toContain(`the RESEMBLE config ${config} names the annotator model ${server.url}`);
    expect(await server.requests()).toBe(0);
  }, 90_000);

  it('with --allow-remote URL it runs, saying on stderr where the texts go', async () => {
    const server = await nerServer();
    const { config, data } = setup(server.url);
    const r = await runCli([...evalArgs(config, data), '--allow-remote', `${server.url}/`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `textstress: the RESEMBLE annotator (${config}) sends the texts it annotates to ${server.url} (allowed by --allow-remote)`,
    );
    expect(r.stdout).toContain('Table 5');
    expect(await server.requests()).toBeGreaterThan(0);
  }, 90_000);
});
