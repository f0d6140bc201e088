/**
 * fool-sweep: mean ± std over seeds (exact), each sub-run equal to `textstress fool` with that value and seed,
 * resume after a failure, errors, and the report's sweep charts.
 */
import { BUILD_OPENERS } from '../../src/kinds/prepare.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Generator } from '../../src/core/generate.ts';
import { loadTransformersModel } from '../../src/models/transformers/index.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { meanStd, pairedDifference, sweepRows } from '../../src/families/fooling/sweep-stats.ts';
import { foolingSweepRecipe } from '../../src/families/fooling/sweep.ts';
import { runGenerator } from '../../src/kinds/generate/run.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { DEMO_SST2, SST2_TRAIN, runCli, tmp } from '../cli/helpers.ts';

const lines = (path: string): Record<string, number | string>[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, number | string>);
const SMALL = { train: SST2_TRAIN, population: 20, length: 5, epochs: 4 };

describe('sweep statistics', () => {
  it('mean and sample standard deviation over seeds, per epoch and at the last epoch', () => {
    expect(meanStd([0.2, 0.4, 0.9])).toEqual({ mean: 0.5, std: Math.sqrt((0.3 ** 2 + 0.1 ** 2 + 0.4 ** 2) / 2), n: 3 });
    expect(meanStd([0.7])).toEqual({ mean: 0.7, std: null, n: 1 });
    expect(meanStd([])).toEqual({ mean: null, std: null, n: 0 });
    const rec = (value: string, seed: number, epoch: number, s: number, f: number) => ({
      value,
      seed,
      epoch,
      mean_score: s,
      fooling_fraction: f,
    });
    const rows = sweepRows(
      ['on', 'off'],
      [
        rec('on', 0, 1, 0.2, 0),
        rec('on', 0, 2, 0.6, 0.5),
        rec('on', 1, 1, 0.4, 0.25),
        rec('on', 1, 2, 0.8, 0.75),
        rec('off', 0, 1, 0.1, 0),
        rec('off', 0, 2, 0.3, 0.1),
      ],
    );
    expect(rows.map((r) => r.value)).toEqual(['on', 'off']);
    expect(rows[0]!.runs).toBe(2);
    expect(rows[0]!.final.S.mean).toBeCloseTo(0.7, 12);
    expect(rows[0]!.final.S.std).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(rows[0]!.final.F.mean).toBeCloseTo(0.625, 12);
    expect(rows[0]!.curve.map((c) => [c.epoch, c.S.mean])).toEqual([
      [1, expect.closeTo(0.3, 12)],
      [2, expect.closeTo(0.7, 12)],
    ]);
    expect(rows[1]).toMatchObject({ runs: 1, final: { S: { mean: 0.3, std: null, n: 1 } } });
  });

  it("crossover's effect: the last epoch's on − off paired by seed, with Student's t interval over the seeds", () => {
    const last = (value: string, seed: number, s: number, f: number) => [
      { value, seed, epoch: 1, mean_score: 0, fooling_fraction: 0 },
      { value, seed, epoch: 2, mean_score: s, fooling_fraction: f },
    ];
    const records = [
      ...last('on', 0, 0.9, 0.7),
      ...last('on', 1, 0.8, 0.6),
      ...last('on', 2, 0.85, 0.8),
      ...last('off', 0, 0.8, 0.6),
      ...last('off', 1, 0.8, 0.5),
      ...last('off', 2, 0.7, 0.6),
      ...last('off', 3, 0.1, 0.1), // no "on" run with seed 3: left out of the pairing
    ];
    const d = pairedDifference('off', 'on', records, 7);
    expect(d.seeds).toEqual([0, 1, 2]);
    expect(d.F).toMatchObject({ n: 3, method: 't' });
    expect(d.F.value).toBeCloseTo((0.1 + 0.1 + 0.2) / 3, 12);
    expect(d.S.value).toBeCloseTo((0.1 + 0 + 0.15) / 3, 12);
    // F differences 0.1, 0.1, 0.2: sd 0.0577, se 0.0333, t(0.975, 2) = 4.3027 → 0.1333 ± 0.1434, and the paired t test
    // t = 4.0 on 2 df gives p = 0.0572. A percentile bootstrap over these three seeds said [0.1, 0.2] and p = 0: the
    // range of three numbers, read as a 95% interval.
    expect(d.F.low).toBeCloseTo(0.13333 - 0.14342, 4);
    expect(d.F.high).toBeCloseTo(0.13333 + 0.14342, 4);
    expect(d.F.p).toBeCloseTo(0.0572, 4);
    expect(pairedDifference('off', 'on', records, 7)).toEqual(d);
    // One seed, or no spread: a mean without an interval.
    expect(
      pairedDifference(
        'off',
        'on',
        records.filter((r) => r.seed === 0),
        7,
      ).F,
    ).toMatchObject({ n: 1, low: null, high: null, p: null });
  });
});

