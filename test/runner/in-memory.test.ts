import { mkdtempSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { openDataset } from '../../src/data/open.ts';
import type { Example, TextExample } from '../../src/data/types.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { openModel } from '../../src/runner/open.ts';
import { attackInMemory } from '../../src/kinds/in-memory.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { builtinRegistry } from '../../src/families/index.ts';

// Every way the code could write a file is counted, so "no files" is checked, not assumed.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const spy = <F extends (...a: never[]) => unknown>(f: F): F => vi.fn(f) as unknown as F;
  return {
    ...real,
    default: real,
    writeFileSync: spy(real.writeFileSync),
    appendFileSync: spy(real.appendFileSync),
    mkdirSync: spy(real.mkdirSync),
    openSync: spy(real.openSync),
    createWriteStream: spy(real.createWriteStream),
  };
});
const writers = ['writeFileSync', 'appendFileSync', 'mkdirSync', 'openSync', 'createWriteStream'] as const;
const writeCalls = (): number => writers.reduce((n, k) => n + (fs[k] as unknown as ReturnType<typeof vi.fn>).mock.calls.length, 0);

const DATA = 'demo/reviews.tsv';
let examples: TextExample[];
let model: ModelAdapter;

beforeAll(async () => {
  const ds = await openDataset(DATA, { limit: 20 });
  examples = [];
  for await (const e of ds.examples()) examples.push(e as TextExample);
  model = await openModel({ model: 'demo-sst2' });
});
afterAll(async () => model.close?.());

const strip = (r: ExampleResult): unknown => JSON.parse(JSON.stringify(r));

describe('attackInMemory', () => {
  it('gives the results and metrics of the same run into a folder, writing no file', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ts-mem-')), 'run');
    const before = writeCalls();
    const folder = await runRecipeAs('attack', {
      registry: builtinRegistry(),
      recipe: 'typos',
      settings: { k: 2 },
      model: 'demo-sst2',
      data: DATA,
      limit: 20,
      out,
      seed: 7,
    });
    expect(writeCalls()).toBeGreaterThan(before); // the spies see the folder run's writes
    const fromFile = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExampleResult);

    const start = writeCalls();
    const run = attackInMemory({
      recipe: 'typos',
      settings: { k: 2 },
      model,
      examples,
      seed: 7,
      dataset: { name: 'reviews', labelNames: ['negative', 'positive'] },
    });
    const got: ExampleResult[] = [];
    for await (const r of run) got.push(r);
    const summary = await run.summary;
    expect(writeCalls()).toBe(start);

    expect(got.map((r) => r.id)).toEqual(examples.map((e) => e.id));
    expect(got.map(strip)).toEqual(fromFile.map(strip));
    expect(summary.complete).toBe(true);
    expect(summary.n).toBe(20);
    for (const k of [
      'n',
      'clean_accuracy',
      'attacked_accuracy',
      'attack_success_rate',
      'attacked',
      'succeeded',
      'failed',
      'skipped',
      'accuracy_by_edits',
    ] as const) {
      expect(summary[k], k).toEqual(folder.summary[k]);
    }
    expect(summary.process.requests).toBeGreaterThan(0);
  });

  it('takes a stream, stops when the caller stops, and says so in the summary', async () => {
    async function* stream(): AsyncGenerator<Example> {
      yield* examples;
    }
    const run = attackInMemory({ recipe: 'noise', model, examples: stream(), concurrency: 4 });
    let seen = 0;
    for await (const _ of run) if (++seen === 5) break;
    const summary = await run.summary;
    expect(summary.complete).toBe(false);
    expect(summary.n).toBe(5);
  });

  it('refuses bad settings, experiments, a second read and mixed kinds with clear errors', async () => {
    await expect(drain(attackInMemory({ recipe: 'typos', settings: { k: -1 }, model, examples }))).rejects.toThrow(
      /invalid settings for the typos recipe: k/,
    );
    await expect(drain(attackInMemory({ recipe: 'typos-curve', model, examples }))).rejects.toThrow(
      /a run in memory streams per-example results; typos-curve is an experiment that writes a folder of runs/,
    );
    const once = attackInMemory({ recipe: 'noise', model, examples: examples.slice(0, 2) });
    await drain(once);
    await expect(drain(once)).rejects.toThrow(/can be read once/);
    const mixed: Example[] = [examples[0]!, { kind: 'pair', id: 'p', textA: 'a', textB: 'b', label: '1' }];
    const bad = attackInMemory({ recipe: 'noise', model, examples: mixed });
    await expect(drain(bad)).rejects.toThrow(/pair example among text examples/);
    await expect(bad.summary).rejects.toThrow(/pair example/);
  });

  it('gives n/a metrics for no examples', async () => {
    const run = attackInMemory({ recipe: 'typos', model, examples: [] });
    expect(await drain(run)).toBe(0);
    const s = await run.summary;
    expect(s.complete).toBe(true);
    expect(s.n).toBe(0);
    expect(s.attack_success_rate).toBeNull();
  });
});

async function drain(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of it) n++;
  return n;
}
