/**
 * LLM endpoints (issue 14): throughput of the openai: adapter against `textstress serve --openai --latency-ms 50`
 * (demo-sst2 behind /v1/chat/completions, each answer 50 ms late, as a remote model's round trip), at request
 * concurrency 1, 8 and 32 — one thing changed per row; then the persistent query cache: the same run twice, and a
 * second recipe setting on the same data, with their cache hit rates and the requests they still sent.
 *
 *   npx tsx bench/llm-bench.ts [--n 40] [--latency 50]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { builtinRegistry } from '../src/families/index.ts';
import { runRecipe } from '../src/kinds/run.ts';
import type { RunSummary } from '../src/kinds/attack/run.ts';
import { spawn } from 'node:child_process';

const { values } = parseArgs({ options: { n: { type: 'string', default: '40' }, latency: { type: 'string', default: '50' } } });
const N = Number(values.n);
const DATA = existsSync('../shared/data/sst2/dev.tsv') ? '../shared/data/sst2/dev.tsv' : 'demo/reviews.tsv';
const registry = builtinRegistry();
const scratch = mkdtempSync(join(tmpdir(), 'llm-bench-'));

/** `serve --openai` on a free port with the given latency. */
function startOpenAi(latency: number): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      'bin/textstress.mjs',
      'serve',
      '--model',
      'models/demo-sst2',
      '--openai',
      '--openai-model',
      'demo',
      '--port',
      '0',
      '--latency-ms',
      String(latency),
      '--max-concurrent',
      '64',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /OpenAI-compatible: (http:\/\/\S+?)\/v1\)/.exec(err);
      if (m) resolve({ url: m[1]!, stop: () => child.kill() });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
}

/**
 * A canned OpenAI-compatible server in its own process: every chat answer is the same label with logprobs, after
 * `latency` ms, no model behind it — what the adapter alone can push through (a GPU server's side of the cost is gone).
 */
function startCanned(latency: number): Promise<{ url: string; stop(): void }> {
  const script = `
    const http = require('node:http');
    const body = JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'canned', choices: [{ index: 0, finish_reason: 'stop',
      message: { role: 'assistant', content: 'positive' },
      logprobs: { content: [{ token: 'positive', logprob: -0.1,
        top_logprobs: [{ token: 'positive', logprob: -0.1 }, { token: 'negative', logprob: -2.4 }] }] } }],
      usage: { prompt_tokens: 60, completion_tokens: 1, total_tokens: 61 } });
    const answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const server = http.createServer((req, res) => { req.resume(); req.on('end', () => setTimeout(() => answer(res), ${latency})); });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => console.error('canned at http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /canned at (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, stop: () => child.kill() });
    });
    child.on('exit', () => reject(new Error(`canned server exited: ${err}`)));
  });
}

async function run(
  name: string,
  model: string,
  extra: Record<string, unknown>,
  settings: Record<string, unknown> = { k: 2 },
): Promise<RunSummary & { seconds: number }> {
  const out = join(scratch, name);
  const t0 = performance.now();
  const outcome = await runRecipe({
    registry,
    recipe: 'typos',
    settings,
    model,
    data: DATA,
    limit: N,
    seed: 0,
    out,
    concurrency: 32,
    ...extra,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (outcome.kind !== 'attack') throw new Error('expected a run');
  return { ...outcome.summary, seconds };
}

const latency = Number(values.latency);
const server = await startOpenAi(latency);
const base = `${server.url}/v1`;
const llm = (extra: Record<string, unknown>) => ({
  baseUrl: base,
  labels: ['negative', 'positive'],
  priceInput: 0.15,
  priceOutput: 0.6,
  ...extra,
});
try {
  console.log(
    `typos k=2 on ${N} examples of ${DATA}; serve --openai --latency-ms ${latency} (demo-sst2), ${new Date().toISOString().slice(0, 10)}`,
  );
  const local = await run('local', 'models/demo-sst2', {});
  console.log(`reference, local adapter (no HTTP): ${local.seconds.toFixed(1)} s, ${local.process.model_inferences} inferences`);
  console.log(
    '\n| request concurrency | requests sent | wall (s) | requests/s | lowest concurrency after pushback |\n|---:|---:|---:|---:|---:|',
  );
  for (const c of [1, 8, 32]) {
    const s = await run(`c${c}`, 'openai:demo', llm({ requestConcurrency: c, cache: false }));
    const sent = s.process.spent!.requests;
    console.log(
      `| ${c} | ${sent} | ${s.seconds.toFixed(1)} | ${(sent / s.seconds).toFixed(1)} | ${s.process.spent!.lowest_concurrency ?? c} |`,
    );
  }
  const canned = await startCanned(latency);
  try {
    console.log(`\nThe same, against a canned server (same answer every time, ${latency} ms, no model): the adapter's own ceiling`);
    console.log('\n| request concurrency | requests sent | wall (s) | requests/s |\n|---:|---:|---:|---:|');
    for (const c of [1, 8, 32, 64]) {
      const s = await run(`canned-c${c}`, 'openai:demo', { ...llm({ requestConcurrency: c, cache: false }), baseUrl: `${canned.url}/v1` });
      const sent = s.process.spent!.requests;
      console.log(`| ${c} | ${sent} | ${s.seconds.toFixed(1)} | ${(sent / s.seconds).toFixed(1)} |`);
    }
  } finally {
    canned.stop();
  }
  const cacheDir = join(scratch, 'cache');
  console.log(
    '\n| run (request concurrency 32, one cache folder) | requests | from the disk cache | hit rate | sent to the ' +
      'server | wall (s) |\n|---|---:|---:|---:|---:|---:|',
  );
  const row = (label: string, s: RunSummary & { seconds: number }) =>
    console.log(
      `| ${label} | ${s.process.requests} | ${s.process.disk_cache_hits} | ` +
        `${((100 * (s.process.disk_cache_hits ?? 0)) / s.process.requests).toFixed(1)}% | ${s.process.spent!.requests} ` +
        `| ${s.seconds.toFixed(1)} |`,
    );
  row('typos k=2, first run', await run('cache-1', 'openai:demo', llm({ requestConcurrency: 32, cacheDir })));
  row('the same run again', await run('cache-2', 'openai:demo', llm({ requestConcurrency: 32, cacheDir })));
  row(
    'typos k=1 on the same data (another setting)',
    await run('cache-3', 'openai:demo', llm({ requestConcurrency: 32, cacheDir }), { k: 1 }),
  );
  row('typos k=3 on the same data', await run('cache-4', 'openai:demo', llm({ requestConcurrency: 32, cacheDir }), { k: 3 }));
} finally {
  server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
