/**
 * `textstress resemble fit` (canonical entities and T on a validation split → a config file) and `textstress
 * resemble eval` (the paper's Table 5 with and without the defence). The config is then used with `--defence FILE`
 * on any verb that opens a model, and by `serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseLabelMap } from '../../../core/labels.ts';
import {
  checkAnnotatorDestination,
  DEFAULT_TEMPERATURE,
  openAnnotator,
  readResembleConfig,
  resembleModel,
  writeResembleConfig,
  type AnnotatorSpec,
} from '../../../defence/index.ts';
import { loadDictionaries } from '../../../entities/dictionaries.ts';
import { ENTITY_TYPES } from '../../../entities/types.ts';
import type { ModelAdapter } from '../../../models/types.ts';
import type { ModelSpec } from '../../../options/shared.ts';
import { defineVerb, type VerbContext } from '../../../recipes/registry/verbs.ts';
import { TextstressError } from '../../../util/errors.ts';
import { prepare } from './data.ts';
import { fitResemble, TEMPERATURE_GRID } from './fit.ts';
import { formatTable5, table5 } from './table5.ts';

const SHARED = ['model', 'data', 'seed', 'labelMap', 'json'] as const;
const type = z.enum(ENTITY_TYPES).default('PER').describe('entity type the defence replaces');

/** The undefended model (--defence makes no sense here: the config is what is being fitted / evaluated). */
async function openInner(ctx: VerbContext<unknown>): Promise<ModelAdapter> {
  if (ctx.shared.defence) {
    throw new TextstressError('resemble fit / eval open the undefended model; --defence is for the other verbs.', {
      hint: 'resemble eval takes the config as --config FILE.',
    });
  }
  return ctx.openModel(ctx.shared as ModelSpec);
}

