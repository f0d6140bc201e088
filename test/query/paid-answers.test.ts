/**
 * Issue 25, item 1 (and two of item 8): every answer an openai: model paid for is cached the moment it comes, per
 * input; --max-cost stops before the cap, its message counts what the server answered, and a resume never pays
 * twice. Replayed as the issue ran it: `textstress serve --model models/demo-sst2 --openai` in its own process, counted
 * server-side (GET /v1/stats), and `attack typos --model openai:demo … --max-cost 0.03 --cache-dir C`.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiModel } from '../../src/models/openai/adapter.ts';
import { loadModel } from '../../src/models/load.ts';
import { parseFaults } from '../../src/models/openai-compat.ts';
import { startModelServer } from '../../src/models/serve.ts';
import { openDiskCache } from '../../src/query/disk-cache.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { DEMO_SST2, ROOT, runCli, servedUrl, startCliProcess, tmp } from '../cli/helpers.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');

interface ServerStats {
  chat_requests: number;
  billed_answers: number;
}

/** The issue's command, with its own cache folder and output folder. */
const attackArgs = (base: string, cacheDir: string, out: string, more: string[]): string[] => [
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
  REVIEWS,
  '--k',
  '2',
  '--limit',
  '12',
  '--price-input',
  '1',
  '--price-output',
  '2',
  '--cache-dir',
  cacheDir,
  '--out',
  out,
  '--no-progress',
  ...more,
];

type Line = { id: string; [k: string]: unknown };
const byId = (dir: string): Line[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line)
    .sort((a, b) => a.id.localeCompare(b.id));
const spentRequests = (dir: string): number =>
  (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { process: { spent: { requests: number } } }).process.spent.requests;

/** Answers in the query cache folder, as `textstress cache stats` counts them. */
async function cached(cacheDir: string): Promise<number> {
  const r = await runCli(['cache', 'stats', '--cache-dir', cacheDir]);
  expect(r.code, r.stderr).toBe(0);
  const m = /: (\d+) answers?/.exec(r.stdout);
  expect(m, r.stdout).not.toBeNull();
  return Number(m![1]);
}

