/**
 * The in-process CLI runner most CLI tests use (in-process.ts): it returns what a child process would (exit code,
 * stdout, stderr) and leaves nothing of a run behind for the next — streams, console, exit code, env, working
 * folder, signal listeners — even when the run fails.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SST2, ROOT, runCli, runCliProcess, tmp } from './helpers.ts';

describe('runCli (in process)', () => {
  it('gives the exit code, stdout and stderr a child process gives, for help, a usage error and a user error', async () => {
    const cases = [['--help'], ['attack', 'typos', '--target', 'middle'], ['grammar-tables', tmp('empty')]];
    // The children start together (start-up is most of their time); the in-process runs go one at a time anyway.
    const children = Promise.all(cases.map((args) => runCliProcess(args)));
    const here = [];
    for (const args of cases) here.push(await runCli(args));
    expect(here).toEqual(await children);
    expect(here.map((r) => r.code)).toEqual([0, 1, 1]);
  });

  it('restores the streams, console, exit code, env and working folder after a failed run, and after a throw', async () => {
    const write = [process.stdout.write, process.stderr.write];
    const log = console.log;
    const listeners = () => ['SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e));
    const before = listeners();
    const cwd = process.cwd();
    // A plugin that leaves a signal listener behind, as a run that is still going would: the runner removes it
    // and throws.
    const plugin = join(tmp('in-process'), 'leaves-a-listener.mjs');
    writeFileSync(plugin, "process.on('SIGINT', () => {});\nexport default [];\n");
    process.chdir(join(ROOT, 'test'));
    process.exitCode = 3;
    delete process.env.TS_IN_PROCESS_PROBE;
    try {
      const failed = await runCli(['eval', '--model', DEMO_SST2, '--data', join(ROOT, 'demo', 'missing.tsv')], {
        TS_IN_PROCESS_PROBE: 'set',
      });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/^textstress: error: .*missing\.tsv/);
      await expect(runCli(['--plugin', plugin, '--help'], { TS_IN_PROCESS_PROBE: 'set' })).rejects.toThrow(/left SIGINT listeners behind/);
      expect(process.exitCode).toBe(3);
      expect(process.env.TS_IN_PROCESS_PROBE).toBeUndefined();
      expect(process.cwd()).toBe(join(ROOT, 'test'));
      expect([process.stdout.write, process.stderr.write]).toEqual(write);
      expect(console.log).toBe(log);
      expect(listeners()).toEqual(before);
    } finally {
      process.exitCode = undefined;
      process.chdir(cwd);
    }
  });

  it('runs one call at a time, so two calls at once keep their own output', async () => {
    const [a, b] = await Promise.all([runCli(['init', '--help']), runCli(['report', '--help'])]);
    expect(a.stdout).toMatch(/^Usage: textstress init/);
    expect(a.stdout).not.toMatch(/textstress report/);
    expect(b.stdout).toMatch(/^Usage: textstress report/);
  });

  it('refuses serve and worker, which keep running until a signal', async () => {
    await expect(runCli(['serve', '--model', DEMO_SST2])).rejects.toThrow(/startCliProcess/);
    await expect(runCli(['worker', '--queue', 'redis://127.0.0.1:9'])).rejects.toThrow(/startCliProcess/);
  });
});
