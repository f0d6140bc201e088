/**
 * One writer per output folder, with real processes (npm run test:faults): a second --resume beside a running
 * run is refused, and a stale lock left by kill -9 is taken over.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { startModelServer } from '../../src/models/serve.ts';
import { lexiconModel } from '../core/helpers.ts';
import { DEMO_SST2, ROOT, expectCleanError, runCli, startCliProcess, tmp } from '../cli/helpers.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');

describe('one writer per output folder', () => {
  const args = (out: string, more: string[] = []) => [
    'attack',
    'typos',
    '--model',
    DEMO_SST2,
    '--data',
    REVIEWS,
    '--k',
    '4',
    '--target',
    'min',
    '--out',
    out,
    '--no-progress',
    '--concurrency',
    '2',
    ...more,
  ];
  const ids = (out: string): string[] =>
    readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
  const waitFor = async (cond: () => boolean, ms = 20_000): Promise<void> => {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > ms) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('a second --resume beside a running run is refused; the run finishes with every id once', async () => {
    const out = tmp('lock');
    // A model that takes 150 ms per request keeps the first run busy for seconds, long enough for a second
    // process to start beside it.
    const server = await startModelServer(
      createFunctionModel((inputs) => lexiconModel.predict(inputs), lexiconModel.info),
      { port: 0, latencyMs: 150 },
    );
    const slow = (more: string[] = []) => [
      'attack',
      'typos',
      '--model',
      server.url,
      '--data',
      REVIEWS,
      '--k',
      '3',
      '--out',
      out,
      '--no-progress',
      '--concurrency',
      '2',
      ...more,
    ];
    // A process: the lock is held by another process (pid and host), which the second run must see.
    const first = startCliProcess(slow());
    const done = new Promise<number | null>((r) => first.on('close', r));
    await waitFor(() => existsSync(join(out, '.textstress.lock')) && existsSync(join(out, 'results.jsonl')));
    const second = await runCli(slow(['--resume']));
    expect(expectCleanError(second)).toMatch(/is in use by another textstress run \(process \d+ on /);
    expect(await done).toBe(0);
    const got = ids(out);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBe(50);
    expect(existsSync(join(out, '.textstress.lock'))).toBe(false);
    await server.close();
  });

  it('after kill -9 the stale lock is taken over and --resume completes the run, every id once', async () => {
    const out = tmp('lock-kill');
    // A process: only a process can be killed with -9, leaving its lock behind.
    const first = startCliProcess(args(out));
    await waitFor(() => existsSync(join(out, 'results.jsonl')) && readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').length > 3);
    first.kill('SIGKILL');
    await new Promise((r) => first.on('close', r));
    expect(existsSync(join(out, '.textstress.lock'))).toBe(true);
    const r = await runCli(args(out, ['--resume']));
    expect(r.code, r.stderr).toBe(0);
    const got = ids(out);
    expect(got.length).toBe(50);
    expect(new Set(got).size).toBe(50);
  });

  it('--resume refuses a folder without run.json, and a data file that changed since the run started', async () => {
    const out = tmp('resume-checks');
    const dataDir = tmp('resume-data');
    const data = join(dataDir, 'reviews.tsv');
    writeFileSync(data, readFileSync(REVIEWS, 'utf8'));
    const base = ['attack', 'typos', '--model', DEMO_SST2, '--data', data, '--limit', '4', '--out', out, '--no-progress'];
    expect((await runCli(base)).code).toBe(0);
    writeFileSync(data, readFileSync(REVIEWS, 'utf8').replace('\t1\n', '\t0\n'));
    expect(expectCleanError(await runCli([...base, '--resume']))).toMatch(/cannot resume: the data file .* changed since the run started/);
    rmSync(join(out, 'run.json'));
    expect(expectCleanError(await runCli([...base, '--resume']))).toMatch(/cannot resume: .*run\.json is missing/);
    mkdirSync(out, { recursive: true });
  });
});
