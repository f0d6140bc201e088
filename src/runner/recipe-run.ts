/**
 * Assembling and running a recipe, the same way for a program, a suite and the CLI: validate the settings, open
 * the model and the data, survey the labels, pick the goal, check the task, build, then run (per-example work,
 * an experiment's sub-runs, or a generator) into a resumable output folder.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseLabelMap } from '../attack/labels.ts';
import { detectFormat, parseFormat } from '../data/open.ts';
import type { DatasetInfo, Example } from '../data/types.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { RunSummary } from '../metrics/summary.ts';
import type { StressSummary } from '../metrics/stress.ts';
import { QueryEngine } from '../query/engine.ts';
import { goalFor, noDefaultGoal, taskKindOf } from '../recipes/context.ts';
import type { AnyRecipe, BuildContext, Built, ExperimentOutput, SubRunOutcome } from '../recipes/registry/define.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { parseSettings } from '../recipes/registry/settings.ts';
import { TextstressError } from '../util/errors.ts';
import { readResults } from './checkpoint.ts';
import { runGenerator, type GenerateSummary } from './generate.ts';
import { beginExperiment, EXPERIMENT_FILE } from './experiment.ts';
import { RESULTS_FILE, SUMMARY_FILE, runAttack, type RunSettings } from './runner.ts';
import { dataSettings, fileFingerprint, openData, openEngine, openModel, surveyExamples, type DataSpec, type ModelSpec } from './setup.ts';
import { lockFolder } from './lock.ts';
import { subwordEnricher } from './subwords.ts';
import { prepareRecipe } from './work.ts';
import { runStress } from './stress.ts';
import type { Shard } from './shard.ts';
import { writeProbeSets, type ProbeSetFiles } from './probe-sets.ts';

/** Progress of one run: examples (or steps) done of a total. */
export interface ProgressSink {
  start(label: string, total: number): { update(done: number): void; stop(): void };
}

/** A recipe run into a folder, as {@link runRecipe} takes it: the recipe, its settings, the model and (usually) the data. */
export interface RunRequest extends ModelSpec, Partial<DataSpec> {
  registry: Registry;
  recipe: string;
  /** The recipe's settings, camelCase; validated against its schema (defaults applied). */
  settings: Record<string, unknown>;
  out: string;
  seed: number;
  resume?: boolean;
  overwrite?: boolean;
  /** Examples worked on at once (default 32). */
  concurrency?: number;
  labelMap?: string;
  /** Compact results.jsonl (for very large runs): see compactResult. */
  compact?: boolean;
  progress?: ProgressSink;
  /** One line about what runs now (experiments announce each sub-run). */
  log?: (line: string) => void;
  /** Only the examples of shard I of N (`--shard I/N`); `textstress merge` joins the shard folders. */
  shard?: Shard;
  /** Per-example query budget for attacks (TextAttack's query_budget): a search that would pass it ends on its best state. */
  maxQueries?: number;
  /** A model and engine already open (suites, experiments): used and left open. */
  shared?: { model: ModelAdapter; engine: QueryEngine };
}

/** What {@link runRecipe} did: a per-example run, an experiment with its sub-runs, or a generator run, and where. */
export type RecipeOutcome =
  /** A per-example run; a probe's also its D_worst / D_best files and the text its recipe prints (e.g. Table 3). */
  | { kind: 'run'; recipe: AnyRecipe; dir: string; summary: RunSummary; sets?: ProbeSetFiles; text?: string }
  | { kind: 'experiment'; recipe: AnyRecipe; dir: string; output: ExperimentOutput; runs: SubRunOutcome[] }
  /** A generator run: its summary and the text its generator prints for it, if it has its own. */
  | { kind: 'generate'; recipe: AnyRecipe; dir: string; summary: GenerateSummary; text?: string }
  /** A stress run: its summary and the text its recipe prints for it (e.g. the paper's table), if it has its own. */
  | { kind: 'stress'; recipe: AnyRecipe; dir: string; summary: StressSummary; text?: string };

export { EXPERIMENT_FILE };

/**
 * Runs one recipe into `req.out` (resumable): validates settings, opens model and data, builds and runs it.
 * Closes the model unless it was `shared`. Throws a TextstressError when the recipe needs a dataset and none is given.
 */
