import { mkdtempSync, readFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { editZone, maxEdits, noRepeatEdits } from '../../src/core/constraints.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { GreedyWordSearch } from '../../src/core/search/greedy-word.ts';
import type { TextExample } from '../../src/data/types.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { runAttack, type RunSettings } from '../../src/kinds/attack/run.ts';
import { ModelError, TextstressError } from '../../src/util/errors.ts';
import { lexiconModel, twoTypos } from '../core/helpers.ts';

const attack: Attack = {
  name: 'test',
  transformation: twoTypos,
  constraints: [editZone(), noRepeatEdits, maxEdits(3)],
  goal: new UntargetedClassification(new LabelAligner(['negative', 'positive'])),
  search: new GreedyWordSearch('random'),
};
const texts = ['a good film', 'good good nice plot', 'bad acting', 'nice and good', 'the good the bad', 'so good'];
const examples: TextExample[] = Array.from({ length: 30 }, (_, i) => ({
  kind: 'text',
  id: `ex${i}`,
  text: `${texts[i % texts.length]} ${'x '.repeat(i % 4)}`.trim(),
  label: i % 5 === 0 ? 'negative' : 'positive',
}));
async function* stream(): AsyncIterable<TextExample> {
  yield* examples;
}
const settings: RunSettings = { recipe: 'test', model: 'lexicon', dataset: 'mem', seed: 3, options: { k: 3 } };

/** Fails every predict() after `okCalls` successful ones, like an endpoint that dies mid-run. */
function dyingModel(okCalls: number): ModelAdapter {
  let calls = 0;
  return {
    info: lexiconModel.info,
    async predict(inputs) {
      if (++calls > okCalls) throw new Error('connection reset');
      return lexiconModel.predict(inputs);
    },
  };
}

/** The results a run wrote, in file order. */
function resultsOf(dir: string): ExampleResult[] {
  return readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExampleResult);
}

const stable = (s: Record<string, unknown>): Record<string, unknown> => {
  const { wall_seconds: _w, process: _p, ...rest } = s;
  return rest;
};

describe('runAttack', () => {
  it('writes every example once, in dataset order, and a complete summary', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ts-run-'));
    const { summary } = await runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 7,
    });
    const results = resultsOf(out);
    expect(results.map((r) => r.id)).toEqual(examples.map((e) => e.id));
    expect(summary.complete).toBe(true);
    expect(summary.n).toBe(30);
    expect(summary.skipped).toBe(results.filter((r) => !r.original_correct).length);
    expect(summary.skipped).toBeGreaterThan(0);
    expect(summary.succeeded).toBeGreaterThan(0);
    expect(summary.succeeded + summary.failed + summary.skipped).toBe(30);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(30);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).attack_success_rate).toBe(summary.attack_success_rate);
  });

  it('refuses to overwrite a run unless asked, and resumes an interrupted one to the same summary', async () => {
    const full = mkdtempSync(join(tmpdir(), 'ts-full-'));
    const uninterrupted = await runAttack({
      outDir: full,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 4,
    });

    const out = mkdtempSync(join(tmpdir(), 'ts-resume-'));
    const failing = runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(dyingModel(6)),
      concurrency: 4,
    });
    await expect(failing).rejects.toThrow(/finished results are kept in /);
    await expect(failing).rejects.toMatchObject({
      hint: 'Fix the cause, then rerun the same command with --resume to continue (finished examples are kept, not redone).',
    });
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    const partial = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(30);
    // A torn last line, as kill -9 during a write would leave.
    appendFileSync(join(out, 'results.jsonl'), '{"id":"ex29","sta');

    await expect(
      runAttack({ outDir: out, settings, examples: stream(), attack, engine: new QueryEngine(lexiconModel) }),
    ).rejects.toBeInstanceOf(TextstressError);
    await expect(
      runAttack({
        outDir: out,
        settings: { ...settings, seed: 4 },
        examples: stream(),
        attack,
        engine: new QueryEngine(lexiconModel),
        resume: true,
      }),
    ).rejects.toThrow('--resume needs the same settings as the interrupted run, but seed (was 3, now 4) differs.');

    const resumed = await runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 5,
      resume: true,
    });
    const ids = resultsOf(out).map((r) => r.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(stable({ ...resumed.summary })).toEqual(stable({ ...uninterrupted.summary }));
    // In data order, byte for byte, whatever failed on the way.
    expect(readFileSync(join(out, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(full, 'results.jsonl'), 'utf8'));
  });
});