export const resembleFitVerb = defineVerb({
  group: 'resemble',
  groupSummary:
    'RESEMBLE, the entity defence (Balasubramanian et al. 2020): fit a config, evaluate it (Table 5); use it with --defence FILE',
  name: 'fit',
  summary: "fit RESEMBLE on a validation split: the M canonical entities with the highest accuracy; T = 2 (the paper's) or fitted by NLL",
  settings: z.strictObject({
    type,
    out: z.string().min(1).describe('config file to write (JSON)'),
    m: z.number().int().min(1).default(1).describe('canonical entities kept (the paper: 1 or 3)'),
    candidates: z.number().int().min(1).default(20).describe('candidate names sampled from the name lists'),
    annotator: z
      .string()
      .min(1)
      .default('gazetteer')
      .describe('"gazetteer" (name lists) or a token-classification model (e.g. demo-ner) that finds the mentions'),
    temperature: z
      .number()
      .gt(0)
      .default(DEFAULT_TEMPERATURE)
      .describe(`the fixed T of Eq. (2) (the paper fixes ${DEFAULT_TEMPERATURE}, chosen on its validation data)`),
    fitTemperature: z
      .boolean()
      .default(false)
      .describe(`fit T instead: the grid value (${TEMPERATURE_GRID.join(', ')}) with the lowest NLL of Eq. (2) on the validation examples`),
  }),
  cli: {
    out: { required: true, short: 'o', arg: '<file>' },
    annotator: { arg: '<spec>' },
    temperature: { arg: '<T>' },
    type: { arg: '<type>' },
  },
  shared: SHARED,
  async run(ctx) {
    const s = ctx.settings;
    if (s.fitTemperature && ctx.given('temperature')) {
      throw new TextstressError('--temperature fixes T and --fit-temperature fits it: give one of them.', {
        hint: `Leave both out for the paper's T = ${DEFAULT_TEMPERATURE}.`,
      });
    }
    const spec: AnnotatorSpec = s.annotator === 'gazetteer' ? { kind: 'gazetteer' } : { kind: 'model', model: s.annotator };
    const model = await openInner(ctx);
    const { annotator, close } = await openAnnotator(spec, (m) => ctx.openModel(m));
    try {
      const data = ctx.shared as { data: string } & Record<string, unknown>;
      const p = await prepare(model, await ctx.openData(data), annotator, s.type, parseLabelMap(ctx.shared.labelMap as string | undefined));
      const config = await fitResemble(p, ctx.engine(model), await loadDictionaries(), {
        m: s.m,
        candidates: s.candidates,
        seed: ctx.shared.seed as number,
        temperature: s.fitTemperature ? 'fit' : s.temperature,
        annotator: spec,
        model: ctx.shared.model!,
        data: data.data,
      });
      writeResembleConfig(s.out, config);
      if (ctx.shared.json) {
        ctx.print(JSON.stringify(config, null, 2));
        return;
      }
      const f = config.fitted!;
      const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(2)}%`);
      const how = f.temperatureFitted
        ? `fitted by NLL over ${TEMPERATURE_GRID.join(', ')}`
        : ctx.given('temperature')
          ? 'given'
          : "the paper's fixed T";
      const lines = [
        `textstress · resemble fit (${config.type}) → ${s.out}`,
        `${f.applicable} of ${f.examples} validation examples have a ${config.type} mention; original accuracy on them ${pct(f.originalAccuracy)}`,
        `canonical entities (M = ${config.canonical.length}): ` +
          `${config.canonical.map((n) => `${n} (${pct(f.candidates.find((c) => c.name === n)!.accuracy)})`).join(', ')}`,
        `T = ${config.temperature} ` +
          `(${how}); NLL by T: ` +
          `${f.temperatureGrid.map((g) => `${g.temperature}: ${g.nll === null ? 'n/a' : g.nll.toFixed(4)}`).join(', ')}`,
      ];
      ctx.print(lines.join('\n'));
    } finally {
      await close();
      await model.close?.();
    }
  },
});

export const resembleEvalVerb = defineVerb({
  group: 'resemble',
  name: 'eval',
  summary: "the paper's Table 5: Original / Worst / Best / Random accuracy without and with RESEMBLE",
  settings: z.strictObject({
    type,
    config: z.string().min(1).describe('RESEMBLE config (from resemble fit)'),
    budget: z
      .number()
      .int()
      .min(1)
      .default(50)
      .describe('random replacements per example; Worst/Best are picked among them against the undefended model'),
    randomSets: z.number().int().min(1).default(10).describe('random-replacement datasets for the Random column (mean ± std)'),
    out: z.string().min(1).optional().describe('folder for summary.json and table5.txt'),
  }),
  cli: { config: { required: true, arg: '<file>' }, out: { short: 'o', arg: '<dir>' }, type: { arg: '<type>' } },
  shared: SHARED,
  async run(ctx) {
    const s = ctx.settings;
    const config = readResembleConfig(s.config);
    if (ctx.given('type') && s.type !== config.type) {
      throw new TextstressError(`--type ${s.type} but the config defends ${config.type}.`, {
        where: s.config,
        hint: 'Leave --type out, or fit a config for that type.',
      });
    }
    // Checked before any model opens: a config naming a remote annotator must not get as far as sending anything.
    const allowRemote = ctx.shared.allowRemote;
    checkAnnotatorDestination(config.annotator, { config: s.config, ...(allowRemote ? { allowRemote } : {}) });
    const model = await openInner(ctx);
    const { annotator, close } = await openAnnotator(config.annotator, (m) => ctx.openModel(m));
    try {
      const plain = ctx.engine(model);
      const defended = resembleModel(model, config, annotator, { engine: plain });
      const defendedEngine = ctx.engine(defended);
      const data = ctx.shared as { data: string } & Record<string, unknown>;
      const p = await prepare(
        model,
        await ctx.openData(data),
        annotator,
        config.type,
        parseLabelMap(ctx.shared.labelMap as string | undefined),
      );
      const t0 = performance.now();
      const table = await table5(p, plain, defendedEngine, await loadDictionaries(), {
        budget: s.budget,
        randomSets: s.randomSets,
        seed: ctx.shared.seed as number,
      });
      const summary = {
        model: ctx.shared.model,
        dataset: data.data,
        config: s.config,
        type: config.type,
        canonical: config.canonical,
        temperature: config.temperature,
        annotator: config.annotator,
        budget: s.budget,
        randomSets: s.randomSets,
        seed: ctx.shared.seed,
        ...table,
        queries: {
          model: { ...plain.stats },
          defended: { ...defendedEngine.stats },
          resemble: {
            inputs: defended.stats.inputs,
            withMentions: defended.stats.withMentions,
            canonicalInputs: defended.stats.canonicalInputs,
          },
        },
        wallSeconds: (performance.now() - t0) / 1000,
      };
      const text = formatTable5(
        table,
        `textstress · resemble eval — Table 5 (${config.type}; M = ${config.canonical.length}: ` +
          `${config.canonical.join(', ')}; T = ${config.temperature}; B = ${s.budget})`,
      );
      if (s.out) {
        mkdirSync(s.out, { recursive: true });
        writeFileSync(join(s.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
        writeFileSync(join(s.out, 'table5.txt'), text + '\n');
      }
      ctx.print(ctx.shared.json ? JSON.stringify(summary, null, 2) : text);
    } finally {
      await close();
      await model.close?.();
    }
  },
});
