/**
 * The `fooling` recipe (EFSG) on the demo models: the files a run writes, determinism, resume after a failure
 * (a fresh generator rebuilds its distinct set from results.jsonl), pair mode's fixed x̂, and its errors.
 */
import { BUILD_OPENERS } from '../../src/kinds/prepare.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Generator } from '../../src/core/generate.ts';
import { loadTransformersModel } from '../../src/models/transformers/index.ts';
import type { ModelAdapter, ModelInput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { foolingRecipe } from '../../src/families/fooling/recipe.ts';
import { sentenceLength } from '../../src/families/fooling/source.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { runGenerator } from '../../src/kinds/generate/run.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { wilson } from '../../src/stats/index.ts';
import { DEMO_SST2, ROOT, SST2_TRAIN, fixtureData, runCli, tmp } from '../cli/helpers.ts';

const DEMO_QNLI = join(ROOT, 'models', 'demo-qnli');
const SMALL = { train: SST2_TRAIN, population: 40, length: 6, epochs: 6 };
const lines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function build(model: ModelAdapter, settings: Record<string, unknown>): Promise<Generator> {
  const built = await foolingRecipe.build(foolingRecipe.settings.parse(settings), {
    model: model.info,
    task: 'text-classification',
    goal: {
      name: 'unused',
      create: () => {
        throw new Error('unused');
      },
    },
    seed: 0,
    ...BUILD_OPENERS,
  });
  return built.generator;
}

describe('fooling on demo-sst2', () => {
  let sst2: ModelAdapter;
  beforeAll(async () => {
    sst2 = await loadTransformersModel(DEMO_SST2);
  });

  it('writes the fooling sentences, S/M/F per epoch, T_task and a summary, the same for the same seed', async () => {
    const run = async (out: string) =>
      runRecipeAs('generate', {
        registry: builtinRegistry(),
        recipe: 'fooling',
        model: DEMO_SST2,
        settings: SMALL,
        out,
        seed: 3,
        shared: { model: sst2, engine: new QueryEngine(sst2) },
      });
    const a = tmp('fool-a');
    const outcome = await run(a);
    const { summary } = outcome;
    expect(summary.steps).toBe(6);
    const steps = lines(join(a, 'steps.jsonl'));
    expect(steps).toHaveLength(6);
    for (const s of steps)
      expect(Object.keys(s).sort()).toEqual([
        'best_score',
        'fooling',
        'fooling_fraction',
        'fooling_total',
        'mean_score',
        'new_fooling',
        'step',
      ]);
    for (const s of steps) expect(s.fooling_fraction).toBeCloseTo(Number(s.fooling) / 40, 12);
    const found = lines(join(a, 'results.jsonl'));
    // results.jsonl holds every distinct fooling sentence once, each above T_task, with 6 words.
    const T = summary.metrics.fooling_threshold!;
    expect(new Set(found.map((r) => r.text)).size).toBe(found.length);
    for (const r of found) {
      expect(Number(r.score)).toBeGreaterThan(T);
      expect(String(r.text).split(' ')).toHaveLength(6);
    }
    expect(summary.metrics.fooling_sentences).toBe(found.length);
    expect(steps.at(-1)!.fooling_total).toBe(found.length);
    expect(summary.metrics.fooling_fraction).toBe(steps.at(-1)!.fooling_fraction);
    const details = summary.details as {
      threshold: { value: number; positives: number; source: string };
      target: { label: string };
      samples: { score: number }[];
    };
    expect(details.threshold).toMatchObject({ value: T, source: 'train' });
    expect(details.threshold.positives).toBe(102); // the fixture's 200 SST-2 training rows hold 102 positive ones
    expect(details.target.label).toBe('positive');
    // The last epoch's F and S with 95% intervals over its 40 sentences: Wilson for F, a seeded bootstrap for S.
    const last = steps.at(-1)!;
    const intervals = (summary.details as { intervals: Record<string, { value: number; low: number; high: number; n: number }> }).intervals;
    expect(intervals.fooling_fraction).toEqual(wilson(Number(last.fooling), 40));
    expect(intervals.fooling_mean_score).toMatchObject({ value: last.mean_score, n: 40, method: 'bootstrap' });
    expect(intervals.fooling_mean_score!.low).toBeLessThan(intervals.fooling_mean_score!.value);
    expect(intervals.fooling_mean_score!.high).toBeGreaterThan(intervals.fooling_mean_score!.value);
    expect(outcome.text).toMatch(/Final S [\d.]+ \[[\d.]+, [\d.]+\], F [\d.]+% \[[\d.]+%, [\d.]+%\] \(95%, n = 40\)/);
    expect(details.samples.map((s) => s.score)).toEqual([...details.samples.map((s) => s.score)].sort((x, y) => y - x));
    expect(outcome.text).toMatch(/T_task = /);

    const b = tmp('fool-b');
    await run(b);
    for (const f of ['results.jsonl', 'steps.jsonl', 'summary.json'])
      expect(readFileSync(join(b, f), 'utf8').replace(/"wall_seconds": [\d.]+/, '')).toBe(
        readFileSync(join(a, f), 'utf8').replace(/"wall_seconds": [\d.]+/, ''),
      );
  });

  it("T_task is the 25th percentile of the model's scores of the positive training examples", async () => {
    const { openDataset } = await import('../../src/data/index.ts');
    const positives: ModelInput[] = [];
    for await (const e of (await openDataset(SST2_TRAIN)).examples())
      if (e.kind === 'text' && e.label === 'positive') positives.push({ kind: 'text', text: e.text });
    const outs = await sst2.predict(positives);
    const sorted = outs.map((o) => (o.kind === 'classes' ? o.probs[1]! : NaN)).sort((x, y) => x - y);
    const h = (sorted.length - 1) * 0.25;
    const expected = sorted[Math.floor(h)]! + (h - Math.floor(h)) * (sorted[Math.floor(h) + 1]! - sorted[Math.floor(h)]!);
    const out = tmp('fool-t');
    const outcome = await runRecipeAs('generate', {
      registry: builtinRegistry(),
      recipe: 'fooling',
      model: DEMO_SST2,
      settings: { ...SMALL, epochs: 1 },
      out,
      seed: 0,
      shared: { model: sst2, engine: new QueryEngine(sst2) },
    });
    expect(outcome.summary.metrics.fooling_threshold).toBeCloseTo(expected, 6);
  });

  it('resumes after a failure mid-run to exactly what an uninterrupted run writes (a fresh generator rebuilds its distinct set)', async () => {
    const settings = { recipe: 'fooling', model: 'demo-sst2', dataset: null, seed: 9, options: SMALL };
    const whole = tmp('fool-whole');
    const s1 = await runGenerator({ outDir: whole, generator: await build(sst2, SMALL), engine: new QueryEngine(sst2), settings });
    const gen = await build(sst2, SMALL);
    let calls = 0;
    const failing: Generator = {
      ...gen,
      step: async (state, ctx) => {
        if (++calls === 4) throw new Error('the model went away');
        return gen.step(state, ctx);
      },
    };
    const broken = tmp('fool-broken');
    await expect(runGenerator({ outDir: broken, generator: failing, engine: new QueryEngine(sst2), settings })).rejects.toThrow(
      /went away/,
    );
    expect(lines(join(broken, 'steps.jsonl'))).toHaveLength(3);
    const s2 = await runGenerator({
      outDir: broken,
      generator: await build(sst2, SMALL),
      engine: new QueryEngine(sst2),
      settings,
      resume: true,
    });
    for (const f of ['results.jsonl', 'steps.jsonl'])
      expect(readFileSync(join(broken, f), 'utf8')).toBe(readFileSync(join(whole, f), 'utf8'));
    expect(s2.metrics).toEqual(s1.metrics);
    expect(s2.details).toEqual(s1.details);
  });

  it('without crossover, each child differs from a parent of the last population in exactly one word', async () => {
    const gen = (await build(sst2, { ...SMALL, crossover: false })) as Generator<{ population: string[][] }>;
    const engine = new QueryEngine(sst2);
    const { Rng } = await import('../../src/util/rng.ts');
    const mk = (step: number) => ({
      model: sst2.info,
      query: (i: readonly ModelInput[]) => engine.query(i),
      rng: Rng.derive(1, step),
      step,
      records: async function* () {},
    });
    const s0 = await gen.init(mk(-1));
    const { state: s1 } = await gen.step(s0, mk(0));
    for (const child of s1.population) expect(s0.population.some((p) => p.filter((w, i) => w !== child[i]).length === 1)).toBe(true);
  });

  it('errors: no --train, a target the model lacks, fixed sentences for a single-text model', async () => {
    // L: --length when given, else 9 for single texts (pairs: x̂'s words, tested in pair mode).
    expect(sentenceLength({ length: null }, { kind: 'text' })).toEqual({ length: 9, source: 'default' });
    expect(sentenceLength({ length: 4 }, { kind: 'pair', fixed: 'a b c', side: 'second', id: null })).toEqual({
      length: 4,
      source: 'given',
    });
    expect(sentenceLength({ length: null }, { kind: 'pair', fixed: 'Who, then, won?', side: 'second', id: null })).toEqual({
      length: 3,
      source: 'fixed-sentence',
    });
    await expect(build(sst2, { population: 4 })).rejects.toThrow(/needs the training file/);
    await expect(build(sst2, { ...SMALL, target: 'happy' })).rejects.toThrow(/no class "happy"; its classes are negative, positive/);
    await expect(build(sst2, { ...SMALL, fixedText: 'a sentence' })).rejects.toThrow(/for pair models/);
    const r = await runCli(['fool', '--model', DEMO_SST2, '--train', join(ROOT, 'no-such.tsv'), '--out', tmp('fool-missing')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/no-such\.tsv/);
  });
});

describe('fooling in pair mode (demo-qnli)', () => {
  it('never changes x̂: every query and every record keeps the fixed question', async () => {
    const qnli = await loadTransformersModel(DEMO_QNLI);
    const asked: ModelInput[] = [];
    const spy: ModelAdapter = {
      ...qnli,
      info: qnli.info,
      predict: async (inputs) => {
        asked.push(...inputs);
        return qnli.predict(inputs);
      },
    };
    const train = fixtureData('qnli/dev.tsv');
    const out = tmp('fool-pair');
    const outcome = await runRecipeAs('generate', {
      registry: builtinRegistry(),
      recipe: 'fooling',
      model: DEMO_QNLI,
      settings: { train, fixedId: '0', population: 30, length: 8, epochs: 5, threshold: 0.2 },
      out,
      seed: 1,
      shared: { model: spy, engine: new QueryEngine(spy) },
    });
    const question = 'What came into force after the new constitution was herald?';
    // 5 epochs × 30 sentences, less repeats the query engine answered from its cache; no training scores with --threshold.
    expect(asked.length).toBeGreaterThan(100);
    expect(asked.length).toBeLessThanOrEqual(150);
    for (const input of asked) expect(input).toMatchObject({ kind: 'pair', textA: question });
    for (const input of asked) if (input.kind === 'pair') expect(input.textB.split(' ')).toHaveLength(8);
    for (const r of lines(join(out, 'results.jsonl'))) expect(r).toMatchObject({ fixed: question, side: 'second' });
    expect((outcome.summary.details as { pair: unknown }).pair).toEqual({ fixed: question, side: 'second', id: '0' });
    expect(outcome.summary.details).toMatchObject({ length: 8, length_source: 'given' });

    // Without --length the evolved text has as many words as x̂, as in the paper: the question has 10.
    asked.length = 0;
    const own = await runRecipeAs('generate', {
      registry: builtinRegistry(),
      recipe: 'fooling',
      model: DEMO_QNLI,
      settings: { train, fixedId: '0', population: 6, epochs: 2, threshold: 0.2 },
      out: tmp('fool-pair-length'),
      seed: 1,
      shared: { model: spy, engine: new QueryEngine(spy) },
    });
    expect(own.summary.details).toMatchObject({ length: 10, length_source: 'fixed-sentence' });
    expect(asked.length).toBeGreaterThan(0);
    for (const input of asked) if (input.kind === 'pair') expect(input.textB.split(' ')).toHaveLength(10);
    expect(own.text).toMatch(/sentences of 10 words \(x̂'s length\)/);
    await expect(build(qnli, { train, fixedText: '?!', population: 4 })).rejects.toThrow(/x̂ "\?!" has no words/);
    await expect(build(qnli, { train, population: 4 })).rejects.toThrow(/needs the sentence x̂/);
    await expect(build(qnli, { train, fixedId: 'nope', population: 4 })).rejects.toThrow(/no example has the id "nope"/);
  });
});
