/**
 * The step every way of running a recipe shares once model and data are known: the task check, the default goal
 * and label alignment, the recipe's build, and the per-example work it yields. Runs into folders (runRecipe) and
 * in memory (attackInMemory) both call it, so they cannot drift apart.
 */
import { attackExample } from '../attack/attack.ts';
import { probeExample } from '../attack/probe.ts';
import type { DatasetInfo } from '../data/types.ts';
import type { ModelInfo } from '../models/types.ts';
import { checkRecipeTask, goalFor, taskKindOf } from '../recipes/context.ts';
import type { GoalFactory } from '../attack/goals/index.ts';
import type { AnyRecipe, BuildContext, Built } from '../recipes/registry/define.ts';
import type { ExampleWork } from './runner.ts';

/** A recipe built for a model and dataset, with its per-example work. */
export interface Prepared {
  built: Built;
  /** Per-example work, for attacks and probes (undefined for experiments). */
  work?: ExampleWork;
  /** Whether accuracy by edits means something (attacks whose search adds edits one at a time). */
  editCurve: boolean;
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
  opts: { seed: number; labelMap?: Record<string, string>; observedLabels?: Iterable<string> },
): Promise<Prepared> {
  const task = taskKindOf(model, data);
  checkRecipeTask(def, task, data);
  let ctx: BuildContext;
  if (def.kind === 'stress') {
    // A stress suite maps labels itself (an NLI suite onto its label scheme, where the data's and the model's
    // label sets may differ, 3-way data on a 2-way model): the default goal's label check is made only if used.
    const observed = new Set(opts.observedLabels ?? []);
    ctx = {
      model,
      data,
      task,
      goal: lazyGoal(() => goalFor(model, data, opts.labelMap ?? {}, observed).goal),
      seed: opts.seed,
      labelMap: opts.labelMap ?? {},
      observedLabels: observed,
    };
  } else {
    const { goal, labels } = goalFor(model, data, opts.labelMap ?? {}, opts.observedLabels ?? []);
    ctx = { model, data, task, goal, ...(labels ? { labels } : {}), seed: opts.seed };
  }
  const built = await def.build(settings, ctx);
  if (built.kind !== def.kind) throw new Error(`recipe "${def.name}" is declared ${def.kind} but built ${built.kind}`);
  if (built.kind === 'attack') {
    return {
      built,
      work: (example, session, rng) => attackExample(built.attack, example, session, rng),
      editCurve: built.attack.search.incremental !== false,
    };
  }
  // Probes draw variants, they do not add edits one by one: no accuracy-by-edits curve.
  if (built.kind === 'probe')
    return { built, work: (example, session, rng) => probeExample(built.probe, example, session, rng), editCurve: false };
  return { built, editCurve: false };
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