export async function runRecipe(req: RunRequest): Promise<RecipeOutcome> {
  const def = req.registry.get(req.recipe);
  const settings = parseSettings(def, req.settings) as Record<string, unknown>;
  const model = req.shared?.model ?? (await openModel(req));
  let engineOf: QueryEngine | undefined;
  try {
    const engine = req.shared?.engine ?? (engineOf = openEngine(model, req));
    const shared = { model, engine };
    if (def.kind === 'generate') {
      if (req.shard)
        throw new TextstressError(`--shard splits per-example runs; ${def.name} is a generator.`, { hint: 'Run it unsharded.' });
      return await generate(def, settings, req, shared);
    }
    if (!req.data) {
      throw new TextstressError(`the ${def.name} recipe needs a dataset.`, { hint: 'Pass --data <file>.' });
    }
    const data = req as RunRequest & DataSpec;
    const survey = await surveyExamples(await openData(data));
    const dataset = await openData(data);
    const { built, work, editCurve } = await prepareRecipe(def, settings, model.info, dataset.info, {
      seed: req.seed,
      labelMap: parseLabelMap(req.labelMap),
      observedLabels: survey.labels,
    });

    if (req.shard && built.kind === 'experiment') {
      throw new TextstressError(`--shard splits per-example runs; ${def.name} is an experiment of several runs.`, {
        hint: 'Shard its runs one by one (e.g. attack typos --k 1 … --shard I/N), or run it unsharded.',
      });
    }
    if (req.maxQueries !== undefined && (built.kind === 'probe' || built.kind === 'stress')) {
      throw new TextstressError(`--max-queries bounds an attack's search; ${def.name} is a ${built.kind}.`, {
        hint: 'Leave --max-queries out for this recipe.',
      });
    }
    if (built.kind === 'experiment') {
      const release = lockFolder(req.out);
      try {
        return await experiment(def, built, settings, req, data, dataset.info, shared);
      } finally {
        release();
      }
    }
    const runSettings = runSettingsOf(def, settings, data);
    const common = {
      outDir: req.out,
      examples: dataset.examples(),
      engine,
      resume: req.resume,
      overwrite: req.overwrite,
      concurrency: req.concurrency,
      skippedRows: () => dataset.skipped.length,
      replacementChars: () => dataset.replacementChars,
      dataFingerprint: await fileFingerprint(data.data),
      ...(dataset.info.uniqueIds ? { uniqueIds: true } : {}),
      request: savedRequest(req, settings),
    };
    const progress = req.progress?.start(def.name, survey.n);
    const onProgress = (done: number): void => progress?.update(done);
    let outcome: RecipeOutcome;
    try {
      if (built.kind === 'stress') {
        const summary = await runStress({ ...common, settings: runSettings, built, onProgress });
        const text = built.text?.(summary);
        outcome = { kind: 'stress', recipe: def, dir: req.out, summary, ...(text !== undefined ? { text } : {}) };
      } else {
        if (!work) throw new Error(`recipe "${def.name}" built no per-example work`);
        const { summary } = await runAttack({
          ...common,
          settings: { ...runSettings, ...(req.compact ? { compact: true as const } : {}) },
          work,
          enrich: subwordEnricher(model),
          onProgress,
          editCurve,
          ...(req.maxQueries !== undefined ? { maxQueries: req.maxQueries } : {}),
          ...(dataset.info.kind === 'qa' ? { qa: true } : {}),
          ...(built.kind === 'probe' && built.details ? { details: built.details } : {}),
        });
        outcome = { kind: 'run', recipe: def, dir: req.out, summary };
        // A shard holds some examples only: the probe sets (the whole data, rewritten) are written by `merge`.
        if (built.kind === 'probe' && !req.shard) {
          const format = data.format ? parseFormat(data.format) : await detectFormat(data.data);
          const sets = await writeProbeSets(
            req.out,
            (await openData(data)).examples(),
            readResults(join(req.out, RESULTS_FILE)),
            format,
            dataset.info,
          );
          const text = built.text?.(summary);
          outcome = { ...outcome, sets, ...(text !== undefined ? { text } : {}) };
        }
      }
    } finally {
      progress?.stop();
    }
    if (dataset.skipped.length) writeFileSync(join(req.out, 'skipped-rows.json'), JSON.stringify(dataset.skipped, null, 2) + '\n');
    return outcome;
  } finally {
    if (!req.shared) {
      await engineOf?.flushed();
      await model.close?.();
    }
  }
}

/** What identifies a per-example run (run.json's settings; a resume must match them). */
export function runSettingsOf(def: AnyRecipe, settings: Record<string, unknown>, req: RunRequest & DataSpec): RunSettings {
  return {
    recipe: def.name,
    model: req.model,
    dataset: req.data,
    seed: req.seed,
    ...(req.limit !== undefined ? { limit: req.limit } : {}),
    ...(req.shard ? { shard: req.shard } : {}),
    // The defence file is part of what was attacked: a resume with another (or none) is refused like other settings.
    options: {
      ...settings,
      ...dataSettings(req),
      ...(req.defence ? { defence: req.defence } : {}),
      ...(req.maxQueries !== undefined ? { maxQueries: req.maxQueries } : {}),
    },
  };
}

/** What run.json keeps of a request so that `merge` can open the run again: no secrets (auth_env is a name). */
const SAVED_KEYS = [
  'model',
  'task',
  'authEnv',
  'batchSize',
  'timeout',
  'retries',
  'requestConcurrency',
  'defence',
  'baseUrl',
  'labels',
  'template',
  'mapping',
  'labelRegex',
  'structured',
  'llmTemperature',
  'maxTokens',
  'priceInput',
  'priceOutput',
  'maxCost',
  'cacheDir',
  'cache',
  'data',
  'format',
  'split',
  'limit',
  'skipBadRows',
  'maxChars',
  'textColumn',
  'textAColumn',
  'textBColumn',
  'labelColumn',
  'idColumn',
  'labelMap',
  'compact',
  'maxQueries',
  'concurrency',
] as const;

