/**
 * The generate kind: a generator that makes its own inputs (fooling sentences, universal names, minimal pairs for
 * the encoder's probes) step by step into a checkpointed folder; the data, when it takes any, is read through
 * `ctx.examples()`. Its records are what it found; its summary is its own metrics.
 */
import { join } from 'node:path';
import { parseLabelMap } from '../../core/labels.ts';
import { goalFor, noDefaultGoal, taskKindOf } from '../../recipes/context.ts';
import { builtAs, type BuildContext } from '../../recipes/registry/define.ts';
import { fileFingerprint, openData, surveyExamples, type DataSpec } from '../../runner/open.ts';
import { SUMMARY_FILE } from '../../runner/per-example.ts';
import { formatMetric, metricLabel, metricUnit } from '../../metrics/display.ts';
import { TextstressError } from '../../util/errors.ts';
import { generatedRunOf, recipeInterval, recipeMetric } from '../gate.ts';
import { BUILD_OPENERS } from '../prepare.ts';
import { dataOptionsOf, reopen } from '../request.ts';
import { defineKind, type KindRunContext, type OutcomeOf, type RunRequest } from '../types.ts';
import { loadGeneratedRun } from './load.ts';
import { runGenerator } from './run.ts';
import { readGenerateSummary } from '../../metrics/summary-schema.ts';

const generated = generatedRunOf;
const perExampleOnly = (hint: string): { because: string; hint: string } => ({ because: 'with no source examples to spread', hint });

/** Builds the generator (with the data's goal and labels when it takes data) and runs it into req.out. */
async function run(ctx: KindRunContext): Promise<OutcomeOf<'generate'>> {
  const { def, settings, req } = ctx;
  const model = ctx.model.info;
  const build: BuildContext = { model, task: model.task, goal: noDefaultGoal(def.name), seed: req.seed, ...BUILD_OPENERS };
  const withData = req.data ? (req as RunRequest & DataSpec) : undefined;
  if (withData) {
    const dataset = await openData(withData);
    build.data = dataset.info;
    build.task = taskKindOf(model, dataset.info);
    const survey = await surveyExamples(dataset);
    const { goal, labels } = goalFor(model, dataset.info, parseLabelMap(req.labelMap), survey.labels);
    build.goal = goal;
    if (labels) build.labels = labels;
  }
  if (!def.tasks.includes(build.task)) {
    throw new TextstressError(`the ${def.name} recipe runs on ${def.tasks.join(', ')} models, but ${model.id} is ${build.task}.`);
  }
  const { generator } = builtAs(await def.build(settings, build), 'generate', def.name);
  const progress = req.progress?.start(def.name, generator.steps);
  try {
    // A resume is checked like an attack run's: the same settings, model, data options and data file content.
    const summary = await runGenerator({
      outDir: req.out,
      generator,
      engine: ctx.engine,
      settings: {
        recipe: def.name,
        model: req.model,
        dataset: req.data ?? null,
        seed: req.seed,
        options: settings,
        ...(withData ? dataOptionsOf(withData) : {}),
      },
      resume: req.resume,
      overwrite: req.overwrite,
      ...(withData ? { dataFingerprint: await fileFingerprint(withData.data), examples: reopen(withData) } : {}),
      onStep: (done) => progress?.update(done),
    });
    const text = generator.text?.(summary);
    return { kind: 'generate', recipe: def, dir: req.out, summary, ...(text !== undefined ? { text } : {}) };
  } finally {
    progress?.stop();
  }
}

export const GENERATE_KIND = defineKind({
  kind: 'generate',
  noun: 'a generator',
  command: {},
  helpGroup: 'generate',
  supports: {
    resume: true,
    shard: perExampleOnly('Run it unsharded.'),
    queue: perExampleOnly('Run it without --queue.'),
    inMemory: { because: 'that writes a folder of runs', hint: 'Run it with runRecipe({ …, out }) or the CLI.' },
    dryRun: { because: 'that runs until it is done', hint: 'Run it with a small --limit (or few steps) and --max-cost instead.' },
    maxQueries: { because: 'with no search to cut short', hint: 'Bound it with its own settings (steps, population) and --max-cost.' },
  },
  run,
  async print(outcome, opts) {
    const { summary, text } = outcome;
    // The rule of every kind (src/kinds/print.ts): a run that measured nothing exits 1.
    const nothing = (summary.measured ?? summary.n) === 0;
    const warnings = nothing ? ['textstress: error: nothing measured: the run generated 0 records, so its figures are n/a.'] : [];
    if (text !== undefined && !opts.json)
      return { text: `${text}\nResults: ${join(outcome.dir, SUMMARY_FILE)}`, warnings, failed: nothing };
    return { text: JSON.stringify(summary, null, 2), warnings, failed: nothing };
  },
  runRows: (outcome) => [{ name: outcome.recipe.name, n: outcome.summary.n }],
  finished: {
    slot: 'generated',
    load: (dir, name, group, summary) => loadGeneratedRun(dir, name, group, readGenerateSummary(summary, join(dir, SUMMARY_FILE))),
    gate: {
      // Generator runs have no clean or attacked examples: only the metrics their recipe declares are theirs.
      builtIn: [],
      value: (metric, run, extra) => recipeMetric(metric, generated(run).summary, extra),
      interval: (metric, run, extra) => recipeInterval(metric, generated(run).summary, extra),
      naReason: () => 'the generator reported no value',
      measured: (run) => ({ n: generated(run).summary.measured ?? generated(run).summary.n, unit: 'records generated' }),
      // Named in words and written in their units (src/metrics/display.ts), as the report and the view write them.
      line: (run, displays = {}) =>
        Object.entries(generated(run).summary.metrics)
          .map(([k, v]) => `${metricLabel(k, displays[k])} ${formatMetric(v, metricUnit(k, v, displays[k]))}`)
          .join(', '),
      row(run, displays = {}) {
        const s = generated(run).summary;
        const m = Object.entries(s.metrics)
          .slice(0, 2)
          .map(([k, v]) => `${metricLabel(k, displays[k])} ${formatMetric(v, metricUnit(k, v, displays[k]))}`)
          .join(' · ');
        // No clean or attacked examples: its own figures go in the last column, not under "clean".
        return [s.recipe, String(s.n), '', '', '', '', m];
      },
    },
  },
});
