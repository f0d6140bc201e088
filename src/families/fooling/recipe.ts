/**
 * `textstress fool`: EFSG, the Evolutionary Fooling Sentences Generator (Di Giovanni & Brambilla) — evolves word
 * sequences from the task's word distribution that the classifier puts in the target class with more confidence
 * than most real positive examples get. A generator: one epoch per step, resumable after each.
 */
import { openDataset } from '../../data/index.ts';
import { targetClass } from './efsg/index.ts';
import { TextstressError } from '../../util/errors.ts';
import type { Generator } from '../../core/generate.ts';
import { defineGenerator, type BuildContext, type RecipeMetric } from '../../recipes/registry/define.ts';
import { foolingGenerator } from './generator.ts';
import { foolingFamily } from './report.ts';
import { foolingSettings, type FoolingSettings } from './settings.ts';
import { fixedSentence, sentenceLength, type FoolingMode } from './source.ts';
import { detailsOf, FOOLING_METRICS } from './tables.ts';
import type { Interval } from '../../stats/index.ts';

const valueOf = (s: Record<string, unknown>, key: string): number | null | undefined =>
  (s.metrics as Record<string, number | null> | undefined)?.[key];
/** What the run scored: every sentence of every epoch (summary `measured`). */
const scored = (s: Record<string, unknown>): number | undefined => (typeof s.measured === 'number' ? s.measured : undefined);
/** A figure of the run itself (a count, the highest score seen): not an estimate, over the sentences scored. */
const observed = (s: Record<string, unknown>, key: string): Interval | undefined => {
  const v = valueOf(s, key);
  const n = scored(s);
  return n === undefined || v === undefined ? undefined : { value: v, low: v, high: v, n, method: 'observed' };
};
/**
 * Each metric's interval and n: F (Wilson) and S (bootstrap) over the last epoch's N sentences, T_task over the
 * positives it was read from (order statistics; none when --threshold gave it: nothing was measured), and the count
 * of fooling sentences and the highest score as what this run observed.
 */
const INTERVALS: Record<keyof typeof FOOLING_METRICS, (s: Record<string, unknown>) => Interval | undefined> = {
  fooling_fraction: (s) => detailsOf(s)?.intervals?.fooling_fraction,
  fooling_mean_score: (s) => detailsOf(s)?.intervals?.fooling_mean_score,
  fooling_max_score: (s) => observed(s, 'fooling_max_score'),
  fooling_sentences: (s) => observed(s, 'fooling_sentences'),
  fooling_threshold: (s) => detailsOf(s)?.threshold.interval,
};
/** Labels and units: F is a share of sentences; S, the highest score and T_task are model scores (0–1), not shares. */
const FOOLING_DISPLAY: Record<keyof typeof FOOLING_METRICS, Pick<RecipeMetric, 'label' | 'unit'>> = {
  fooling_fraction: { label: 'F (fooling share)', unit: 'rate' },
  fooling_mean_score: { label: 'S (mean target score)', unit: 'number' },
  fooling_max_score: { label: 'highest target score', unit: 'number' },
  fooling_sentences: { label: 'fooling sentences, all epochs', unit: 'count' },
  fooling_threshold: { label: 'score threshold T', unit: 'number' },
};
const metrics = Object.fromEntries(
  Object.entries(FOOLING_METRICS).map(([key, description]): [string, RecipeMetric] => [
    key,
    {
      description,
      ...FOOLING_DISPLAY[key as keyof typeof FOOLING_METRICS],
      range: key === 'fooling_sentences' ? [0, Infinity] : [0, 1],
      read: (s) => valueOf(s, key),
      interval: (s) => {
        const iv = INTERVALS[key as keyof typeof FOOLING_METRICS](s);
        return iv ? { ...iv, value: valueOf(s, key) ?? null } : undefined;
      },
    },
  ]),
);

/** `textstress fool`: evolutionary fooling sentences (EFSG), every one the model puts in the target class kept. */
export const foolingRecipe = defineGenerator({
  name: 'fooling',
  summary:
    'evolves nonsense word sequences that the classifier puts in the target class with high confidence (EFSG), keeping every fooling sentence',
  paper: 'Di Giovanni & Brambilla 2021, EFSG',
  verb: 'fool',
  data: 'optional',
  tasks: ['text-classification', 'pair-classification'],
  settings: foolingSettings,
  paths: ['train'],
  metrics,
  report: foolingFamily,
  helpAfter: [
    'Examples:',
    '  textstress fool --model models/demo-sst2 --train ../shared/data/sst2/train.tsv --population 500 --length 9 --epochs 50 --out OUT',
    '  textstress fool --model models/demo-cola --train ../shared/data/cola/train.tsv --no-crossover --out OUT',
    '  textstress fool --model models/demo-qnli --train ../shared/data/qnli/dev.tsv --fixed-id 0 --population 200 --out OUT',
    '',
    'D_task is the word distribution of --train (punctuation removed); T_task the score that --threshold-share of its',
    'positive examples exceed. Each epoch scores the N sentences in one batch, keeps those above T_task and breeds the',
    'next N: parents drawn in proportion to their scores, uniform crossover, one word mutated. Writes results.jsonl (every',
    'distinct fooling sentence, with its score and first epoch: the adversarial set), steps.jsonl (S, M, F per epoch) and',
    'summary.json; --resume continues after the last finished epoch. Pair models: one text (x̂) stays fixed and, without',
    '--length, the evolved text has as many words as x̂ (the paper); single texts default to 9 words.',
  ],
  build: async (s, ctx) => ({ generator: await foolingGeneratorFor(s, ctx) }),
});

/** The EFSG generator for these settings and this model (also what fooling-sweep runs for each value and seed). */
export async function foolingGeneratorFor(s: FoolingSettings, ctx: BuildContext): Promise<Generator> {
  if (s.train === null)
    throw new TextstressError('EFSG needs the training file for D_task and T_task.', {
      hint: "Pass --train <file>; in a suite, set train: in the test's settings (a path relative to the suite file).",
    });
  const labels = ctx.model.labels ?? [];
  if (labels.length < 2) throw new TextstressError(`the model ${ctx.model.id} does not name its classes, so there is no class to aim at.`);
  const target = targetClass(labels, s.target, ctx.model.id);
  const kind = (await openDataset(s.train)).info.kind;
  let mode: FoolingMode = { kind: 'text' };
  if (kind === 'pair') {
    const lookIn = ctx.data?.path ?? s.train;
    mode = await fixedSentence(s, {
      path: lookIn,
      examples: async function* () {
        yield* (await openDataset(lookIn)).examples();
      },
    });
  } else if (s.fixedId !== null || s.fixedText !== null) {
    throw new TextstressError('--fixed-id and --fixed-text are for pair models, but the training file holds single texts.', {
      where: s.train,
    });
  }
  return foolingGenerator(s, {
    train: s.train,
    labels,
    target,
    mode,
    length: sentenceLength(s, mode),
    modelId: ctx.model.id,
    seed: ctx.seed,
  });
}