describe('runAttack scheduling and failures', () => {
  it('starts the next example whenever one finishes: a slow head does not hold the others, and the output order stays the data order', async () => {
    const started: string[] = [];
    const finishedBeforeHead: string[] = [];
    let headDone = false;
    const items: TextExample[] = Array.from({ length: 12 }, (_, i) => ({
      kind: 'text',
      id: `ex${i}`,
      text: `good film ${i}`,
      label: 'positive',
    }));
    const out = mkdtempSync(join(tmpdir(), 'ts-slow-'));
    await runAttack({
      outDir: out,
      settings: { ...settings, options: {} },
      examples: (async function* () {
        yield* items;
      })(),
      work: async (example, session, rng) => {
        started.push(example.id);
        // ex0 stands for an example whose search takes long (a long sentence, many candidates).
        if (example.id === 'ex0') await new Promise((r) => setTimeout(r, 400));
        const r = await attackExample(attack, example, session, rng);
        if (example.id === 'ex0') headDone = true;
        else if (!headDone) finishedBeforeHead.push(example.id);
        return r;
      },
      engine: new QueryEngine(lexiconModel),
      concurrency: 4,
    });
    // With concurrency 4, examples 4–7 can only start once earlier ones finish: they ran (and finished) while ex0 was still running.
    expect(finishedBeforeHead).toEqual(expect.arrayContaining(['ex4', 'ex5', 'ex6', 'ex7']));
    expect(started).toEqual(items.map((e) => e.id));
    expect(resultsOf(out).map((r) => r.id)).toEqual(items.map((e) => e.id));
  });

  it('keeps at most its window of finished results waiting behind a slow head', async () => {
    const { orderedPool } = await import('../../src/runner/pool.ts');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const startedIds: number[] = [];
    const pool = orderedPool(
      Array.from({ length: 40 }, (_, i) => i),
      async (i) => {
        startedIds.push(i);
        if (i === 0) await gate;
        return i * 10;
      },
      { concurrency: 2, window: 6 },
    );
    const first = pool.next();
    await new Promise((r) => setTimeout(r, 20));
    // Item 0 blocks; at most 6 items may be started and not yet handed back.
    expect(startedIds).toEqual([0, 1, 2, 3, 4, 5]);
    release();
    expect((await first).value).toEqual({ item: 0, ok: true, value: 0 });
    const rest: number[] = [];
    for await (const o of pool) if (o.ok) rest.push(o.value);
    expect(rest).toEqual(Array.from({ length: 39 }, (_, i) => (i + 1) * 10));
  });

  it('a failing input fails its own example only: the batch is split, the others are answered and kept, the error names the example', async () => {
    // Flagged input-specific: only such errors make the engine split a batch.
    const poisoned: ModelAdapter = {
      info: lexiconModel.info,
      async predict(inputs) {
        if (inputs.some((i) => i.kind === 'text' && i.text.includes('poison')))
          throw new ModelError('the server choked on a token', { inputSpecific: true });
        return lexiconModel.predict(inputs);
      },
    };
    const items: TextExample[] = Array.from({ length: 8 }, (_, i) => ({
      kind: 'text',
      id: `ex${i}`,
      source: `mem:${i + 1}`,
      text: i === 5 ? 'good poison film' : `good nice film ${i}`,
      label: 'positive',
    }));
    const engine = new QueryEngine(poisoned);
    const out = mkdtempSync(join(tmpdir(), 'ts-poison-'));
    const run = runAttack({
      outDir: out,
      settings: { ...settings, options: {} },
      examples: (async function* () {
        yield* items;
      })(),
      attack,
      engine,
      concurrency: 8,
    });
    await expect(run).rejects.toThrow(
      `the run stopped at example mem:6: the server choked on a token 5 finished results are kept in ${join(out, 'results.jsonl')}. ` +
        `2 finished after it wait in ${join(out, 'results.held.jsonl')}, to be written in data order by --resume without querying again.`,
    );
    // All eight clean queries went out in one batch; only ex5's example failed. The results after it are held, so
    // results.jsonl never holds an example ahead of an earlier one.
    expect(resultsOf(out).map((r) => r.id)).toEqual(['ex0', 'ex1', 'ex2', 'ex3', 'ex4']);
    expect(
      readFileSync(join(out, 'results.held.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['ex6', 'ex7']);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    // The fixed model, and the same one attacking ex5 alone: the resume must send exactly what ex5 alone needs.
    const fixedEngine = new QueryEngine(lexiconModel);
    const soloEngine = new QueryEngine(lexiconModel);
    await runAttack({
      outDir: mkdtempSync(join(tmpdir(), 'ts-solo-')),
      settings: { ...settings, options: {} },
      examples: (async function* () {
        yield items[5]!;
      })(),
      attack,
      engine: soloEngine,
    });
    // Resume after "fixing" the model: only ex5 is attacked again.
    const fixed = await runAttack({
      outDir: out,
      settings: { ...settings, options: {} },
      examples: (async function* () {
        yield* items;
      })(),
      attack,
      engine: fixedEngine,
      resume: true,
    });
    expect(fixed.summary.n).toBe(8);
    expect(resultsOf(out).map((r) => r.id)).toEqual(['ex0', 'ex1', 'ex2', 'ex3', 'ex4', 'ex5', 'ex6', 'ex7']);
    expect(existsSync(join(out, 'results.held.jsonl'))).toBe(false);
    // Only ex5 was attacked again: the held ex6 and ex7 cost no query.
    expect(fixedEngine.snapshot().requests).toBe(soloEngine.snapshot().requests);
    expect(fixedEngine.snapshot().requests).toBeGreaterThan(0);
  });

  it('refuses to resume from a checkpoint that holds an example twice', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ts-dup-'));
    await runAttack({ outDir: out, settings, examples: stream(), attack, engine: new QueryEngine(lexiconModel) });
    const first = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n')[0]!;
    appendFileSync(join(out, 'results.jsonl'), first + '\n');
    await expect(
      runAttack({ outDir: out, settings, examples: stream(), attack, engine: new QueryEngine(lexiconModel), resume: true }),
    ).rejects.toThrow(/line 31 holds the example "ex0" a second time/);
  });
});

describe('runAttack process stats', () => {
  it('cache_hit_rate is null (n/a) over zero requests: no examples, or a resume with nothing left to do', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ts-empty-'));
    async function* none(): AsyncIterable<TextExample> {}
    const { summary: s0 } = await runAttack({ outDir: empty, settings, examples: none(), attack, engine: new QueryEngine(lexiconModel) });
    expect(s0.process).toEqual({ requests: 0, cache_hits: 0, cache_hit_rate: null, disk_cache_hits: 0, model_inferences: 0 });
    expect(JSON.parse(readFileSync(join(empty, 'summary.json'), 'utf8')).process.cache_hit_rate).toBeNull();

    const out = mkdtempSync(join(tmpdir(), 'ts-again-'));
    const { summary: s1 } = await runAttack({ outDir: out, settings, examples: stream(), attack, engine: new QueryEngine(lexiconModel) });
    expect(s1.process.requests).toBeGreaterThan(0);
    expect(s1.process.cache_hit_rate).toBe(Math.round((s1.process.cache_hits / s1.process.requests) * 1e4) / 1e4);
    const { summary: s2 } = await runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      resume: true,
    });
    expect(s2.process).toEqual({ requests: 0, cache_hits: 0, cache_hit_rate: null, disk_cache_hits: 0, model_inferences: 0 });
  });
});