export function savedRequest(req: RunRequest, settings: Record<string, unknown>): Record<string, unknown> {
  const picked = Object.fromEntries(
    SAVED_KEYS.flatMap((k) => (req[k as keyof RunRequest] === undefined ? [] : [[k, req[k as keyof RunRequest]]])),
  );
  return { recipe: req.recipe, settings, seed: req.seed, ...picked };
}

async function experiment(
  def: AnyRecipe,
  built: Extract<Built, { kind: 'experiment' }>,
  settings: Record<string, unknown>,
  req: RunRequest,
  data: RunRequest & DataSpec,
  info: DatasetInfo,
  shared: { model: ModelAdapter; engine: QueryEngine },
): Promise<RecipeOutcome> {
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
    for (const run of built.runs) {
      const dir = join(req.out, run.dir);
      if (log.done.has(run.dir)) {
        req.log?.(`${def.verb ?? def.name} ${run.dir}: finished before, kept`);
        runs.push({ run, dir, summary: JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as RunSummary });
        continue;
      }
      req.log?.(`${def.verb ?? def.name} ${run.dir} …`);
      const outcome = await runRecipe({
        ...req,
        recipe: run.recipe,
        settings: run.settings,
        out: dir,
        seed: run.seed ?? req.seed,
        ...(run.needsTraces ? { compact: false } : {}),
        shared,
        log: undefined,
      });
      if (outcome.kind !== 'run') throw new Error(`experiment "${def.name}": sub-run ${run.dir} must be an attack or probe`);
      if (outcome.summary.n === 0) {
        throw new TextstressError(`no examples tested: the data gave 0 examples, so ${def.name} has nothing to combine.`, {
          where: outcome.dir,
          hint: 'Check --data, --limit and the column options (rows skipped as bad are listed in skipped-rows.json), then rerun with --overwrite.',
        });
      }
      runs.push({ run, dir: outcome.dir, summary: outcome.summary });
      log.finished(run.dir);
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
}

/** The data's examples again, read afresh on every call. */
function reopen(data: DataSpec): () => AsyncIterable<Example> {
  return () =>
    (async function* () {
      yield* (await openData(data)).examples();
    })();
}

/** The data options that decide which examples an experiment or generator sees, the row limit included. */
function dataOptionsOf(data: DataSpec & { labelMap?: string }): { data_options?: Record<string, unknown> } {
  const picked = { ...dataSettings(data), ...(data.limit !== undefined ? { limit: data.limit } : {}) };
  return Object.keys(picked).length ? { data_options: picked } : {};
}

async function generate(
  def: AnyRecipe,
  settings: Record<string, unknown>,
  req: RunRequest,
  shared: { model: ModelAdapter; engine: QueryEngine },
): Promise<RecipeOutcome> {
  const model = shared.model.info;
  const task = model.task;
  const ctx: BuildContext = { model, task, goal: noDefaultGoal(def.name), seed: req.seed };
  if (req.data) {
    const dataset = await openData(req as RunRequest & DataSpec);
    ctx.data = dataset.info;
    ctx.task = taskKindOf(model, dataset.info);
    const survey = await surveyExamples(dataset);
    const { goal, labels } = goalFor(model, dataset.info, parseLabelMap(req.labelMap), survey.labels);
    ctx.goal = goal;
    if (labels) ctx.labels = labels;
  }
  if (!def.tasks.includes(ctx.task)) {
    throw new TextstressError(`the ${def.name} recipe runs on ${def.tasks.join(', ')} models, but ${model.id} is ${ctx.task}.`);
  }
  const built = await def.build(settings, ctx);
  if (built.kind !== 'generate') throw new Error(`recipe "${def.name}" is declared generate but built ${built.kind}`);
  // A resume is checked like an attack run's: the same settings, model, data options and data file content.
  const dataOptions = req.data ? dataOptionsOf(req as RunRequest & DataSpec) : {};
  const withData = req.data ? (req as RunRequest & DataSpec) : undefined;
  const progress = req.progress?.start(def.name, built.generator.steps);
  try {
    const summary = await runGenerator({
      outDir: req.out,
      generator: built.generator,
      engine: shared.engine,
      settings: { recipe: def.name, model: req.model, dataset: req.data ?? null, seed: req.seed, options: settings, ...dataOptions },
      resume: req.resume,
      overwrite: req.overwrite,
      ...(withData
        ? {
            dataFingerprint: await fileFingerprint(withData.data),
            examples: reopen(withData),
          }
        : {}),
      onStep: (done) => progress?.update(done),
    });
    const text = built.generator.text?.(summary);
    return { kind: 'generate', recipe: def, dir: req.out, summary, ...(text !== undefined ? { text } : {}) };
  } finally {
    progress?.stop();
  }
}
