/**
 * The Redis queue (issues 15, 25): throughput with 1, 2, 4 and 8 `textstress worker` processes against a stand-in
 * model that only waits (an HTTP endpoint in this process answering every request after --latency ms, with no
 * inference: the CPU a real model would take is not what is measured), as the speed-up over one worker; and the
 * queue's overhead per example against a local run with the same examples in flight (one block). Each row changes
 * one thing: the number of workers.
 *
 *   npx tsx bench/queue-bench.ts [--n 64] [--latency 100] [--block 4] [--workers 1,2,4,8]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, startQueueWorker } from '../test/cli/helpers.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '64' },
    latency: { type: 'string', default: '100' },
    block: { type: 'string', default: '4' },
    workers: { type: 'string', default: '1,2,4,8' },
  },
});
const N = Number(values.n);
const DATA = existsSync('../shared/data/sst2/dev.tsv') ? '../shared/data/sst2/dev.tsv' : 'test/fixtures/data/sst2/dev.tsv';
const scratch = mkdtempSync(join(tmpdir(), 'queue-bench-'));

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['bin/textstress.mjs', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Resolves at exit with the seconds since the coordinator said "queued" (its start-up and model check left out). */
function finished(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let err = '';
    let queuedAt = performance.now();
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (/queued \d+ examples/.test(d.toString())) queuedAt = performance.now();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve((performance.now() - queuedAt) / 1000) : reject(new Error(`exit ${code}: ${err.slice(-2000)}`)),
    );
  });
}

const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', scratch, '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
await sleep(500);
const queueUrl = `redis://127.0.0.1:${port}`;
// The stand-in model: the textstress HTTP model API (docs/http-model-api.md), answering after --latency ms with a
// score drawn from a hash of the input (deterministic, so every run attacks alike), no inference.
let requests = 0;
const labels = ['negative', 'positive'];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    const reply = (o: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(o));
    if (req.method === 'GET') return reply({ task: 'text-classification', labels, id: 'waiting-stand-in' });
    requests++;
    const { inputs } = JSON.parse(body) as { inputs: unknown[] };
    const outputs = inputs.map((i) => {
      const p = createHash('sha1').update(JSON.stringify(i)).digest().readUInt32BE(0) / 2 ** 32;
      return { kind: 'classes', labels, probs: [p, 1 - p] };
    });
    setTimeout(() => reply({ outputs }), Number(values.latency));
  });
});
const modelPort = await freePort();
await new Promise<void>((r) => server.listen(modelPort, '127.0.0.1', r));
const model = { url: `http://127.0.0.1:${modelPort}` };
const block = values.block!;
const attack = (out: string, more: string[]) => [
  'attack',
  'typos',
  '--model',
  model.url,
  '--data',
  DATA,
  '--limit',
  String(N),
  '--k',
  '1',
  '--seed',
  '0',
  '--out',
  out,
  '--overwrite',
  '--no-progress',
  ...more,
];
try {
  const redisVersion = spawnSync('redis-server', ['--version']).stdout.toString().trim().split(' ')[2];
  console.log(
    `typos K=1 on ${N} examples of ${DATA}, stand-in HTTP model waiting ${values.latency} ms per request, Redis ` +
      `${redisVersion}, blocks of ${block}, ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  let t0 = performance.now();
  await finished(cli(attack(join(scratch, 'local'), ['--concurrency', block])));
  const local = (performance.now() - t0) / 1000;
  console.log(
    `local run, ${block} examples at once (one block's worth): ${local.toFixed(1)} s, ${(N / local).toFixed(2)} examples/s, ${requests} requests`,
  );
  console.log(
    '\n| workers | wall (s) | queued → done (s) | examples/s (queued → done) | speed-up over 1 worker | of linear |\n|---:|---:|---:|---:|---:|---:|',
  );
  let one = 0;
  for (const k of values.workers!.split(',').map(Number)) {
    const workers = await Promise.all(Array.from({ length: k }, () => startQueueWorker(queueUrl)));
    t0 = performance.now();
    const waited = await finished(cli(attack(join(scratch, `q${k}`), ['--queue', queueUrl, '--block-size', block])));
    const wall = (performance.now() - t0) / 1000;
    for (const w of workers) w.kill('SIGTERM');
    await sleep(500);
    if (k === 1) one = waited;
    console.log(
      `| ${k} | ${wall.toFixed(1)} | ${waited.toFixed(1)} | ${(N / waited).toFixed(2)} | ${(one / waited).toFixed(2)}× | ` +
        `${((100 * one) / waited / k).toFixed(0)}% |`,
    );
    if (k === 1) console.log(`<!-- queue overhead per example vs the local run: ${(((wall - local) / N) * 1000).toFixed(1)} ms -->`);
  }
} finally {
  console.log(
    `load at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  server.close();
  redis.kill();
  rmSync(scratch, { recursive: true, force: true });
}
