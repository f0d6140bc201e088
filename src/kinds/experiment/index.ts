/**
 * The experiment kind: several normal, resumable runs of registered recipes in sub-folders (a typos curve's K and
 * targets, a grammar budget curve), combined into the experiment's own files (curve.json …). Its sub-runs are runs of
 * their own kinds to the report and the gate; experiment.json says which is the headline.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseLabelMap } from '../../core/labels.ts';
import { detectFormat, parseFormat } from '../../data/open.ts';
import type { RunSummary } from '../../metrics/summary.ts';
import { builtAs, type SubRunOutcome } from '../../recipes/registry/define.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { lockFolder } from '../../runner/lock.ts';
import { fileFingerprint, openData, surveyExamples } from '../../runner/open.ts';
import { RESULTS_FILE, SUMMARY_FILE } from '../../runner/per-example.ts';
import { TextstressError } from '../../util/errors.ts';
import { requireData } from '../per-example.ts';
import { prepareRecipe } from '../prepare.ts';
import { dataOptionsOf, reopen } from '../request.ts';
import { defineKind, isOutcomeOf, type KindRunContext, type OutcomeOf } from '../types.ts';
import { beginExperiment } from './manifest.ts';

/** Runs the sub-runs not finished before (each resumable), then has the recipe combine them. */
async function run(ctx: KindRunContext): Promise<OutcomeOf<'experiment'>> {
  const { def, settings, req } = ctx;
  const data = requireData(def, req);
  const survey = await surveyExamples(await openData(data));
  const info = (await openData(data)).info;
  const prepared = await prepareRecipe(def, settings, ctx.model.info, info, {
    seed: req.seed,
    labelMap: parseLabelMap(req.labelMap),
    observedLabels: survey.labels,
  });
  const built = builtAs(prepared, 'experiment', def.name);
  const release = lockFolder(req.out);
  try {
    const log = beginExperiment(
      req.out,
      {
        settings: { recipe: def.name, model: req.model, dataset: data.data, seed: req.seed, options: settings, ...dataOptionsOf(data) },
        dataFingerprint: await fileFingerprint(data.data),
        planned: built.runs.map((r) => r.dir),
      },
      req,
    );
    try {
      const runs: SubRunOutcome[] = [];
      for (const sub of built.runs) {
        const dir = join(req.out, sub.dir);
        if (log.done.has(sub.dir)) {
          req.log?.(`${def.verb ?? def.name} ${sub.dir}: finished before, kept`);
          runs.push({ run: sub, dir, summary: JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as RunSummary });
          continue;
        }
        req.log?.(`${def.verb ?? def.name} ${sub.dir} …`);
        const outcome = await ctx.runRecipe({
          ...req,
          recipe: sub.recipe,
          settings: sub.settings,
          out: dir,
          seed: sub.seed ?? req.seed,
          ...(sub.needsTraces ? { compact: false } : {}),
          shared: { model: ctx.model, engine: ctx.engine },
          log: undefined,
        });
        // Only attack-shaped runs have the per-example results and RunSummary that `combine` reads.
        if (!isOutcomeOf(outcome, 'attack') && !isOutcomeOf(outcome, 'probe')) {
          throw new Error(`experiment "${def.name}": sub-run ${sub.dir} must be an attack or probe`);
        }
        if (outcome.summary.n === 0) {
          throw new TextstressError(`no examples tested: the data gave 0 examples, so ${def.name} has nothing to combine.`, {
            where: outcome.dir,
            hint: 'Check --data, --limit and the column options (rows skipped as bad are listed in skipped-rows.json), then rerun with --overwrite.',
          });
        }
        runs.push({ run: sub, dir: outcome.dir, summary: outcome.summary });
        log.finished(sub.dir);
      }
      const format = data.format ? parseFormat(data.format) : await detectFormat(data.data);
      const output = await built.combine({
        outDir: req.out,
        runs,
        model: req.model,
        dataset: data.data,
        data: info,
        format,
        results: (r) => readResults(join(r.dir, RESULTS_FILE)),
        examples: reopen(data),
        writeText: (rel, text) => {
          const path = join(req.out, rel);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, text);
          return path;
        },
      });
      for (const [name, value] of Object.entries(output.files)) writeFileSync(join(req.out, name), JSON.stringify(value, null, 2) + '\n');
      log.complete(Object.keys(output.files), output.headline ?? built.runs[built.runs.length - 1]?.dir);
      return { kind: 'experiment', recipe: def, dir: req.out, output, runs };
    } catch (err) {
      log.failed(err);
      throw err;
    }
  } finally {
    release();
  }
}

export const EXPERIMENT_KIND = defineKind({
  kind: 'experiment',
  noun: 'an experiment',
  command: {},
  // Experiments are curves of attacks (typos-curve, grammar-budget-curve): shown with the attacks.
  helpGroup: 'attack',
  supports: {
    resume: true,
    shard: { because: 'of several runs', hint: 'Shard its runs one by one (e.g. attack typos --k 1 … --shard I/N), or run it unsharded.' },
    queue: { because: 'of several runs', hint: 'Queue its runs one by one (e.g. attack typos --k 1 … --queue URL), or run it locally.' },
    inMemory: { because: 'that writes a folder of runs', hint: 'Run it with runRecipe({ …, out }) or the CLI.' },
    dryRun: true,
    maxQueries: true,
  },
  run,
  async print(outcome, opts) {
    const { output } = outcome;
    return { text: opts.json ? JSON.stringify(output.json, null, 2) : output.text, warnings: [], failed: false };
  },
  runRows: (outcome) =>
    outcome.runs.map((r) => ({ name: `${outcome.recipe.name}/${r.run.dir}`, n: r.summary.n, process: r.summary.process })),
});
