/**
 * Every real-size speed benchmark of issue 33, one after the other, for BENCHMARKS.md ("BERT-base at the speed of the
 * hardware"): builds the benchmark models first when they are missing (`npm run bench:model`), then runs
 * inference, session-options, attack, load-memory and dtype with their defaults. Tables go to the terminal and to
 * bench/.out/speed/all.md, JSON to bench/.out/speed/<name>.json and runs.jsonl. Run it on an idle machine: about
 * 30 minutes on the 2-core development VM (see BENCHMARKS.md for the last timing).
 *
 *   npm run bench:speed                     # = npx tsx bench/speed/all.ts
 *   npx tsx bench/speed/all.ts --only attack,dtype --model models/extra/bench-base
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { args, BENCH_MODEL, list, machine, OUT_DIR } from './support.ts';

const BENCHES = ['inference', 'session-options', 'attack', 'load-memory', 'dtype'];
const a = args({ only: BENCHES.join(','), model: BENCH_MODEL });

function sh(cmd: string, argv: string[]): string {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
  process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${r.status}`);
  return r.stdout;
}

mkdirSync(OUT_DIR, { recursive: true });
const md = path.join(OUT_DIR, 'all.md');
const started = performance.now();
writeFileSync(md, `# bench/speed/all.ts\n\n${JSON.stringify(machine())}\n`);
if (!existsSync(path.join(a.model, 'onnx', 'model_quantized.onnx'))) {
  const size = /bench-(\w+)$/.exec(a.model)?.[1] ?? 'base';
  sh('/usr/bin/python3', ['scripts/bench-model/make_bench_model.py', '--size', size, '--out', a.model, '--dtypes', 'fp16,q8,q4']);
}
if (!existsSync('models/extra/demo-sst2/onnx/model_quantized.onnx')) {
  const from = ['--from', 'models/demo-sst2', '--out', 'models/extra/demo-sst2'];
  sh('/usr/bin/python3', ['scripts/bench-model/make_bench_model.py', ...from, '--dtypes', 'fp16,q8,q4']);
}
for (const name of list(a.only)) {
  if (!BENCHES.includes(name)) throw new Error(`no bench ${name}: ${BENCHES.join(', ')}`);
  const t0 = performance.now();
  const modelArgs = name === 'dtype' ? ['--models', `${a.model},models/extra/demo-sst2`] : ['--model', a.model];
  const out = sh(process.execPath, ['--import', 'tsx', `bench/speed/${name}.ts`, ...modelArgs]);
  const minutes = (performance.now() - t0) / 60_000;
  appendFileSync(md, `\n## ${name} (${minutes.toFixed(1)} min, load ${machine().load_avg_1m} at the end)\n\n${out}\n`);
}
const total = ((performance.now() - started) / 60_000).toFixed(1);
appendFileSync(md, `\nAll: ${total} min.\n`);
console.log(`\nAll benchmarks: ${total} min; tables in ${md}`);
