/**
 * EFSG as a generator (Di Giovanni & Brambilla): `init` reads the training file (D_task, the positive examples),
 * scores the positives for T_task in one query call and draws the first population; each step is one epoch — the
 * population scored as one batch, its fooling members (score > T_task) kept, the next population bred by
 * proportional selection, crossover and mutation. Checkpointed after every epoch, so a run resumes where it stopped.
 */
import type { GenerateContext, Generator } from '../../core/generate.ts';
import { initPopulation, nextGeneration, thresholdAt, type Sentence } from './efsg/index.ts';
import type { ModelOutput } from '../../models/types.ts';
import { bootstrapMean, quantileInterval, wilson, type Interval } from '../../stats/index.ts';
import { TextstressError } from '../../util/errors.ts';
import type { FoolingSettings } from './settings.ts';
import { inputOf, readTrain, type FoolingMode, type SentenceLength, type TrainSource } from './source.ts';
import { foolingText, type FoolingDetails, type FoolingSample } from './tables.ts';

/** The checkpoint: the population to score next, T_task and the train file it came from. */
export interface FoolingState {
  population: Sentence[];
  /** The scores of the population scored last (for the final S and F intervals; absent before the first epoch). */
  scores?: number[];
  threshold: number;
  positives: number | null;
  /** T_task's distribution-free 95% interval over the positives scored (absent when T was given, or in older runs). */
  thresholdInterval?: Interval;
  fingerprint: string;
}

export interface FoolingSetup {
  train: string;
  labels: readonly string[];
  target: { index: number; label: string };
  mode: FoolingMode;
  /** L, resolved from --length or (pair mode) x̂. */
  length: SentenceLength;
  modelId: string;
  /** The run's seed (the intervals' bootstrap derives from it). */
  seed: number;
}

const SAMPLES = 20;

/**
 * The target-class probability of a classifier's answer: found by the class's name in the answer's own labels (an
 * endpoint may order them differently from what it declared), else at the model's index.
 */
export function targetScore(output: ModelOutput, target: { index: number; label: string }): number {
  if (output.kind !== 'classes') throw new TextstressError(`EFSG needs class probabilities, but the model answered with ${output.kind}.`);
  const named = output.labels.indexOf(target.label);
  return output.probs[named >= 0 ? named : target.index] ?? 0;
}

/**
 * 95% intervals of the last epoch's F (Wilson over its N sentences) and S (bootstrap over them, seeded from the run's
 * seed). They measure how precisely this population pins the figures down, not the spread between seeds (fool-sweep).
 */
export function finalIntervals(scores: readonly number[], threshold: number, seed: number): FoolingDetails['intervals'] {
  const fooling = scores.filter((x) => x > threshold).length;
  return {
    fooling_fraction: wilson(fooling, scores.length),
    fooling_mean_score: bootstrapMean(scores, { seed: `fooling\u0001${seed}`, range: [0, 1] }),
  };
}

