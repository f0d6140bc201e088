/**
 * Model load time and resident memory at real size (issue 33, item 2): how many copies of the weights a process
 * holds — (RSS after loading − RSS with the libraries alone) ÷ the weight file's size — for the attack path
 * (transformers.js session), the probes' encoder session, and whole CLI runs (peak RSS by /usr/bin/time): an attack,
 * and `probe heads`, which reads the model's inner layers. Each measurement is a process of its own
 * (bench/speed/memory-child.ts); load times are the median of --repeats.
 *
 *   npx tsx bench/speed/load-memory.ts [--model models/extra/bench-base] [--repeats 3]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { args, BENCH_MODEL, fmt, machine, median, needModel, record, SST2, table } from './support.ts';

const a = args({ model: BENCH_MODEL, repeats: '3' });
const dir = needModel(a.model);
const weightsMb = statSync(path.join(dir, 'onnx', 'model.onnx')).size / 2 ** 20;

type Result = Record<string, number> & { mode: string };
function child(mode: string, ...rest: string[]): Result {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/speed/memory-child.ts', mode, ...rest], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Result;
}
function repeated(mode: string, ...rest: string[]): Result {
  const runs = Array.from({ length: Number(a.repeats) }, () => child(mode, ...rest));
  console.error(`${mode} ${rest.join(' ')}: ${JSON.stringify(runs)}`);
  const keys = Object.keys(runs[0]!).filter((k) => k !== 'mode');
  return { mode, ...Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]!))])) } as Result;
}
/** A CLI run's wall time and peak RSS (/usr/bin/time). */
function cli(argv: string[]): { seconds: number; peak_mb: number } {
  const out = mkdtempSync(path.join(tmpdir(), 'textstress-mem-'));
  try {
    const r = spawnSync(
      '/usr/bin/time',
      ['-f', 'TIME %e %M', process.execPath, 'bin/textstress.mjs', ...argv, '--out', out, '--no-progress'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const m = /TIME ([\d.]+) (\d+)/.exec(r.stderr);
    if (r.status !== 0 || !m) throw new Error(`textstress ${argv.join(' ')} failed: ${r.stderr}`);
    return { seconds: Number(m[1]), peak_mb: Math.round(Number(m[2]) / 1024) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

console.log(JSON.stringify(machine()));
const bare = repeated('bare');
const model = repeated('model', dir);
const noCap = repeated('model', dir, JSON.stringify({ maxBatchTokens: 1e9 }));
const noArena = repeated('model', dir, JSON.stringify({ onnxOptions: { mem_arena: false } }));
const noPrepack = repeated('model', dir, JSON.stringify({ onnxOptions: { prepacking: false } }));
const encoder = repeated('encoder', dir);
const attack = cli(['attack', 'typos', '--model', dir, '--data', SST2, '--limit', '3', '--k', '1']);
const probe = cli(['probe', 'heads', '--model', dir, '--pairs', '10', '--error-types', 'Worder', '--text', 'wordnet']);
const copies = (rss: number): string => fmt((rss - bare.rss_start_mb!) / weightsMb, 2);

console.log(`\n${a.model}: weights ${fmt(weightsMb, 0)} MB; libraries alone ${bare.peak_mb} MB RSS\n`);
console.log(
  table(
    ['process', 'load (s)', 'RSS loaded (MB)', 'copies of the weights', 'after 32×128 tokens', 'after 24×512', 'peak RSS (MB)'],
    [
      ['attack model (transformers.js session), defaults', model, model],
      ['  … without the token cap (64 rows a run, any length)', noCap, noCap],
      ['  … --onnx-options mem_arena=off', noArena, noArena],
      ['  … --onnx-options prepacking=off', noPrepack, noPrepack],
    ]
      .map(([name, r]) => {
        const x = r as Result;
        return [
          name as string,
          fmt(x.load_seconds!),
          String(x.rss_loaded_mb),
          copies(x.rss_loaded_mb!),
          String(x.rss_after_128_mb),
          String(x.rss_after_512_mb),
          String(x.peak_mb),
        ];
      })
      .concat([
        [
          "probes' encoder session (hidden states as outputs)",
          fmt(encoder.load_seconds!),
          String(encoder.rss_loaded_mb),
          copies(encoder.rss_after_gc_mb!),
          '—',
          '—',
          String(encoder.peak_mb),
        ],
        [
          'CLI: attack typos, 3 SST-2 sentences',
          `${fmt(attack.seconds)} (whole run)`,
          '—',
          copies(attack.peak_mb),
          '—',
          '—',
          String(attack.peak_mb),
        ],
        ['CLI: probe heads, 10 pairs', `${fmt(probe.seconds)} (whole run)`, '—', copies(probe.peak_mb), '—', '—', String(probe.peak_mb)],
      ]),
  ),
);
console.log('\n(copies: RSS − RSS with the libraries alone, ÷ the weight file; for CLI runs from the peak RSS.)');
record('load-memory', {
  model: a.model,
  weights_mb: Math.round(weightsMb),
  repeats: Number(a.repeats),
  bare,
  attack_model: model,
  no_token_cap: noCap,
  no_arena: noArena,
  encoder,
  cli: { attack, probe },
});
