/**
 * How the NLI stress suite reads labels: the model's labels and the data's gold labels are each mapped onto the
 * NLI labels (by name, SICK's ENTAILMENT and GLUE's not_entailment alike; a generic LABEL_i by the data's i-th
 * label name; or as --label-map says), then onto the run's scheme. The scheme is 3-way when both sides are, and
 * 2-way when either is (3-way neutral and contradiction then count as not_entailment). Whatever cannot be mapped
 * is refused before the first query, with the labels listed.
 */
import { suggestLabelMap } from '../../../text/label-names.ts';
import type { DatasetInfo } from '../../../data/types.ts';
import type { ModelInfo } from '../../../models/types.ts';
import { inNliScheme, NLI_LABEL_SCHEMES, nliLabelOf, nliSchemeOf, type NliLabel, type NliScheme } from './labels.ts';
import { TextstressError } from '../../../util/errors.ts';

/** The run's label scheme and how each side's labels map onto it. */
export interface NliLabelPlan {
  scheme: NliScheme;
  /** Model label (in its index order) → scheme label. */
  model: string[];
  /** Gold label of the data → scheme label. */
  data: Map<string, NliLabel>;
}

/** A label through --label-map (one hop, to an NLI name or a model label) or by its own name. */
function viaMap(label: string, labelMap: Record<string, string>, modelLabels: readonly string[]): NliLabel | undefined {
  const to = labelMap[label];
  if (to === undefined) return nliLabelOf(label);
  const model = modelLabels.find((m) => m.toLowerCase() === to.toLowerCase());
  return nliLabelOf(to) ?? (model !== undefined && model !== label ? viaMap(model, labelMap, modelLabels) : undefined);
}

/**
 * The scheme and the label mappings of a run; a TextstressError naming the labels that cannot be mapped (the
 * model's, or the data's `observed` gold labels), or a scheme the two sides cannot share.
 */
export function planNliLabels(
  model: ModelInfo,
  data: DatasetInfo,
  observed: Iterable<string>,
  labelMap: Record<string, string>,
  wanted: NliScheme | 'auto',
): NliLabelPlan {
  const modelLabels = model.labels ?? [];
  const names = data.labelNames ?? [];
  const gold = [...new Set(observed)];
  checkLabelMap(labelMap, modelLabels, gold, data.path);
  // A generic LABEL_i is the data's i-th label name, as the attacks' label aligner reads it.
  const modelNli = modelLabels.map(
    (l) => viaMap(l, labelMap, modelLabels) ?? (/^label_(\d+)$/i.test(l) ? nliLabelOf(names[Number(l.slice(6))] ?? '') : undefined),
  );
  const badModel = modelLabels.filter((_, i) => modelNli[i] === undefined);
  const all = [...NLI_LABEL_SCHEMES['3-way'], NLI_LABEL_SCHEMES['2-way'][1]].join(', ');
  if (modelLabels.length === 0 || badModel.length) {
    throw new TextstressError(
      modelLabels.length === 0
        ? `the model ${model.id} does not say what its labels are, so its answers cannot be read as NLI labels.`
        : `the labels of the model ${model.id} [${modelLabels.join(', ')}] cannot be mapped to the NLI labels (${all}): ` +
            `no NLI label for ${badModel.map((l) => `"${l}"`).join(', ')}.`,
      {
        hint: `Map each to the NLI class it means with --label-map: "${example(badModel.length ? badModel : ['LABEL_0'], modelLabels.length)}".`,
      },
    );
  }
  const modelScheme = schemeOf(modelNli as NliLabel[], `the model ${model.id}`, modelLabels);
  const dataNli = new Map(gold.map((g) => [g, viaMap(g, labelMap, modelLabels) ?? nliLabelOf(names[Number(g)] ?? '')] as const));
  const badData = gold.filter((g) => dataNli.get(g) === undefined);
  if (badData.length) {
    throw new TextstressError(
      `the gold labels of ${data.path} [${gold.join(', ')}] cannot be mapped to the NLI labels (${all}): no NLI ` +
        `label for ${badData.map((l) => `"${l}"`).join(', ')}.`,
      {
        hint: `Map each to the NLI class it means with --label-map: "${example(badData, gold.length)}".`,
      },
    );
  }
  const dataScheme = nliSchemeOf([...dataNli.values()] as NliLabel[]);
  const auto: NliScheme = modelScheme === '2-way' || dataScheme === '2-way' ? '2-way' : '3-way';
  if (wanted === '3-way' && auto === '2-way') {
    const side = modelScheme === '2-way' ? `the model ${model.id}` : `the data ${data.path}`;
    throw new TextstressError(
      `--scheme 3-way needs three-way labels on both sides, but ${side} has the 2-way labels entailment / not_entailment.`,
      {
        hint: 'Use --scheme 2-way (or auto): neutral and contradiction then count as not_entailment.',
      },
    );
  }
  const scheme = wanted === 'auto' ? auto : wanted;
  return {
    scheme,
    model: modelNli.map((l) => inNliScheme(l!, scheme)),
    data: new Map([...dataNli].map(([g, l]) => [g, inNliScheme(l!, scheme)])),
  };
}

