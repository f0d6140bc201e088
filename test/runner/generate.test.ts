/**
 * Generator runs resume like attack runs are checked: a --resume with other settings, another model or a data
 * file that changed is refused naming what differs, and a folder no generator wrote is refused; the same
 * settings resume to exactly what an uninterrupted run writes (test/registry/external.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Generator } from '../../src/core/generate.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { runGenerator, type GenerateSettings } from '../../src/kinds/generate/run.ts';
import { lexiconModel } from '../core/helpers.ts';
import { tmp } from '../cli/helpers.ts';
import { refusal } from './helpers.ts';

/** Counts up by one per step; fails at step `failAt` (0-based) when given. */
function counter(failAt?: number): Generator<number> {
  return {
    name: 'counter',
    steps: 4,
    init: () => 0,
    async step(n, { step, rng }) {
      if (step === failAt) throw new Error('the model went away');
      return { state: n + 1, records: [{ n: n + 1, draw: rng.int(1000) }], stats: { n: n + 1 } };
    },
    summarize: (steps) => ({ last: steps[steps.length - 1]?.n ?? null }),
  };
}

const settings: GenerateSettings = {
  recipe: 'counter',
  model: 'lexicon',
  dataset: 'data.tsv',
  seed: 7,
  options: { epochs: 4 },
  data_options: { split: 'dev' },
};

/** A folder whose generator run failed after two of its four steps. */
async function interrupted(prefix: string): Promise<string> {
  const out = tmp(prefix);
  await expect(
    runGenerator({ outDir: out, generator: counter(2), engine: new QueryEngine(lexiconModel), settings, dataFingerprint: '10:aaa' }),
  ).rejects.toThrow(/went away/);
  return out;
}

describe('generator resume', () => {
  it('continues with the same settings and data to what an uninterrupted run writes', async () => {
    const whole = tmp('gen-same-whole');
    await runGenerator({ outDir: whole, generator: counter(), engine: new QueryEngine(lexiconModel), settings, dataFingerprint: '10:aaa' });
    const out = await interrupted('gen-same');
    const summary = await runGenerator({
      outDir: out,
      generator: counter(),
      engine: new QueryEngine(lexiconModel),
      settings,
      dataFingerprint: '10:aaa',
      resume: true,
    });
    expect(summary).toMatchObject({ complete: true, steps: 4, n: 4, metrics: { last: 4 } });
    expect(readFileSync(join(out, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'results.jsonl'), 'utf8'));
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ status: 'complete', data_fingerprint: '10:aaa' });
  });

  const changes: [string, Partial<GenerateSettings>, RegExp][] = [
    ['a setting', { options: { epochs: 5 } }, /but epochs \(was 4, now 5\) differs\.$/],
    ['the model', { model: 'other-model' }, /but model \(was "lexicon", now "other-model"\) differs\.$/],
    [
      'the seed and a data option',
      { seed: 8, data_options: { split: 'test' } },
      /but seed \(was 7, now 8\), data_options \(was \{"split":"dev"\}, now \{"split":"test"\}\) differ\.$/,
    ],
  ];
  for (const [what, change, expected] of changes) {
    it(`refuses a resume with ${what} changed, naming it`, async () => {
      const out = await interrupted('gen-differs');
      const before = readFileSync(join(out, 'results.jsonl'), 'utf8');
      const r = await refusal(
        runGenerator({
          outDir: out,
          generator: counter(),
          engine: new QueryEngine(lexiconModel),
          settings: { ...settings, ...change },
          dataFingerprint: '10:aaa',
          resume: true,
        }),
      );
      expect(r.message).toMatch(/^--resume needs the same settings as the interrupted run, but /);
      expect(r.message).toMatch(expected);
      expect(r.hint).toBe('Rerun with the original options to continue it, start afresh with --overwrite, or write to another --out.');
      // Nothing was cut or rewritten.
      expect(readFileSync(join(out, 'results.jsonl'), 'utf8')).toBe(before);
    });
  }

  it('refuses a resume over a data file that changed', async () => {
    const out = await interrupted('gen-data');
    const r = await refusal(
      runGenerator({
        outDir: out,
        generator: counter(),
        engine: new QueryEngine(lexiconModel),
        settings,
        dataFingerprint: '11:bbb',
        resume: true,
      }),
    );
    expect(r.message).toBe('cannot resume: the data file data.tsv changed since the run started (its size or content differs).');
    expect(r.hint).toMatch(/start afresh with --overwrite\.$/);
  });

  it('refuses to resume a folder without run.json (nothing says which settings wrote it)', async () => {
    const out = tmp('gen-nostate');
    writeFileSync(join(out, 'results.jsonl'), '{"step":0,"n":1}\n');
    const r = await refusal(
      runGenerator({ outDir: out, generator: counter(), engine: new QueryEngine(lexiconModel), settings, resume: true }),
    );
    expect(r.message).toBe(
      `cannot resume: ${join(out, 'run.json')} is missing, so nothing says which settings produced ${join(out, 'results.jsonl')}.`,
    );
    expect(r.hint).toBe('Start a fresh run with --overwrite (or another --out).');
    expect(readFileSync(join(out, 'results.jsonl'), 'utf8')).toBe('{"step":0,"n":1}\n');
  });

  it('refuses a folder that holds a run without --resume, telling the next command', async () => {
    const out = await interrupted('gen-holds');
    const r = await refusal(runGenerator({ outDir: out, generator: counter(), engine: new QueryEngine(lexiconModel), settings }));
    expect(r.message).toBe(`${out} already holds a run.`);
    expect(r.hint).toBe('Pass --resume to continue it, --overwrite to replace it, or choose another --out.');
  });
});

describe('generator finish', () => {
  /** The counter with a finish step that reads the examples and the final state. */
  function finishing(file = 'final.txt'): Generator<number> {
    return {
      ...counter(),
      async finish(n, { examples, step, rng }) {
        const ids: string[] = [];
        for await (const ex of examples?.() ?? []) ids.push(ex.id);
        return { details: { final: n, ids, step, draw: rng.int(1000) }, metrics: { doubled: 2 * n }, files: { [file]: `${n}\n` } };
      },
    };
  }
  const examples = () =>
    (async function* () {
      yield { kind: 'text' as const, id: 'a', text: 'x', label: 'pos' };
      yield { kind: 'text' as const, id: 'b', text: 'y', label: 'neg' };
    })();

  it('adds details and metrics to the summary and writes its files, after the last step, with the examples at hand', async () => {
    const out = tmp('gen-finish');
    const summary = await runGenerator({ outDir: out, generator: finishing(), engine: new QueryEngine(lexiconModel), settings, examples });
    expect(summary.metrics).toEqual({ last: 4, doubled: 8 });
    expect(summary.details).toMatchObject({ final: 4, ids: ['a', 'b'], step: 4 });
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).details).toEqual(summary.details);
    expect(readFileSync(join(out, 'final.txt'), 'utf8')).toBe('4\n');
    // The finish rng is its own stream, the same on every run.
    const again = await runGenerator({
      outDir: tmp('gen-finish-2'),
      generator: finishing(),
      engine: new QueryEngine(lexiconModel),
      settings,
      examples,
    });
    expect(again.details).toEqual(summary.details);
  });

  it('refuses a file name that is not a plain name in the run folder', async () => {
    await expect(
      runGenerator({
        outDir: tmp('gen-finish-bad'),
        generator: finishing('../escape.txt'),
        engine: new QueryEngine(lexiconModel),
        settings,
      }),
    ).rejects.toThrow('generator counter: file name "../escape.txt" must be a plain name');
  });
});
