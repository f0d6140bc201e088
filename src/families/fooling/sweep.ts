/**
 * `textstress fool-sweep`: EFSG's curves and sweeps (Figures 2–3) — one fooling run per value of the varied setting
 * and per seed, all on one model. Each sub-run is exactly `textstress fool --seed S` with that value (same random
 * draws); the sweep keeps S and F per epoch of every sub-run (results.jsonl), one sub-run per step, so it resumes
 * after the last finished sub-run, and reports mean ± std over the seeds per value.
 */
import { z } from 'zod';
import type { GenerateContext, Generator } from '../../core/generate.ts';
import { fixed } from '../../util/format.ts';
import { TextstressError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { formatGrid } from '../../util/table.ts';
import { defineGenerator, type BuildContext } from '../../recipes/registry/define.ts';
import { foolingGeneratorFor } from './recipe.ts';
import { foolingSettings, type FoolingSettings } from './settings.ts';
import { sweepFamily } from './sweep-report.ts';
import { pairedDifference, sweepRows, type MeanStd, type SweepDetails, type SweepRecord } from './sweep-stats.ts';

const VARY = ['crossover', 'population', 'length', 'fixed'] as const;
type Vary = (typeof VARY)[number];

export const foolingSweepSettings = foolingSettings.extend({
  vary: z
    .enum(VARY)
    .default('crossover')
    .describe(
      'the setting that changes between sub-runs: crossover (on/off), population (N), length (L) or fixed (pair models: the id of x̂)',
    ),
  values: z
    .array(z.string().min(1))
    .default([])
    .describe('its values, comma-separated (crossover: on,off by default; population/length: numbers; fixed: example ids)'),
  seeds: z.array(z.number().int().min(0)).min(1).default([0, 1, 2, 3, 4]).describe('one sub-run per value and seed; mean ± std over these'),
});
export type FoolingSweepSettings = z.output<typeof foolingSweepSettings>;

/** The fooling settings of one sub-run. */
function subSettings(s: FoolingSweepSettings, vary: Vary, value: string): FoolingSettings {
  const { vary: _v, values: _vs, seeds: _s, ...base } = s;
  const number = (): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new TextstressError(`--values for --vary ${vary} must be whole numbers ≥ 1, got "${value}".`);
    return n;
  };
  switch (vary) {
    case 'crossover':
      if (value !== 'on' && value !== 'off') throw new TextstressError(`--values for --vary crossover are on and off, got "${value}".`);
      return { ...base, crossover: value === 'on' };
    case 'population':
      return { ...base, population: number() };
    case 'length':
      return { ...base, length: number() };
    case 'fixed':
      return { ...base, fixedId: value, fixedText: null };
  }
}

const pm = (m: MeanStd, digits: number): string =>
  m.mean === null ? 'n/a' : `${fixed(m.mean, digits)} ± ${m.std === null ? 'n/a' : fixed(m.std, digits)}`;

export function sweepText(d: SweepDetails): string {
  const rows = d.rows.map((r) => [
    r.value,
    String(r.runs),
    pm(r.final.S, 4),
    pm(
      {
        ...r.final.F,
        mean: r.final.F.mean === null ? null : 100 * r.final.F.mean,
        std: r.final.F.std === null ? null : 100 * r.final.F.std,
      },
      1,
    ),
  ]);
  const diff = d.difference;
  const iv = (x: { value: number | null; low: number | null; high: number | null }, k: number, digits: number): string =>
    x.value === null
      ? 'n/a'
      : x.low === null || x.high === null
        ? `${fixed(k * x.value, digits)} (no interval)`
        : `${fixed(k * x.value, digits)} [${fixed(k * x.low, digits)}, ${fixed(k * x.high, digits)}]`;
  return (
    `EFSG sweep over ${d.vary} (seeds ${d.seeds.join(', ')}; ${d.epochs} epochs), at the last epoch:\n` +
    formatGrid([d.vary, 'runs', 'S (mean ± std)', 'F % (mean ± std)'], rows) +
    (diff
      ? `\n${diff.b} − ${diff.a}, paired by seed (95% t interval over ${diff.seeds.length} seeds): S ${iv(diff.S, 1, 4)}, ` +
        `F ${iv(diff.F, 100, 1)} points`
      : '')
  );
}

