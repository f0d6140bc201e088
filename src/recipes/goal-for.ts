import { LabelAligner } from '../attack/labels.ts';
import { EntityF1Drop, UntargetedClassification, type GoalFactory } from '../attack/goal.ts';
import type { DatasetInfo } from '../data/types.ts';
import type { ModelInfo } from '../models/types.ts';
import { TextstressError } from '../util/errors.ts';

/** The default goal for a model/dataset pair: flip the label (classifiers) or lower entity F1 (NER). */
export function goalFor(
  model: ModelInfo,
  data: DatasetInfo,
  labelMap: Record<string, string> = {},
  /** Gold labels seen in the data, for formats that do not fix a label set (CSV, JSONL). */
  observedLabels: Iterable<string> = [],
): GoalFactory {
  if (data.kind === 'tokens') {
    if (model.task !== 'token-classification') throw mismatch(model, data);
    return new EntityF1Drop();
  }
  if (data.kind === 'text' || data.kind === 'pair') {
    if (model.task !== 'text-classification') throw mismatch(model, data);
    if (!model.labels || model.labels.length === 0) {
      throw new TextstressError(`the model ${model.id} does not say what its labels are.`, {
        hint: 'Give config.json an id2label map, or have the endpoint list its labels at GET /info.',
      });
    }
    const aligner = new LabelAligner(model.labels, data.labelNames ?? [], labelMap);
    checkLabels(aligner, model, data, [...new Set([...(data.labelNames ?? []), ...observedLabels])]);
    return new UntargetedClassification(aligner);
  }
  throw new TextstressError(
    `attacks on ${data.kind} data (${data.path}) are not available in this recipe yet; use classification or NER data.`,
  );
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
    {
      hint: `Check that this model was trained for this data, or map the labels with --label-map, e.g. --label-map "${unmatched.map((l, i) => `${l}=${model.labels?.[i % (model.labels?.length ?? 1)] ?? 'LABEL'}`).join(',')}".`,
    },
  );
}

function mismatch(model: ModelInfo, data: DatasetInfo): TextstressError {
  return new TextstressError(
    `the model ${model.id} is a ${model.task} model, but ${data.path} holds ${data.kind} examples.`,
    { hint: 'Pick a model made for this data, or pass --format to read the file differently.' },
  );
}
