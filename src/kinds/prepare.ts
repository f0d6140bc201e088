/**
 * The step every way of running a recipe shares once model and data are known: the task check, the default goal
 * and label alignment, and the recipe's build. Runs into folders, the queue's coordinator and workers, and runs in
 * memory all call it, so they cannot drift apart.
 */
import type { DatasetInfo } from '../data/types.ts';
import type { ModelInfo } from '../models/types.ts';
import { checkRecipeTask, goalFor, taskKindOf } from '../recipes/context.ts';
import type { GoalFactory } from '../core/goals/index.ts';
import type { AnyRecipe, BuildContext, Built } from '../recipes/registry/define.ts';
import { openModel, resolveModelSpec, type ModelSpec } from '../runner/open.ts';

/** How a recipe is prepared for a model and data. */
export interface PrepareOptions {
  seed: number;
  /** Dataset label → model label, as --label-map gives it. */
  labelMap?: Record<string, string>;
  /** The gold labels the data holds (read before the run, so a label that cannot be mapped fails first). */
  observedLabels?: Iterable<string>;
  /**
   * The recipe maps labels itself (a stress suite onto its NLI label scheme, where the data's and the model's label
   * sets may differ): it gets the --label-map pairs and the observed labels, and the default goal is made, with
   * its label check, only if used. Set by the recipe's kind.
   */
  mapsLabels?: boolean;
}

/**
 * Checks the recipe fits the task, picks the default goal and label alignment, and builds it.
 * Throws when the task does not fit or the recipe builds a different kind than it declares.
 */
export async function prepareRecipe(
  def: AnyRecipe,
  settings: Record<string, unknown>,
  model: ModelInfo,
  data: DatasetInfo,
  opts: PrepareOptions,
): Promise<Built> {
  const task = taskKindOf(model, data);
  checkRecipeTask(def, task, data);
  let ctx: BuildContext;
  if (opts.mapsLabels) {
    const observed = new Set(opts.observedLabels ?? []);
    const goal = lazyGoal(() => goalFor(model, data, opts.labelMap ?? {}, observed).goal);
    ctx = { model, data, task, goal, seed: opts.seed, labelMap: opts.labelMap ?? {}, observedLabels: observed, ...BUILD_OPENERS };
  } else {
    const { goal, labels } = goalFor(model, data, opts.labelMap ?? {}, opts.observedLabels ?? []);
    ctx = { model, data, task, goal, ...(labels ? { labels } : {}), seed: opts.seed, ...BUILD_OPENERS };
  }
  const built = await def.build(settings, ctx);
  if (built.kind !== def.kind) throw new Error(`recipe "${def.name}" is declared ${def.kind} but built ${built.kind}`);
  return built;
}

/** How a recipe's build opens another model (BuildContext.openModel): as a run opens its own. */
export const openForBuild: BuildContext['openModel'] = (spec, o) =>
  openModel({ model: spec, ...(o?.task ? { task: o.task as ModelSpec['task'] } : {}) });

/** How a recipe's build opens a model for inspection; loaded on first use (onnx-proto and the graph code are big). */
export const openEncoderForBuild: BuildContext['openEncoder'] = async (spec, o) =>
  (await import('../models/encoder/index.ts')).loadEncoder(spec, o);

/** What a build opens other models with (BuildContext's openers); the helper models load on first use. */
export const BUILD_OPENERS: Pick<BuildContext, 'openModel' | 'openEncoder' | 'openSentenceEncoder' | 'openMaskedLm' | 'openEmbeddings'> = {
  openModel: openForBuild,
  openEncoder: openEncoderForBuild,
  openSentenceEncoder: async (spec) => (await import('../models/lm/sentence-encoder.ts')).SentenceEncoder.open(resolveModelSpec(spec)),
  openMaskedLm: async (spec) => (await import('../models/lm/masked-lm.ts')).MaskedLm.open(resolveModelSpec(spec)),
  openEmbeddings: async (file) => (await import('../data/embeddings/index.ts')).WordEmbeddings.open(file),
};

/** Closes what a recipe's build opened (models, word vectors), for every kind whose build may open some. */
export async function closeBuilt(built: Built | undefined): Promise<void> {
  await (built as { close?: () => Promise<void> } | undefined)?.close?.();
}

/** A goal factory made on first use. */
function lazyGoal(make: () => GoalFactory): GoalFactory {
  let goal: GoalFactory | undefined;
  return {
    get name() {
      return (goal ??= make()).name;
    },
    create: (example, clean) => (goal ??= make()).create(example, clean),
  };
}