/** A model's scheme: every label of it present (3-way: all three; 2-way: both), nothing of the other scheme. */
function schemeOf(labels: NliLabel[], who: string, raw: readonly string[]): NliScheme {
  const scheme = nliSchemeOf(labels);
  const need = scheme ? NLI_LABEL_SCHEMES[scheme] : [];
  const missing = need.filter((l) => !labels.includes(l));
  const foreign = scheme ? labels.filter((l) => !(need as readonly string[]).includes(l)) : [];
  if (!scheme || missing.length || foreign.length) {
    throw new TextstressError(
      `${who} has the labels [${raw.join(', ')}], read as [${labels.join(', ')}], which are neither the 3-way NLI ` +
        `labels (entailment, neutral, contradiction) nor the 2-way ones (entailment, not_entailment).`,
      { hint: 'Give a model trained for NLI, or map its labels with --label-map.' },
    );
  }
  return scheme;
}

/** An example --label-map for labels of a set of `size` labels: the 2-way names for two labels, else the 3-way ones. */
/**
 * A --label-map for labels with no NLI name: paired by name likeness where each has one like-named NLI label, else
 * the form to fill in (never paired by position, which swaps classes as often as it maps them).
 */
function example(labels: readonly string[], size: number): string {
  const names: readonly string[] = size === 2 ? NLI_LABEL_SCHEMES['2-way'] : NLI_LABEL_SCHEMES['3-way'];
  const suggested = suggestLabelMap(labels, names);
  const rest = labels.filter((l) => !suggested?.split(',').some((p) => p.startsWith(`${l}=`)));
  return [suggested, ...rest.map((l) => `${l}=<${names.join('|')}>`)].filter(Boolean).join(',');
}

/** A --label-map entry that names no label of either side, or maps to nothing known, is a typo: refused. */
function checkLabelMap(labelMap: Record<string, string>, modelLabels: readonly string[], gold: readonly string[], path: string): void {
  const lower = (xs: readonly string[]): string[] => xs.map((x) => x.toLowerCase());
  const problems: string[] = [];
  for (const [from, to] of Object.entries(labelMap)) {
    if (!gold.includes(from) && !modelLabels.includes(from))
      problems.push(
        `"${from}" is neither a gold label of ${path} [${gold.join(', ')}] nor a label of the model [${modelLabels.join(', ')}]`,
      );
    if (nliLabelOf(to) === undefined && !lower(modelLabels).includes(to.toLowerCase()))
      problems.push(`"${to}" is neither an NLI label nor a label of the model`);
  }
  if (problems.length) {
    throw new TextstressError(
      `--label-map ${Object.entries(labelMap)
        .map(([a, b]) => `${a}=${b}`)
        .join(',')} does not fit: ${problems.join('; ')}.`,
      {
        hint: 'Write label=NLI label (entailment, neutral, contradiction, not_entailment) for a gold label of the data or a label of the model.',
      },
    );
  }
}
