/**
 * What the per-example kinds (attacks, probes, stress suites) share before and after their own loop: the data is
 * required and surveyed (count and labels), the recipe built for model and data, the run identified (run.json's
 * settings, the data's fingerprint, the request that reopens it), progress shown, and bad rows listed beside the
 * results.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLabelMap } from '../core/labels.ts';
import type { Dataset, Example } from '../data/types.ts';
import { builtAs, type AnyRecipe, type BuiltOf, type RecipeKind } from '../recipes/registry/define.ts';
import type { RunSettings } from '../runner/per-example.ts';
import { identityOptions } from '../options/derive.ts';
import { dataSettings, fileFingerprint, openData, surveyExamples, type DataSpec } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { savedRequest } from './request.ts';
import { prepareRecipe } from './prepare.ts';
import type { KindRunContext, OutcomeOf, RunRequest } from './types.ts';

/** The run's data spec; a TextstressError when the recipe needs a dataset and none is given. */
export function requireData(def: AnyRecipe, req: RunRequest): RunRequest & DataSpec {
  if (!req.data) throw new TextstressError(`the ${def.name} recipe needs a dataset.`, { hint: 'Pass --data <file>.' });
  return req as RunRequest & DataSpec;
}

/** What a per-example kind's own loop gets: the build, the data and the options every such loop takes. */
export interface PerExampleSetup<K extends RecipeKind> {
  /** The recipe's build, of the kind that runs it. */
  built: BuiltOf<K>;
  data: RunRequest & DataSpec;
  dataset: Dataset;
  /** run.json's settings: what a resume must match. */
  settings: RunSettings;
  /** The options runPerExample-based loops share (the output folder, examples, engine, resume, …). */
  common: {
    outDir: string;
    examples: AsyncIterable<Example>;
    engine: KindRunContext['engine'];
    resume?: boolean;
    overwrite?: boolean;
    concurrency?: number;
    skippedRows: () => number;
    replacementChars: () => { rows: number; first?: string };
    dataFingerprint: string;
    uniqueIds?: boolean;
    request: Record<string, unknown>;
    onProgress: (done: number) => void;
  };
}

/**
 * Runs a per-example kind's loop (`run`) with the setup it needs, the progress bar around it and skipped-rows.json
 * after it.
 */
export async function withPerExampleSetup<K extends RecipeKind>(
  ctx: KindRunContext,
  kind: K,
  run: (setup: PerExampleSetup<K>) => Promise<OutcomeOf<K>>,
): Promise<OutcomeOf<K>> {
  const { def, settings, req } = ctx;
  const data = requireData(def, req);
  const survey = await surveyExamples(await openData(data));
  const dataset = await openData(data);
  const prepared = await prepareRecipe(def, settings, ctx.model.info, dataset.info, {
    seed: req.seed,
    labelMap: parseLabelMap(req.labelMap),
    observedLabels: survey.labels,
    ...(ctx.kind.mapsLabels ? { mapsLabels: true } : {}),
  });
  const built = builtAs(prepared, kind, def.name);
  const progress = req.progress?.start(def.name, survey.n);
  try {
    const outcome = await run({
      built,
      data,
      dataset,
      settings: runSettingsOf(def, settings, data),
      common: {
        outDir: req.out,
        examples: dataset.examples(),
        engine: ctx.engine,
        resume: req.resume,
        overwrite: req.overwrite,
        concurrency: req.concurrency,
        skippedRows: () => dataset.skipped.length,
        replacementChars: () => dataset.replacementChars,
        dataFingerprint: await fileFingerprint(data.data),
        ...(dataset.info.uniqueIds ? { uniqueIds: true } : {}),
        request: savedRequest(req, settings),
        onProgress: (done) => progress?.update(done),
      },
    });
    if (dataset.skipped.length) writeFileSync(join(req.out, 'skipped-rows.json'), JSON.stringify(dataset.skipped, null, 2) + '\n');
    return outcome;
  } finally {
    progress?.stop();
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
    // The defence file and the query budget are part of what was measured: a resume with others is refused too.
    options: { ...settings, ...dataSettings(req), ...identityOptions(req, 'run') },
  };
}