export function foolingGenerator(s: FoolingSettings, setup: FoolingSetup): Generator<FoolingState> {
  let source: Promise<TrainSource> | undefined;
  const train = (): Promise<TrainSource> => (source ??= readTrain(setup.train, setup.labels, setup.target.index));
  // Distinct fooling sentences so far; rebuilt from the finished epochs' records after a resume.
  let seen: Set<string> | undefined;
  const seenSet = async (ctx: GenerateContext): Promise<Set<string>> => {
    if (seen) return seen;
    seen = new Set();
    for await (const r of ctx.records()) seen.add(String(r.text));
    return seen;
  };
  let stepStats: readonly Record<string, number>[] = [];
  const extra = setup.mode.kind === 'pair' ? { fixed: setup.mode.fixed, side: setup.mode.side } : {};

  return {
    name: 'fooling',
    steps: s.epochs,
    async init(ctx) {
      const t = await train();
      if (t.kind !== (setup.mode.kind === 'pair' ? 'pair' : 'text')) {
        throw new TextstressError(
          `the training file holds ${t.kind} examples, but the run evolves ${setup.mode.kind === 'pair' ? 'one text of a pair' : 'single texts'}.`,
          { where: setup.train },
        );
      }
      let threshold = s.threshold;
      let positives: number | null = null;
      let thresholdInterval: Interval | undefined;
      if (threshold === null) {
        if (t.positives.length === 0) {
          throw new TextstressError(`no training example has the target class "${setup.target.label}", so T_task cannot be set.`, {
            where: setup.train,
            hint: "Check --target and the file's labels, or give --threshold.",
          });
        }
        const picked = s.thresholdSample > 0 ? ctx.rng.sample(t.positives, s.thresholdSample) : t.positives;
        const outs = await ctx.query(picked);
        const scores = outs.map((o) => targetScore(o, setup.target));
        threshold = thresholdAt(scores, s.thresholdShare);
        thresholdInterval = quantileInterval(scores, 1 - s.thresholdShare, threshold, [0, 1]);
        positives = picked.length;
      }
      return {
        population: initPopulation(t.vocabulary, s.population, setup.length.length, ctx.rng),
        threshold,
        positives,
        ...(thresholdInterval ? { thresholdInterval } : {}),
        fingerprint: t.fingerprint,
      };
    },
    async step(state, ctx) {
      const t = await train();
      if (t.fingerprint !== state.fingerprint) {
        throw new TextstressError('the training file changed since this run started, so D_task would differ.', {
          where: setup.train,
          hint: 'Start a fresh run with --overwrite.',
        });
      }
      const found = await seenSet(ctx);
      const texts = state.population.map((w) => w.join(' '));
      const outs = await ctx.query(texts.map((x) => inputOf(setup.mode, x)));
      const scores = outs.map((o) => targetScore(o, setup.target));
      const records: Record<string, unknown>[] = [];
      let fooling = 0;
      texts.forEach((text, i) => {
        if (!(scores[i]! > state.threshold)) return;
        fooling++;
        if (found.has(text)) return;
        found.add(text);
        records.push({ text, score: scores[i], ...extra });
      });
      const n = scores.length;
      return {
        state: { ...state, population: nextGeneration(state.population, scores, t.vocabulary, s.crossover, ctx.rng), scores },
        records,
        stats: {
          mean_score: scores.reduce((a, x) => a + x, 0) / n,
          fooling,
          fooling_fraction: fooling / n,
          best_score: Math.max(...scores),
          new_fooling: records.length,
          fooling_total: found.size,
        },
      };
    },
    // Every sentence of every epoch was scored: with none above T_task, F = 0 is the measurement.
    measured: (steps) => steps.length * s.population,
    summarize(steps) {
      // Kept for `text`, which the runner calls right after with the summary these metrics go into.
      stepStats = steps;
      const last = steps[steps.length - 1];
      return {
        fooling_fraction: last?.fooling_fraction ?? null,
        fooling_mean_score: last?.mean_score ?? null,
        fooling_max_score: steps.length ? Math.max(...steps.map((x) => x.best_score ?? 0)) : null,
        fooling_sentences: last?.fooling_total ?? 0,
      };
    },
    async finish(state, ctx) {
      const t = await train();
      const top: FoolingSample[] = [];
      for await (const r of ctx.records()) {
        top.push({ text: String(r.text), score: Number(r.score), step: Number(r.step) });
        if (top.length > 4 * SAMPLES) top.sort((a, b) => b.score - a.score).splice(SAMPLES);
      }
      top.sort((a, b) => b.score - a.score).splice(SAMPLES);
      const details: FoolingDetails = {
        target: setup.target,
        threshold: {
          value: state.threshold,
          share: s.thresholdShare,
          source: s.threshold === null ? 'train' : 'given',
          positives: state.positives,
          train: setup.train,
          ...(state.thresholdInterval ? { interval: state.thresholdInterval } : {}),
        },
        vocabulary: { types: t.vocabulary.words.length, tokens: t.vocabulary.total },
        population: s.population,
        length: setup.length.length,
        length_source: setup.length.source,
        epochs: s.epochs,
        crossover: s.crossover,
        pair: setup.mode.kind === 'pair' ? { fixed: setup.mode.fixed, side: setup.mode.side, id: setup.mode.id } : null,
        samples: top,
        intervals: finalIntervals(state.scores ?? [], state.threshold, setup.seed),
      };
      return { details: details as unknown as Record<string, unknown>, metrics: { fooling_threshold: state.threshold } };
    },
    text: (summary) => foolingText(summary, stepStats),
  };
}
