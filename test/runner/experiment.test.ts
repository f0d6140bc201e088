/**
 * Experiments (sub-runs plus experiment.json): the manifest lists sub-runs as they finish, so an interrupted
 * experiment is reported (its finished sub-runs) and resumed (those kept); a resume with other settings is
 * refused naming them; run folders this experiment does not plan are refused, never mixed in, by the run and
 * by the report; --overwrite removes the sub-runs the previous manifest planned.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryEngine } from '../../src/query/engine.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { loadGroups } from '../../src/report/html/load.ts';
import { EXPERIMENT_FILE, type ExperimentManifest } from '../../src/kinds/experiment/manifest.ts';
import { LOCK_FILE } from '../../src/runner/lock.ts';
import { runRecipe, type RecipeOutcome } from '../../src/kinds/run.ts';
import { lexiconModel } from '../core/helpers.ts';
import { ROOT, tmp } from '../cli/helpers.ts';
import { refusal } from './helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);

function curve(
  out: string,
  randomSeeds: number,
  more: { resume?: boolean; overwrite?: boolean; log?: (l: string) => void } = {},
): Promise<RecipeOutcome> {
  return runRecipe({
    registry,
    recipe: 'typos-curve',
    settings: { kMax: 1, randomSeeds, bySource: false },
    model: 'lexicon',
    data: join(ROOT, 'demo', 'reviews.tsv'),
    limit: 5,
    labelMap: '0=negative,1=positive',
    out,
    seed: 1,
    shared: { model: lexiconModel, engine: new QueryEngine(lexiconModel) },
    ...more,
  });
}

const manifestOf = (out: string): ExperimentManifest => JSON.parse(readFileSync(join(out, EXPERIMENT_FILE), 'utf8')) as ExperimentManifest;

/** A sub-run folder locked by a live process (this one), so the experiment stops there. */
function blockSubRun(out: string, dir: string): void {
  mkdirSync(join(out, dir), { recursive: true });
  writeFileSync(join(out, dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
}

describe('experiments', () => {
  it('an interrupted experiment lists its finished sub-runs, is reported with them, and resumes keeping them', async () => {
    const whole = tmp('exp-whole');
    await curve(whole, 2);
    const out = tmp('exp-cut');
    blockSubRun(out, 'target-random-seed1');
    await expect(curve(out, 2)).rejects.toThrow(/target-random-seed1 is in use by another textstress run/);
    const cut = manifestOf(out);
    expect(cut).toMatchObject({
      recipe: 'typos-curve',
      status: 'failed',
      planned: ['target-max', 'target-min', 'target-random-seed1', 'target-random-seed2'],
      runs: ['target-max', 'target-min'],
      files: [],
    });
    expect(cut.settings).toMatchObject({
      recipe: 'typos-curve',
      model: 'lexicon',
      seed: 1,
      data_options: { labelMap: '0=negative,1=positive', limit: 5 },
    });
    const [group] = await loadGroups([out], { sampleSize: 0 });
    expect(group!.runs.map((r) => r.name)).toEqual(['target-max', 'target-min']);

    rmSync(join(out, 'target-random-seed1', LOCK_FILE));
    const lines: string[] = [];
    const resumed = await curve(out, 2, { resume: true, log: (l) => lines.push(l) });
    expect(resumed.kind).toBe('experiment');
    expect(lines).toEqual([
      'typos-curve target-max: finished before, kept',
      'typos-curve target-min: finished before, kept',
      'typos-curve target-random-seed1 …',
      'typos-curve target-random-seed2 …',
    ]);
    expect(readFileSync(join(out, 'curve.json'), 'utf8')).toBe(readFileSync(join(whole, 'curve.json'), 'utf8'));
    expect(manifestOf(out)).toMatchObject({ status: 'complete', runs: cut.planned, files: ['curve.json'], headline: 'target-max' });
    expect(manifestOf(out).error).toBeUndefined();
  });

  it('refuses a folder holding an experiment without --resume, and a resume with other settings, naming them', async () => {
    const out = tmp('exp-again');
    await curve(out, 2);
    const again = await refusal(curve(out, 2));
    expect(again.message).toBe(`${out} already holds a run.`);
    expect(again.hint).toBe('Pass --resume to continue it, --overwrite to replace it, or choose another --out.');
    const other = await refusal(curve(out, 3, { resume: true }));
    expect(other.message).toBe('--resume needs the same settings as the interrupted run, but randomSeeds (was 2, now 3) differs.');
    expect(other.hint).toBe('Rerun with the original options to continue it, start afresh with --overwrite, or write to another --out.');
    expect(manifestOf(out)).toMatchObject({
      status: 'complete',
      planned: ['target-max', 'target-min', 'target-random-seed1', 'target-random-seed2'],
    });
  });

  it('--overwrite with a smaller plan removes the sub-runs the previous experiment planned and this one does not', async () => {
    const out = tmp('exp-shrink');
    await curve(out, 3);
    expect(existsSync(join(out, 'target-random-seed3', 'summary.json'))).toBe(true);
    await curve(out, 2, { overwrite: true });
    expect(existsSync(join(out, 'target-random-seed3'))).toBe(false);
    expect(manifestOf(out).runs).toEqual(['target-max', 'target-min', 'target-random-seed1', 'target-random-seed2']);
    const [group] = await loadGroups([out], { sampleSize: 0 });
    expect(group!.runs.map((r) => r.name)).toEqual(['target-max', 'target-min', 'target-random-seed1', 'target-random-seed2']);
  });

  it('refuses run folders it does not plan (left by another experiment), even with --overwrite; the report refuses them too', async () => {
    const out = tmp('exp-strangers');
    await curve(out, 3);
    // The manifest is lost (say, an older textstress): nothing says target-random-seed3 is this folder's own.
    const manifest = readFileSync(join(out, EXPERIMENT_FILE), 'utf8');
    rmSync(join(out, EXPERIMENT_FILE));
    for (const mode of [{}, { overwrite: true }, { resume: true }]) {
      const r = await refusal(curve(out, 2, mode));
      expect(r.message).toBe(
        `${out} holds run folders that this experiment does not write (target-random-seed3): left by another ` +
          `experiment ` +
          `or run, they would be mixed into its report.`,
      );
      expect(r.hint).toMatch(/^Move those folders out of it, or write the experiment to another --out/);
    }
    expect(existsSync(join(out, EXPERIMENT_FILE))).toBe(false);
    expect(existsSync(join(out, 'target-random-seed3', 'summary.json'))).toBe(true);

    // A manifest planning two random seeds beside a third finished run folder: the report refuses to mix it in.
    const two = JSON.parse(manifest) as ExperimentManifest;
    const planned = two.planned.filter((d) => d !== 'target-random-seed3');
    writeFileSync(join(out, EXPERIMENT_FILE), JSON.stringify({ ...two, planned, runs: planned }));
    await expect(loadGroups([out], { sampleSize: 0 })).rejects.toThrow(
      `${out} holds run folders that this experiment does not write (target-random-seed3)`,
    );
  });
});

describe('sub-run folders', () => {
  it('must be plain names planned once: a recipe cannot send a sub-run outside its folder', async () => {
    const { defineRecipe } = await import('../../src/recipes/registry/define.ts');
    const { z } = await import('zod');
    const bad = (dirs: string[]) =>
      defineRecipe({
        name: 'bad-dirs',
        summary: 'an experiment with the given sub-run folders',
        kind: 'experiment',
        tasks: ['text-classification'],
        settings: z.strictObject({}),
        build: () => ({
          kind: 'experiment',
          runs: dirs.map((dir) => ({ dir, recipe: 'typos', settings: {} })),
          combine: async () => ({ files: {}, json: {}, text: '' }),
        }),
      });
    for (const [dirs, why] of [
      [['../escape'], /"\.\.\/escape" must be a plain folder name/],
      [['.hidden'], /"\.hidden" must be a plain folder name/],
      [['a', 'a'], /"a" is planned twice/],
    ] as const) {
      const reg = createRegistry(BUILTIN_RECIPES).add(bad([...dirs]));
      const out = tmp('exp-bad-dir');
      await expect(
        runRecipe({
          registry: reg,
          recipe: 'bad-dirs',
          settings: {},
          model: 'lexicon',
          data: join(ROOT, 'demo', 'reviews.tsv'),
          limit: 2,
          labelMap: '0=negative,1=positive',
          out,
          seed: 0,
          shared: { model: lexiconModel, engine: new QueryEngine(lexiconModel) },
        }),
      ).rejects.toThrow(why);
      expect(existsSync(join(out, '..', 'escape'))).toBe(false);
    }
  });
});
