/**
 * `textstress probe entities`: Algorithm 1 of Balasubramanian et al. (2020), "What's in a Name?" — every mention
 * of one entity type replaced by other names of that type, B times per example; the worst and the best variant
 * kept (D_worst, D_best, written in the input's format), the paper's Table 3, and the metric by the replacement
 * name's training frequency and subword count.
 */
import { loadDictionaries } from '../../entities/index.ts';
import { TextstressError } from '../../util/errors.ts';
import { defineProbe, type RecipeMetric } from '../../recipes/registry/define.ts';
import type { Interval } from '../../stats/index.ts';
import { entityProbe } from './probe.ts';
import { annotatorName, namesFiles, openAnnotator } from './sources.ts';
import { entitiesFamily } from './report.ts';
import { entitiesSettings } from './settings.ts';
import { entityDigest } from './table3.ts';
import { entityDetailsOf, entitiesText } from './tables.ts';
import { readTrainData, type TrainCounts } from './train.ts';

/**
 * Gate metrics: Table 3's numbers (fractions; n/a over zero examples, stability n/a when nothing was probed), each
 * with its interval over D (n = |D|, the examples that mention the type).
 */
type Details = NonNullable<ReturnType<typeof entityDetailsOf>>;
const read = (pick: (d: Details) => number | null) => (s: Record<string, unknown>) => {
  const d = entityDetailsOf(s);
  return d ? pick(d) : undefined;
};
const interval = (pick: (d: Details) => Interval | undefined, value: (d: Details) => number | null) => (s: Record<string, unknown>) => {
  const d = entityDetailsOf(s);
  const iv = d ? pick(d) : undefined;
  return d && iv ? { ...iv, value: value(d) } : undefined;
};
const ENTITY_METRICS: Record<string, RecipeMetric> = {
  entities_original: {
    description: 'entities: the metric (accuracy, entity F1 or answer F1) on the original examples that mention the type (D)',
    range: [0, 1],
    read: read((d) => d.table3.original.value),
    interval: interval(
      (d) => d.table3.original.interval,
      (d) => d.table3.original.value,
    ),
  },
  entities_worst: {
    description: 'entities: the metric on D_worst over D (each example’s worst variant)',
    range: [0, 1],
    read: read((d) => d.table3.worst.value),
    interval: interval(
      (d) => d.table3.worst.interval,
      (d) => d.table3.worst.value,
    ),
  },
  entities_best: {
    description: 'entities: the metric on D_best over D (each example’s best variant)',
    range: [0, 1],
    read: read((d) => d.table3.best.value),
    interval: interval(
      (d) => d.table3.best.interval,
      (d) => d.table3.best.value,
    ),
  },
  entities_gap: {
    description: 'entities: best − worst over D',
    range: [-1, 1],
    read: read((d) => d.table3.gap),
    interval: interval(
      (d) => d.table3.gap_interval,
      (d) => d.table3.gap,
    ),
  },
  entities_stability: {
    description: 'entities: share of probed examples whose prediction never changed within the budget',
    range: [0, 1],
    read: read((d) => d.table3.stability),
    interval: interval(
      (d) => d.table3.stability_interval,
      (d) => d.table3.stability,
    ),
  },
  entities_probed: {
    description: 'entities: examples with a mention of the type (probed)',
    range: [0, Infinity],
    read: read((d) => d.probed),
    // A count of the run's own examples, not an estimate: over the n examples it looked at.
    interval: interval(
      (d) => ({ value: d.probed, low: d.probed, high: d.probed, n: d.n, method: 'observed' }),
      (d) => d.probed,
    ),
  },
};

/** The `entities` probe recipe. */
export const entitiesRecipe = defineProbe({
  name: 'entities',
  summary:
    'replaces every mention of one entity type (PER, ORG, LOC, MISC) by other names of that type B times; worst and ' +
    'best per example, D_worst/D_best, stability (Table 3)',
  paper: 'Balasubramanian et al. 2020',
  tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
  settings: entitiesSettings,
  cli: { annotator: { arg: '<who>' }, namesFile: { arg: '<KEY=PATH,…>' }, trainData: { arg: '<file>' } },
  metrics: ENTITY_METRICS,
  report: entitiesFamily,
  helpAfter: [
    'Examples:',
    '  textstress probe entities --model models/demo-ner --data ../shared/data/conll2003/eng.testb --type PER --budget 50 --out OUT',
    '  textstress probe entities --model models/demo-sst2 --data demo/reviews.tsv --train-data ../shared/data/sst2/train.tsv --out OUT',
    '  textstress probe entities --model M --data dev.tsv --annotator model:models/demo-ner --type ORG --names-file org=companies.txt',
    '',
    'Mentions: gold tags (NER data, the default there), the name lists (--annotator gazetteer, the default for other data)',
    'or a token-classification model (model:<spec>). Every mention of one distinct name is replaced the same way in the',
    'whole example (both texts of a pair, question and context); NER tags and QA answers follow. An example with no',
    'mention of the type is not applicable (counted, never stable) and appears unchanged in D_worst and D_best.',
    'Prints Table 3 over the examples that mention the type (Original / Worst / Best / Stability, with n and 95%',
    'intervals; accuracy, entity F1 or EM/F1), the same rows over all examples (labelled) and, with --train-data, the',
    'metric by name frequency; with a tokenizing model, by subword count. Writes summary.json, results.jsonl,',
    'd_worst.<ext> and d_best.<ext> (the input format; JSONL for csv/tsv/jsonl). --exclude-train-names keeps only',
    'names unseen in --train-data, which empties every frequency bin but 0. More: docs/entities.md.',
  ],
  async build(s, ctx) {
    const annotator = annotatorName(s.annotator, ctx.data);
    let train: { path: string; counts: TrainCounts; seen: Set<string> } | undefined;
    if (s.trainData !== null) train = { path: s.trainData, ...(await readTrainData(s.trainData)) };
    else if (s.excludeTrainNames)
      throw new TextstressError('--exclude-train-names needs --train-data (the file whose names to leave out).');
    const dicts = await loadDictionaries({
      files: namesFiles(s.namesFile),
      ...(s.excludeTrainNames && train ? { exclude: train.seen } : {}),
    });
    const probe = entityProbe({
      type: s.type,
      budget: s.budget,
      goal: ctx.goal,
      annotator: (await openAnnotator(annotator, ctx.data, dicts, ctx.openModel)).annotator,
      dicts,
    });
    return {
      probe,
      details: () =>
        entityDigest({
          seed: ctx.seed,
          type: s.type,
          budget: s.budget,
          annotator,
          ...(train ? { train: { path: train.path, counts: train.counts } } : {}),
        }),
      text: entitiesText,
    };
  },
});
