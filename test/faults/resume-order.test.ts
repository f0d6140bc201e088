/**
 * An HTTP model killed mid-run (kill -9 of `textstress serve`), restarted on the same port, and the run resumed:
 * results.jsonl stays in data order at every moment (results finished after the failed example wait in
 * results.held.jsonl, not ahead of it), run.json never says complete early, and the resume finishes every output
 * byte for byte as an uninterrupted run writes it: for an entity probe D_worst and D_best too.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONLL,
  DEMO_NER,
  DEMO_SST2,
  SST2_DEV,
  freePort,
  readJson,
  runCli,
  servedUrl,
  stable,
  startCliProcess,
  tmp,
} from '../cli/helpers.ts';

const servers: ChildProcess[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.kill('SIGKILL');
});

/** `textstress serve` on `port` with the 40 ms per request. A process: it is what gets killed with -9. */
async function serve(model: string, port: number): Promise<ChildProcess> {
  const server = startCliProcess(['serve', '--model', model, '--port', String(port), '--latency-ms', '40']);
  servers.push(server);
  await servedUrl(server);
  return server;
}

const lines = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
const idsOf = (path: string): string[] => lines(path).map((l) => (JSON.parse(l) as { id: string }).id);

/** Kills the server with -9 once the run has written `after` results, then waits for the run to fail. */
async function killMidRun(server: ChildProcess, results: string, run: Promise<{ code: number | null; stderr: string }>, after: number) {
  let finished = false;
  void run.finally(() => (finished = true));
  while (!finished && lines(results).length < after) await new Promise((r) => setTimeout(r, 10));
  expect(finished, 'the run finished before the server could be killed').toBe(false);
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  return run;
}

/**
 * The interrupted run's folder as the fix promises it: results.jsonl a prefix of the data order, run.json failed,
 * no summary; the message names the kept results (and the held ones, when there are any).
 */
function expectStoppedInOrder(dir: string, dataIds: string[], stderr: string): void {
  const written = idsOf(join(dir, 'results.jsonl'));
  expect(written).toEqual(dataIds.slice(0, written.length));
  const held = idsOf(join(dir, 'results.held.jsonl'));
  // Held results come after the written ones in the data, each once.
  for (const id of held) expect(dataIds.indexOf(id)).toBeGreaterThan(written.length);
  expect(new Set(held).size).toBe(held.length);
  expect(written.length + held.length).toBeLessThan(dataIds.length);
  expect(readJson(join(dir, 'run.json')).status).toBe('failed');
  expect(existsSync(join(dir, 'summary.json'))).toBe(false);
  expect(stderr).toMatch(new RegExp(`the run stopped at example .*${written.length} finished results are kept in `));
  if (held.length) expect(stderr).toContain(`${held.length} finished after it wait in ${join(dir, 'results.held.jsonl')}`);
}

