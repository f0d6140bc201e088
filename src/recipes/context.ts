/**
 * What a model + dataset pair means for a recipe: its task kind, the default goal (flip the gold label for
 * classifiers, lower entity F1 for taggers, lower answer F1 for QA) and the label alignment. Checked before the
 * first query, so a wrong model or dataset fails with a clear message instead of halfway through a run.
 */
import { EntityF1Drop, QaF1Drop, UntargetedClassification, type GoalFactory } from '../core/goals/index.ts';
import { LabelAligner, suggestLabelMap } from '../core/labels.ts';
import type { DatasetInfo } from '../data/types.ts';
import type { ModelInfo } from '../models/types.ts';
import { TextstressError } from '../util/errors.ts';
import type { AnyRecipe, TaskKind } from './registry/define.ts';
import { closest } from './registry/registry.ts';

/** The task kind of a model on a dataset; a TextstressError when they do not fit together. */
export function taskKindOf(model: ModelInfo, data: DatasetInfo): TaskKind {
  const fits: Record<DatasetInfo['kind'], [ModelInfo['task'], TaskKind]> = {
    text: ['text-classification', 'text-classification'],
    pair: ['text-classification', 'pair-classification'],
    tokens: ['token-classification', 'token-classification'],
    qa: ['question-answering', 'question-answering'],
  };
  const [modelTask, kind] = fits[data.kind];
  if (model.task !== modelTask) {
    throw new TextstressError(`the model ${model.id} is a ${model.task} model, but ${data.path} holds ${data.kind} examples.`, {
      hint: 'Pick a model made for this data, or pass --format to read the file differently.',
    });
  }
  return kind;
}

/** Fails before any work when a recipe does not run on this task kind. */
export function checkRecipeTask(def: AnyRecipe, task: TaskKind, data: DatasetInfo): void {
  if (def.tasks.includes(task)) return;
  throw new TextstressError(`the ${def.name} recipe runs on ${def.tasks.join(', ')} data, but ${data.path} with this model is ${task}.`, {
    hint: 'Pick another recipe for this model, or another dataset.',
  });
}

/** The default goal for a model/dataset pair, and the label alignment (classifiers). */
export function goalFor(
  model: ModelInfo,
  data: DatasetInfo,
  labelMap: Record<string, string> = {},
  /** Gold labels seen in the data, for formats that do not fix a label set (CSV, JSONL). */
  observedLabels: Iterable<string> = [],
): { goal: GoalFactory; labels?: LabelAligner } {
  const kind = taskKindOf(model, data);
  if (kind === 'token-classification') return { goal: new EntityF1Drop() };
  if (kind === 'question-answering') return { goal: new QaF1Drop() };
  if (!model.labels || model.labels.length === 0) {
    throw new TextstressError(`the model ${model.id} does not say what its labels are.`, {
      hint: 'Give config.json an id2label map, or have the endpoint list its labels at GET /info.',
    });
  }
  const datasetLabels = [...new Set([...(data.labelNames ?? []), ...observedLabels])];
  const map = byName(labelMap, data.labelNames ?? [], datasetLabels);
  checkLabelMap(map, model, data, datasetLabels, labelMap);
  const aligner = new LabelAligner(model.labels, data.labelNames ?? [], map);
  checkLabels(aligner, model, data, datasetLabels);
  return { goal: new UntargetedClassification(aligner), labels: aligner };
}

/** Label-map keys given as the file's own label indices ("0" for SST-2's negative) turned into the label names. */
function byName(labelMap: Record<string, string>, names: readonly string[], datasetLabels: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(labelMap).map(([k, v]) => [
      /^\d+$/.test(k) && !datasetLabels.includes(k) && names[Number(k)] !== undefined ? names[Number(k)]! : k,
      v,
    ]),
  );
}

/** A --label-map entry that matches no dataset label or no model label is a mistake (a typo), not a no-op. */
function checkLabelMap(
  labelMap: Record<string, string>,
  model: ModelInfo,
  data: DatasetInfo,
  datasetLabels: readonly string[],
  given: Record<string, string> = labelMap,
): void {
  const lower = (xs: readonly string[]): string[] => xs.map((x) => x.toLowerCase());
  const modelLabels = lower(model.labels ?? []);
  const problems: string[] = [];
  for (const [from, to] of Object.entries(labelMap)) {
    if (!datasetLabels.includes(from)) problems.push(`"${from}" is not a label of ${data.path} [${datasetLabels.join(', ')}]`);
    if (!modelLabels.includes(to.toLowerCase())) {
      const near = closest(to, model.labels ?? []);
      problems.push(`"${to}" is not a label of the model [${(model.labels ?? []).join(', ')}]${near ? ` (did you mean "${near}"?)` : ''}`);
    }
  }
  if (problems.length) {
    throw new TextstressError(
      // Echoed as the user wrote it (the keys above may be label indices turned into names).
      `--label-map ${Object.entries(given)
        .map(([a, b]) => `${a}=${b}`)
        .join(',')} does not fit: ${problems.join('; ')}.`,
      {
        hint: 'Write dataset label = model label for labels that exist on both sides.',
      },
    );
  }
}

/** Fails before any work when the dataset's label set cannot be mapped onto the model's (wrong model?). */
function checkLabels(aligner: LabelAligner, model: ModelInfo, data: DatasetInfo, labels: string[]): void {
  const unmatched = labels.filter((label) => {
    try {
      aligner.indexOf(label);
      return false;
    } catch {
      return true;
    }
  });
  if (unmatched.length === 0) return;
  throw new TextstressError(
    `the labels of ${data.path} [${labels.join(', ')}] do not match the labels of the model ` +
      `${model.id} [${(model.labels ?? []).join(', ')}]: no model label for ${unmatched.map((l) => `"${l}"`).join(', ')}.`,
    { hint: labelMapHint(unmatched, model.labels ?? []) },
  );
}

/**
 * What to do about dataset labels the model does not know: a --label-map pairing them by name where each has one
 * like-named model label (never by position: that swaps classes as often as it maps them), else how to write one.
 */
function labelMapHint(unmatched: readonly string[], modelLabels: readonly string[]): string {
  const suggested = suggestLabelMap(unmatched, modelLabels);
  const missing = suggested ? unmatched.filter((l) => !suggested.split(',').some((p) => p.startsWith(`${l}=`))) : unmatched;
  const how = 'map each dataset label to the model label of the same class: --label-map "DATASET_LABEL=MODEL_LABEL,…"';
  if (!suggested) return `Check that this model was trained for this data, or ${how}.`;
  return (
    `If the names mean the same classes: --label-map "${suggested}" (paired by name; check it)` +
    (missing.length ? `, and for ${missing.map((l) => `"${l}"`).join(', ')} ${how}.` : '.')
  );
}

/**
 * The goal of a run with no dataset (a generator without data): there is no gold label to flip, so a recipe that
 * asks for the default goal anyway gets told so.
 */
export function noDefaultGoal(recipe: string): GoalFactory {
  return {
    name: 'no-default-goal',
    create() {
      throw new TextstressError(`the ${recipe} recipe ran without a dataset, so there is no gold label for a default goal.`, {
        hint: 'Pass --data, or build the goal the recipe needs from its own settings.',
      });
    },
  };
}
