/**
 * Issue 35 item 1: an `openai:` typo attack whose server is frozen (`kill -STOP`) mid-run, then thawed, and the run
 * resumed, was billed 1,073 requests against 631 uninterrupted: after the first request failed for good, the
 * examples still running kept sending batches, and every request waiting on the frozen server was retried, each retry
 * billed once the server woke. Replayed with a real `textstress serve --openai` process, frozen with SIGSTOP, counted
 * server-side (GET /v1/stats); and with a server that answers 500 to everything from its 150th request on.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SST2_DEV, DEMO_SST2, runCli, servedUrl, startCliProcess, tmp } from '../cli/helpers.ts';

interface ServerStats {
  chat_requests: number;
  billed_answers: number;
}

/** Per request; the run's default is 60 s, scaled down so the test waits seconds. */
const TIMEOUT_MS = 3000;

const attackArgs = (base: string, cacheDir: string, out: string, more: string[] = []): string[] => [
  'attack',
  'typos',
  '--model',
  'openai:demo',
  '--base-url',
  base,
  '--labels',
  'negative,positive',
  '--label-map',
  '0=negative,1=positive',
  '--data',
  SST2_DEV,
  '--limit',
  '12',
  '--k',
  '1',
  '--timeout',
  String(TIMEOUT_MS),
  '--cache-dir',
  cacheDir,
  '--out',
  out,
  '--no-progress',
  ...more,
];

const outcomes = (dir: string): string[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const r = JSON.parse(l) as { id: string; status: string; perturbed: unknown; edits: unknown };
      return JSON.stringify([r.id, r.status, r.perturbed, r.edits]);
    });

const servers: ChildProcess[] = [];
async function serve(extra: string[] = []): Promise<{ child: ChildProcess; base: string; stats: () => Promise<ServerStats> }> {
  const child = startCliProcess(['serve', '--model', DEMO_SST2, '--openai', '--openai-model', 'demo', '--port', '0', ...extra]);
  servers.push(child);
  const base = `${await servedUrl(child)}/v1`;
  return { child, base, stats: async () => (await (await fetch(`${base}/stats`)).json()) as ServerStats };
}

const exited = (child: ChildProcess): Promise<{ code: number | null; stderr: string }> =>
  new Promise((resolve) => {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });

let uninterrupted = 0;
let full = '';
beforeAll(async () => {
  const { base, stats } = await serve();
  full = tmp('frozen-full');
  const r = await runCli(attackArgs(base, tmp('frozen-full-cache'), full));
  expect(r.code, r.stderr).toBe(0);
  uninterrupted = (await stats()).billed_answers;
}, 120_000);
afterAll(() => {
  for (const s of servers) {
    s.kill('SIGCONT');
    s.kill('SIGTERM');
  }
});

describe('a frozen or failing OpenAI-compatible endpoint (issue 35 item 1)', () => {
  it('frozen mid-run, thawed, resumed: billed at most the uninterrupted run plus the requests in flight; the run stops within about one timeout', async () => {
    expect(uninterrupted).toBeGreaterThan(400);
    const { child: server, base, stats } = await serve();
    const cacheDir = tmp('frozen-cache');
    const out = tmp('frozen');
    // A process of its own: this one must keep running while the run waits on the frozen server.
    const run = startCliProcess(attackArgs(base, cacheDir, out));
    const done = exited(run);
    for (let s = await stats(); s.billed_answers < uninterrupted / 2; s = await stats()) await new Promise((r) => setTimeout(r, 20));
    server.kill('SIGSTOP');
    const frozenAt = performance.now();
    const failed = await done;
    const stoppedAfter = performance.now() - frozenAt;
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /openai:demo at .* gave no answer within 3 s, and answered no other request for the last 1\.5 s of it: the endpoint is hung/,
    );
    expect(failed.stderr).toContain('--resume');
    // Was: every request in flight retried 6 times, 3 s each, and the other examples kept sending (minutes).
    expect(stoppedAfter).toBeLessThan(TIMEOUT_MS + 3000);

    server.kill('SIGCONT');
    // The server answers (and bills) what reached it while frozen; then the run resumes from its cache.
    await new Promise((r) => setTimeout(r, 1500));
    const resumed = await runCli(attackArgs(base, cacheDir, out, ['--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const billed = (await stats()).billed_answers;
    // At most the 8 requests in flight when it froze (the concurrency cap) are paid twice.
    expect(billed).toBeGreaterThanOrEqual(uninterrupted);
    expect(billed).toBeLessThanOrEqual(uninterrupted + 8);
    expect(outcomes(out)).toEqual(outcomes(full));
  }, 120_000);

  it('answering 500 to everything from its 150th request: no request starts after the first fails for good', async () => {
    const { base, stats } = await serve(['--fault', 'down-after:150']);
    const r = await runCli(attackArgs(base, tmp('down-cache'), tmp('down'), ['--retries', '2']));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/failed 3 times; the last time with HTTP 500/);
    const s = await stats();
    expect(s.billed_answers).toBe(150);
    // Those in flight and the retries of each (3 attempts): of the two batches (32 inputs each) being answered, at
    // most 64 inputs, 3 attempts each. Was: 712 more requests, the examples still running sending batch after batch.
    expect(s.chat_requests - 150).toBeLessThanOrEqual(64 * 3);
  }, 60_000);
});