describe('a model server killed mid-run, restarted, and the run resumed', () => {
  it('probe entities: results in data order, run.json failed until D_worst and D_best are written, resume byte-identical', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const args = (model: string, out: string, extra: string[] = []): string[] => [
      'probe',
      'entities',
      '--model',
      model,
      '--data',
      CONLL,
      // The command (--limit 100) over the committed fixture's 60 sentences.
      '--limit',
      '100',
      '--budget',
      '10',
      '--batch-size',
      '4',
      '--retries',
      '1',
      '--out',
      out,
      '--no-progress',
      ...extra,
    ];
    const killed = join(tmp('probe-killed'), 'D');
    const full = join(tmp('probe-full'), 'D');
    const first = await serve(DEMO_NER, port);
    const [stopped, uninterrupted] = await Promise.all([
      killMidRun(first, join(killed, 'results.jsonl'), runCli(args(url, killed)), 1),
      // The same model in this process gives the same results as over HTTP.
      runCli(args(DEMO_NER, full)),
    ]);
    expect(stopped.code, stopped.stderr).not.toBe(0);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const dataIds = idsOf(join(full, 'results.jsonl'));
    expect(dataIds).toHaveLength(60);
    expectStoppedInOrder(killed, dataIds, stopped.stderr);
    expect(existsSync(join(killed, 'd_worst.conll'))).toBe(false);

    await serve(DEMO_NER, port);
    const resumed = await runCli(args(url, killed, ['--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`D_worst: ${join(killed, 'd_worst.conll')}`);
    for (const f of ['results.jsonl', 'd_worst.conll', 'd_best.conll']) {
      expect(readFileSync(join(killed, f), 'utf8'), f).toBe(readFileSync(join(full, f), 'utf8'));
    }
    expect(existsSync(join(killed, 'results.held.jsonl'))).toBe(false);
    expect(readJson(join(killed, 'run.json')).status).toBe('complete');
    const { model: _m1, ...summary } = stable(readJson(join(killed, 'summary.json')));
    const { model: _m2, ...expected } = stable(readJson(join(full, 'summary.json')));
    expect(summary).toEqual(expected);
    // And a later resume of the finished folder finishes again, as the same bytes.
    const again = await runCli(args(url, killed, ['--resume']));
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(killed, 'd_best.conll'), 'utf8')).toBe(readFileSync(join(full, 'd_best.conll'), 'utf8'));

    // A folder an older version left: results out of data order, run.json complete, no D_worst / D_best. A resume
    // now writes them (before, every resume failed with "results.jsonl holds …-6 where the data holds …-5").
    const resultLines = lines(join(killed, 'results.jsonl'));
    const [five] = resultLines.splice(5, 1);
    writeFileSync(join(killed, 'results.jsonl'), [...resultLines, five].join('\n') + '\n');
    for (const f of ['d_worst.conll', 'd_best.conll']) rmSync(join(killed, f));
    const legacy = await runCli(args(url, killed, ['--resume']));
    expect(legacy.code, legacy.stderr).toBe(0);
    for (const f of ['d_worst.conll', 'd_best.conll']) {
      expect(readFileSync(join(killed, f), 'utf8'), f).toBe(readFileSync(join(full, f), 'utf8'));
    }
    // 33–57 s measured while other worktrees' tests loaded the two cores (load average 12).
  }, 180_000);

  it('attack typos over HTTP: the resumed results.jsonl is byte-identical to an uninterrupted run’s', async () => {
    const port = await freePort();
    const args = (model: string, out: string, extra: string[] = []): string[] => [
      'attack',
      'typos',
      '--model',
      model,
      '--data',
      SST2_DEV,
      '--k',
      '2',
      '--limit',
      '32',
      '--concurrency',
      '8',
      '--retries',
      '1',
      '--out',
      out,
      '--no-progress',
      ...extra,
    ];
    const url = `http://127.0.0.1:${port}`;
    const killed = tmp('attack-killed');
    const full = tmp('attack-full');
    const first = await serve(DEMO_SST2, port);
    const [stopped, uninterrupted] = await Promise.all([
      killMidRun(first, join(killed, 'results.jsonl'), runCli(args(url, killed)), 4),
      // The same model in this process gives the same results as over HTTP (attack.test.ts).
      runCli(args(DEMO_SST2, full)),
    ]);
    expect(stopped.code, stopped.stderr).not.toBe(0);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const dataIds = idsOf(join(full, 'results.jsonl'));
    expect(dataIds).toHaveLength(32);
    expectStoppedInOrder(killed, dataIds, stopped.stderr);

    await serve(DEMO_SST2, port);
    const resumed = await runCli(args(url, killed, ['--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(killed, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(full, 'results.jsonl'), 'utf8'));
    expect(existsSync(join(killed, 'results.held.jsonl'))).toBe(false);
    expect(readJson(join(killed, 'run.json')).status).toBe('complete');
    expect(stable(readJson(join(killed, 'summary.json'))).clean_accuracy).toBe(stable(readJson(join(full, 'summary.json'))).clean_accuracy);
  }, 120_000);
});
