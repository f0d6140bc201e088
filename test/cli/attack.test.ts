import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONLL,
  DEMO_NER,
  DEMO_SST2,
  SST2_DEV,
  readJson,
  readJsonl,
  runCli,
  servedUrl,
  startCliProcess,
  tmp,
  typosOnSst2,
} from './helpers.ts';

describe('textstress attack typos on demo-sst2 over SST-2 dev (first 400 sentences)', () => {
  it('writes summary.json with the documented fields, results.jsonl and a table', async () => {
    const out = tmp('attack');
    const r = await runCli(typosOnSst2('--target', 'max', '--k', '1', '--limit', '40', '--out', out, '--no-progress'));
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