describe('fool-sweep on demo-sst2', () => {
  let sst2: ModelAdapter;
  beforeAll(async () => {
    sst2 = await loadTransformersModel(DEMO_SST2);
  });

  it('runs each value × seed exactly as `fool --seed S` would, and sums them up', async () => {
    const out = tmp('sweep');
    const outcome = await runRecipeAs('generate', {
      registry: builtinRegistry(),
      recipe: 'fooling-sweep',
      model: DEMO_SST2,
      settings: { ...SMALL, vary: 'crossover', seeds: [0, 4] },
      out,
      seed: 0,
      shared: { model: sst2, engine: new QueryEngine(sst2) },
    });
    expect(outcome.summary.steps).toBe(4);
    const records = lines(join(out, 'results.jsonl'));
    expect(records).toHaveLength(4 * 4);
    // The same sub-run as a standalone fooling run: crossover off, seed 4.
    const alone = tmp('sweep-alone');
    await runRecipeAs('generate', {
      registry: builtinRegistry(),
      recipe: 'fooling',
      model: DEMO_SST2,
      settings: { ...SMALL, crossover: false },
      out: alone,
      seed: 4,
      shared: { model: sst2, engine: new QueryEngine(sst2) },
    });
    const steps = lines(join(alone, 'steps.jsonl'));
    const mine = records.filter((r) => r.value === 'off' && r.seed === 4);
    expect(mine.map((r) => [r.mean_score, r.fooling_fraction])).toEqual(steps.map((s) => [s.mean_score, s.fooling_fraction]));
    const d = outcome.summary.details as { vary: string; rows: { value: string; runs: number }[] };
    expect(d.vary).toBe('crossover');
    expect(d.rows.map((r) => [r.value, r.runs])).toEqual([
      ['on', 2],
      ['off', 2],
    ]);
    expect(outcome.text).toMatch(/EFSG sweep over crossover/);
    // The paired difference on − off over the two seeds, from the sub-runs' last epochs.
    const final = (value: string, seed: number) => records.find((r) => r.value === value && r.seed === seed && r.epoch === 4)!;
    const diffF = [0, 4].map((seed) => Number(final('on', seed).fooling_fraction) - Number(final('off', seed).fooling_fraction));
    const dd = (outcome.summary.details as { difference: { a: string; b: string; seeds: number[]; F: { value: number; n: number } } })
      .difference;
    expect(dd).toMatchObject({ a: 'off', b: 'on', seeds: [0, 4], F: { n: 2 } });
    expect(dd.F.value).toBeCloseTo((diffF[0]! + diffF[1]!) / 2, 12);
    expect(outcome.text).toMatch(/on − off, paired by seed \(95% t interval over 2 seeds\): S -?[\d.]+ (\[|\(no interval)/);
    const html = join(tmp('sweep-html'), 'r.html');
    expect((await runCli(['report', out, '--html', html])).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('S per epoch by crossover');
    expect(page).toContain('F per epoch by crossover');
  });

  it('resumes after the last finished sub-run to what an uninterrupted sweep writes', async () => {
    const build = async (): Promise<Generator> => {
      const built = await foolingSweepRecipe.build(
        foolingSweepRecipe.settings.parse({ ...SMALL, vary: 'length', values: ['3', '6'], seeds: [1, 2] }),
        {
          model: sst2.info,
          task: 'text-classification',
          goal: {
            name: 'unused',
            create: () => {
              throw new Error('unused');
            },
          },
          seed: 0,
          ...BUILD_OPENERS,
        },
      );
      return built.generator;
    };
    const settings = { recipe: 'fooling-sweep', model: 'demo-sst2', dataset: null, seed: 0, options: {} };
    const whole = tmp('sweep-whole');
    const s1 = await runGenerator({ outDir: whole, generator: await build(), engine: new QueryEngine(sst2), settings });
    const gen = await build();
    let calls = 0;
    const failing: Generator = {
      ...gen,
      step: async (state, ctx) => {
        if (++calls === 3) throw new Error('killed');
        return gen.step(state, ctx);
      },
    };
    const broken = tmp('sweep-broken');
    await expect(runGenerator({ outDir: broken, generator: failing, engine: new QueryEngine(sst2), settings })).rejects.toThrow(/killed/);
    const s2 = await runGenerator({ outDir: broken, generator: await build(), engine: new QueryEngine(sst2), settings, resume: true });
    expect(readFileSync(join(broken, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'results.jsonl'), 'utf8'));
    expect(s2.details).toEqual(s1.details);
    const final = (s1.details as { rows: { value: string; final: { S: { n: number } } }[] }).rows;
    expect(final.map((r) => [r.value, r.final.S.n])).toEqual([
      ['3', 2],
      ['6', 2],
    ]);
  });

  it('refuses a sweep without values, and values that do not fit the setting', async () => {
    const r = await runCli(['fool-sweep', '--model', DEMO_SST2, '--train', SST2_TRAIN, '--vary', 'population', '--out', tmp('sweep-bad')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--vary population needs --values/);
    const bad = await runCli([
      'fool-sweep',
      '--model',
      DEMO_SST2,
      '--train',
      SST2_TRAIN,
      '--vary',
      'length',
      '--values',
      '3,x',
      '--out',
      tmp('sweep-bad2'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/whole numbers ≥ 1, got "x"/);
  });
});
