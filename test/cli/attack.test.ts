import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONLL, DEMO_NER, DEMO_SST2, SST2_DEV, readJson, readJsonl, runCli, servedUrl, stable, startCliProcess, tmp } from './helpers.ts';

describe('textstress attack typos on demo-sst2 over SST-2 dev (first 400 sentences)', () => {
  it('writes summary.json with the documented fields, results.jsonl and a table', async () => {
    const out = tmp('attack');
    const r = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--target',
      'max',
      '--k',
      '1',
      '--limit',
      '40',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/attack success rate/);
    const s = readJson(join(out, 'summary.json'));
    for (const key of [
      'clean_accuracy',
      'attacked_accuracy',
      'attack_success_rate',
      'mean_perturbed_word_pct',
      'mean_queries',
      'cache_hit_rate',
      'n',
      'wall_seconds',
    ]) {
      expect(typeof s[key], key).toBe('number');
    }
    expect(s).toMatchObject({ complete: true, recipe: 'typos', n: 40, seed: 0 });
    expect(s.clean_accuracy as number).toBeGreaterThan(0.6);
    expect(s.attacked_accuracy as number).toBeLessThan(s.clean_accuracy as number);
    const results = readJsonl(join(out, 'results.jsonl'));
    expect(results).toHaveLength(40);
    const hit = results.find((x) => x.status === 'succeeded')!;
    expect(hit.edits).toHaveLength(1);
    expect(hit.edits[0]!.type).toMatch(/^typo:/);
    expect((hit.perturbed.text as string).slice(hit.edits[0]!.start)).toMatch(new RegExp(`^${hit.edits[0]!.after}`));
    expect(hit.subwords![0]!.after_pieces.length).toBeGreaterThan(0);
  });

  it('gives the same per-example results through `textstress serve` over HTTP as locally', async () => {
    // A process: `serve` runs until a signal, and the attack must reach it over HTTP as it would another machine.
    const server = startCliProcess(['serve', '--model', DEMO_SST2, '--port', '0']);
    try {
      const url = await servedUrl(server);
      const args = (model: string, out: string): string[] => [
        'attack',
        'typos',
        '--model',
        model,
        '--data',
        SST2_DEV,
        '--k',
        '2',
        '--target',
        'random',
        '--seed',
        '7',
        '--limit',
        '25',
        '--out',
        out,
        '--no-progress',
      ];
      const local = tmp('local');
      const remote = tmp('remote');
      const [a, b] = await Promise.all([runCli(args(DEMO_SST2, local)), runCli(args(url, remote))]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(readJsonl(join(remote, 'results.jsonl'))).toEqual(readJsonl(join(local, 'results.jsonl')));
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('resumes after kill -9: every example exactly once, same summary as an uninterrupted run', async () => {
    const args = (out: string, extra: string[] = []): string[] => [
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--k',
      '3',
      '--limit',
      '80',
      '--concurrency',
      '8',
      '--out',
      out,
      '--no-progress',
      ...extra,
    ];
    const full = tmp('full');
    const killed = tmp('killed');
    // A process: only a process can be killed with -9 mid-run (the resume and the uninterrupted run need none).
    const child = startCliProcess(args(killed));
    const results = join(killed, 'results.jsonl');
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= 20) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 20);
      child.on('exit', (code) => {
        clearInterval(timer);
        if (code === 0) reject(new Error('the run finished before it could be killed'));
      });
    });
    await new Promise((r) => child.once('close', r));
    expect(existsSync(join(killed, 'summary.json'))).toBe(false);
    const partial = readFileSync(results, 'utf8').split('\n').length - 1;
    expect(partial).toBeLessThan(80);

    const again = await runCli(args(killed));
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--resume/);

    const [resumed, uninterrupted] = await Promise.all([runCli(args(killed, ['--resume'])), runCli(args(full))]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const ids = readJsonl(results).map((x) => x.id);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
    expect(stable(readJson(join(killed, 'summary.json')))).toEqual(stable(readJson(join(full, 'summary.json'))));
  });
});

describe('textstress attack typos on demo-ner over CoNLL-2003-format sentences', () => {
  it('lowers entity F1 while never touching entity tokens', async () => {
    const out = tmp('ner');
    const r = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_NER,
      '--data',
      CONLL,
      '--k',
      '2',
      '--limit',
      '40',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = readJson(join(out, 'summary.json'));
    expect(s.clean_f1 as number).toBeGreaterThan(0.3);
    expect(s.attacked_f1 as number).toBeLessThan(s.clean_f1 as number);
    for (const x of readJsonl(join(out, 'results.jsonl'))) {
      const gold = x.gold as string[];
      for (const e of x.edits) expect(gold[e.wordIndex]).toBe('O');
      expect((x.perturbed.tokens as string[]).length).toBe(gold.length);
    }
  });
});