describe('paid answers against serve --openai, counted server-side', () => {
  let server: ChildProcess;
  let url: string;
  let base: string;
  /** What the uninterrupted run sent (the first test measures it). */
  let uninterrupted = 0;
  let full = '';
  let baseline: { code: number | null; stderr: string; billed: number; cacheDir: string } = {
    code: -1,
    stderr: '',
    billed: 0,
    cacheDir: '',
  };
  const stats = async (): Promise<ServerStats> => (await (await fetch(`${base}/stats`)).json()) as ServerStats;

  beforeAll(async () => {
    server = startCliProcess(['serve', '--model', DEMO_SST2, '--openai', '--openai-model', 'demo', '--port', '0']);
    url = await servedUrl(server);
    base = `${url}/v1`;
    // The uninterrupted run, the yardstick of the tests below (a setup step: it takes the most time).
    const before = await stats();
    const cacheDir = tmp('paid-full-cache');
    full = tmp('paid-full');
    const r = await runCli(attackArgs(base, cacheDir, full, ['--max-cost', '1']));
    const after = await stats();
    uninterrupted = after.chat_requests - before.chat_requests;
    baseline = { code: r.code, stderr: r.stderr, billed: after.billed_answers - before.billed_answers, cacheDir };
  }, 180_000); // ~8 s alone; 48 s seen on a machine shared by six test runs
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('--max-cost 0.0005: the two answers paid are reported and cached', async () => {
    const cacheDir = tmp('paid-tiny-cache');
    const s0 = await stats();
    const r = await runCli(attackArgs(base, cacheDir, tmp('paid-tiny'), ['--max-cost', '0.0005']));
    const s1 = await stats();
    expect(r.code).toBe(1);
    expect(s1.chat_requests - s0.chat_requests).toBe(2);
    expect(s1.billed_answers - s0.billed_answers).toBe(2);
    expect(r.stderr).toMatch(/stopped before --max-cost \$0\.000500: \$0\.000\d+ spent on 2 answered requests; /);
    expect(r.stderr).not.toMatch(/\b0 requests/);
    expect(await cached(cacheDir)).toBe(2);
  });
  it('an uninterrupted run: the summary counts exactly the requests the server answered, and the cache holds each', async () => {
    expect(baseline.code, baseline.stderr).toBe(0);
    expect(baseline.billed).toBe(uninterrupted);
    expect(uninterrupted).toBeGreaterThan(400);
    expect(spentRequests(full)).toBe(uninterrupted);
    expect(await cached(baseline.cacheDir)).toBe(uninterrupted);
  });

  it('--max-cost 0.03 stops before the cap with the server-side count; the resume pays for none of those answers again', async () => {
    expect(uninterrupted).toBeGreaterThan(0);
    const cacheDir = tmp('paid-cap-cache');
    const out = tmp('paid-cap');
    const s0 = await stats();
    const stopped = await runCli(attackArgs(base, cacheDir, out, ['--max-cost', '0.03']));
    const s1 = await stats();
    expect(stopped.code).toBe(1);
    const m = /stopped before --max-cost \$0\.0300: \$(0\.\d+) spent on (\d+) answered requests; the next request could cost up to/.exec(
      stopped.stderr,
    );
    expect(m, stopped.stderr).not.toBeNull();
    const interrupted = s1.chat_requests - s0.chat_requests;
    // The message counts what the server answered, every one of them billed, none past the cap, and each is cached.
    expect(Number(m![2])).toBe(interrupted);
    expect(s1.billed_answers - s0.billed_answers).toBe(interrupted);
    expect(Number(m![1])).toBeLessThanOrEqual(0.03);
    expect(interrupted).toBeGreaterThan(0);
    expect(interrupted).toBeLessThan(uninterrupted);
    expect(await cached(cacheDir)).toBe(interrupted);

    const resumed = await runCli(attackArgs(base, cacheDir, out, ['--max-cost', '0.2', '--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const s2 = await stats();
    const resumeSent = s2.chat_requests - s1.chat_requests;
    expect(spentRequests(out)).toBe(resumeSent);
    // Nothing paid twice: the stop waits for the requests in flight and caches them, so the interrupted run and its
    // resume send exactly what the uninterrupted run sent (the bound of the issue: at most that plus those in flight).
    expect(interrupted + resumeSent).toBe(uninterrupted);
    expect(await cached(cacheDir)).toBe(uninterrupted);
    expect(byId(out)).toEqual(byId(full));
  });
});

describe('a 429 storm: the answers that came before the retries ran out are kept', () => {
  it('caches (memory and disk) and counts every answered input of a batch in which others failed; nothing starts after', async () => {
    const local = await loadModel(DEMO_SST2);
    // Every third chat request is refused with 429, and no retry is allowed: the first refusal fails for good.
    const server = await startModelServer(local, { port: 0, openai: { modelName: 'demo', faults: parseFaults('429:3,retry-after:0') } });
    const cacheDir = tmp('paid-storm-cache');
    const disk = openDiskCache(cacheDir);
    const open = () => {
      const model = createOpenAiModel('demo', {
        baseUrl: `${server.url}/v1`,
        labels: ['negative', 'positive'],
        retries: 0,
        prices: { input: 1, output: 2 },
      });
      return { model, engine: new QueryEngine(model, { diskCache: disk }) };
    };
    try {
      const { model, engine } = open();
      const texts = Array.from({ length: 12 }, (_, i) => `review number ${i} was ${i % 2 ? 'great' : 'dull'} .`);
      const settled = await Promise.allSettled(texts.map((text) => engine.queryOne({ kind: 'text', text })));
      const answered = settled.filter((s) => s.status === 'fulfilled').length;
      const failed = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
      // The eight sent at once (the concurrency cap) are answered or refused; the circuit opened at the first
      // refusal, so of the four waiting at most the few sent before it came were asked.
      expect(answered).toBeGreaterThanOrEqual(5);
      expect(answered + failed.length).toBe(12);
      // Every failure is the refusal itself: a query never sent fails with the error that stopped the run.
      for (const f of failed) expect(f).toMatch(/failed 1 times; the last time with HTTP 429/);
      const { chat_requests, billed_answers } = (await (await fetch(`${server.url}/v1/stats`)).json()) as ServerStats;
      expect(billed_answers).toBe(answered);
      expect(chat_requests).toBe(answered + Math.floor(chat_requests / 3));
      expect(chat_requests).toBeLessThan(12);
      expect(model.meter.requests).toBe(answered);
      expect(engine.stats.inferences).toBe(answered);
      expect(engine.cacheUse.entries).toBe(answered);
      await engine.flushed();
      expect(disk.stats().entries).toBe(answered);
      // The stopped engine asks nothing more; a new one answers the paid answers from the disk cache and sends
      // only the inputs never answered.
      await expect(engine.queryOne({ kind: 'text', text: texts[0]! })).resolves.toMatchObject({ kind: 'classes' });
      await expect(engine.queryOne({ kind: 'text', text: 'never asked before' })).rejects.toThrow(/HTTP 429/);
      const fresh = open();
      const again = await Promise.allSettled(texts.map((text) => fresh.engine.queryOne({ kind: 'text', text })));
      const after = (await (await fetch(`${server.url}/v1/stats`)).json()) as ServerStats;
      expect(fresh.engine.stats.diskHits).toBe(answered);
      expect(after.chat_requests - chat_requests).toBeLessThanOrEqual(failed.length);
      expect(after.billed_answers - billed_answers).toBe(again.filter((s) => s.status === 'fulfilled').length - answered);
    } finally {
      await server.close();
      await disk.close();
      await local.close?.();
    }
  });
});

describe('item 8: the openai: model where nothing is sent, and where it cannot serve', () => {
  it('--dry-run needs no OPENAI_API_KEY: it sends nothing', async () => {
    const r = await runCli(
      [
        'attack',
        'typos',
        '--model',
        'openai:gpt-4o-mini',
        '--base-url',
        'https://api.openai.com/v1',
        '--labels',
        'negative,positive',
        '--label-map',
        '0=negative,1=positive',
        '--data',
        REVIEWS,
        '--limit',
        '3',
        '--price-input',
        '1',
        '--price-output',
        '2',
        '--cache-dir',
        tmp('paid-dry-cache'),
        '--dry-run',
      ],
      { OPENAI_API_KEY: '' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Dry run: nothing was sent/);
    expect(r.stdout).toMatch(/^typos +3 +≤ \d+/m);
  });

  it('probe layers --model openai:demo says the encoder probes need a local model folder', async () => {
    const r = await runCli(['probe', 'layers', '--model', 'openai:demo', '--out', tmp('paid-probe')], { OPENAI_API_KEY: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /textstress probe layers reads the model's inner layers \(hidden states and attentions\), which openai:demo does not give/,
    );
    expect(r.stderr).toMatch(/need a local transformers\.js model folder/);
    expect(r.stderr).not.toMatch(/does not exist|label names|API key/);
  });
});
