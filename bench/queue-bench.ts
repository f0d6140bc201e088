/**
 * The Redis queue (issue 15): throughput with 1, 2 and 4 `textstress worker` processes against a model endpoint
 * with added latency (`textstress serve --latency-ms 50`, a remote GPU server's round trip), as the speed-up over
 * one worker; and the queue's overhead per example against a local run with the same examples in flight (one block).
 * Each row changes one thing: the number of workers.
 *
 *   npx tsx bench/queue-bench.ts [--n 128] [--latency 50] [--block 16]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, startQueueWorker } from '../test/cli/helpers.ts';
import { startServer } from './support.ts';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '128' }, latency: { type: 'string', default: '50' }, block: { type: 'string', default: '16' } },
});
const N = Number(values.n);
const DATA = existsSync('../shared/data/sst2/dev.tsv') ? '../shared/data/sst2/dev.tsv' : 'test/fixtures/data/sst2/dev.tsv';
const scratch = mkdtempSync(join(tmpdir(), 'queue-bench-'));

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['bin/textstress.mjs', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function finished(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${err.slice(-2000)}`))));
  });
}

const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', scratch, '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
await sleep(500);
const queueUrl = `redis://127.0.0.1:${port}`;
const model = await startServer('models/demo-sst2', Number(values.latency));
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
    `typos K=1 on ${N} examples of ${DATA}, HTTP model: serve --latency-ms ${values.latency} (demo-sst2), Redis ` +
      `${redisVersion}, blocks of ${block}, ${new Date().toISOString().slice(0, 10)}`,
  );
  let t0 = performance.now();
  await finished(cli(attack(join(scratch, 'local'), ['--concurrency', block])));
  const local = (performance.now() - t0) / 1000;
  console.log(`local run, ${block} examples at once (one block's worth): ${local.toFixed(1)} s, ${(N / local).toFixed(2)} examples/s`);
  console.log('\n| workers | wall (s) | examples/s | speed-up over 1 worker | of linear |\n|---:|---:|---:|---:|---:|');
  let one = 0;
  for (const k of [1, 2, 4]) {
    const workers = await Promise.all(Array.from({ length: k }, () => startQueueWorker(queueUrl)));
    t0 = performance.now();
    await finished(cli(attack(join(scratch, `q${k}`), ['--queue', queueUrl, '--block-size', block])));
    const wall = (performance.now() - t0) / 1000;
    for (const w of workers) w.kill('SIGTERM');
    await sleep(500);
    if (k === 1) one = wall;
    console.log(
      `| ${k} | ${wall.toFixed(1)} | ${(N / wall).toFixed(2)} | ${(one / wall).toFixed(2)}× | ${((100 * one) / wall / k).toFixed(0)}% |`,
    );
    if (k === 1) console.log(`<!-- queue overhead per example vs the local run: ${(((wall - local) / N) * 1000).toFixed(1)} ms -->`);
  }
} finally {
  model.child.kill();
  redis.kill();
  rmSync(scratch, { recursive: true, force: true });
}