/** `textstress fool-sweep`: EFSG fooling runs over crossover on/off, population, length or the fixed sentence (Figures 2–3). */
export const foolingSweepRecipe = defineGenerator({
  name: 'fooling-sweep',
  summary:
    'EFSG curves and sweeps: fooling runs over crossover on/off, population, length or the fixed sentence, several seeds each, with S and F as mean ± std',
  paper: 'Di Giovanni & Brambilla 2021, EFSG, Figures 2–3',
  verb: 'fool-sweep',
  data: 'optional',
  tasks: ['text-classification', 'pair-classification'],
  settings: foolingSweepSettings,
  paths: ['train'],
  report: sweepFamily,
  helpAfter: [
    'Examples:',
    '  textstress fool-sweep --model models/demo-sst2 --train ../shared/data/sst2/train.tsv --vary crossover --seeds 0,1,2,3,4 --out OUT',
    '  textstress fool-sweep --model models/demo-sst2 --train train.tsv --vary population --values 50,100,200,500 --epochs 20 --out OUT',
    '  textstress fool-sweep --model models/demo-qnli --train ../shared/data/qnli/dev.tsv --vary fixed --values 0,5,9 --out OUT',
    '',
    'Every sub-run is `textstress fool` with that value and seed (the same draws). results.jsonl holds S and F per epoch',
    'of each sub-run; summary.json the mean ± std per value (per epoch and at the last). --resume continues after the',
    'last finished sub-run. The fooling sentences themselves are not kept: run `textstress fool` for them.',
  ],
  async build(s, ctx) {
    const values = s.values.length ? s.values : s.vary === 'crossover' ? ['on', 'off'] : [];
    if (values.length === 0) throw new TextstressError(`--vary ${s.vary} needs --values (comma-separated).`);
    if (new Set(values).size !== values.length) throw new TextstressError('--values repeats a value.');
    const jobs: { value: string; seed: number; generator: Generator }[] = [];
    for (const value of values) {
      const settings = subSettings(s, s.vary, value);
      for (const seed of s.seeds) {
        const sub: BuildContext = { ...ctx, seed };
        jobs.push({ value, seed, generator: await foolingGeneratorFor(settings, sub) });
      }
    }
    return { generator: sweepGenerator(s.vary, values, s.seeds, s.epochs, jobs, ctx.seed) };
  },
});

interface SweepState {
  done: number;
}

function sweepGenerator(
  vary: Vary,
  values: string[],
  seeds: number[],
  epochs: number,
  jobs: { value: string; seed: number; generator: Generator }[],
  runSeed: number,
): Generator<SweepState> {
  return {
    name: 'fooling-sweep',
    steps: jobs.length,
    init: () => ({ done: 0 }),
    async step(state, ctx) {
      const job = jobs[ctx.step]!;
      // The sub-run draws exactly what `textstress fool --seed <seed>` draws (the runner derives them this way).
      const records: Record<string, unknown>[] = [];
      const sub = (step: number): GenerateContext => ({
        model: ctx.model,
        query: ctx.query,
        rng: Rng.derive(job.seed, job.generator.name, step < 0 ? 'init' : `step-${step}`),
        step,
        records: async function* () {
          yield* records;
        },
        ...(ctx.examples ? { examples: ctx.examples } : {}),
      });
      let inner = await job.generator.init(sub(-1));
      const curve: SweepRecord[] = [];
      for (let e = 0; e < job.generator.steps; e++) {
        const out = await job.generator.step(inner, sub(e));
        inner = out.state;
        records.push(...out.records.map((r) => ({ step: e, ...r })));
        curve.push({
          value: job.value,
          seed: job.seed,
          epoch: e + 1,
          mean_score: out.stats.mean_score!,
          fooling_fraction: out.stats.fooling_fraction!,
        });
      }
      const last = curve[curve.length - 1]!;
      return {
        state: { done: state.done + 1 },
        records: curve as unknown as Record<string, unknown>[],
        stats: { mean_score: last.mean_score, fooling_fraction: last.fooling_fraction, fooling_sentences: records.length },
      };
    },
    // Every sub-run scored N sentences in each of its epochs: a sweep whose runs found nothing still measured them.
    measured: (steps) => steps.length * epochs,
    summarize(steps) {
      return { sub_runs: steps.length, fooling_sentences: steps.reduce((a, x) => a + (x.fooling_sentences ?? 0), 0) };
    },
    async finish(_state, ctx) {
      const records: SweepRecord[] = [];
      for await (const r of ctx.records()) records.push(r as unknown as SweepRecord);
      // Issue 27: crossover's effect as a paired difference over seeds, not two means to compare by eye.
      const difference =
        vary === 'crossover' && values.includes('on') && values.includes('off') ? pairedDifference('off', 'on', records, runSeed) : null;
      const details: SweepDetails = { vary, values, seeds, epochs, rows: sweepRows(values, records), difference };
      return { details: details as unknown as Record<string, unknown> };
    },
    text: (summary) => sweepText(summary.details as unknown as SweepDetails),
  };
}
