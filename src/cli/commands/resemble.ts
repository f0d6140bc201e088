/**
 * `textstress resemble fit` (canonical entities and T on a validation split → a config file) and `textstress
 * resemble eval` (the paper's Table 5 with and without the defence). The config is then used with `--defence FILE`
 * on any verb that opens a model, and by `serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseLabelMap } from '../../attack/labels.ts';
import {
  DEFAULT_TEMPERATURE,
  openAnnotator,
  readResembleConfig,
  resembleModel,
  writeResembleConfig,
  type AnnotatorSpec,
} from '../../defence/index.ts';
import { loadDictionaries } from '../../entities/dictionaries.ts';
import { ENTITY_TYPES, type EntityType } from '../../entities/types.ts';
import type { ModelAdapter } from '../../models/types.ts';
import { QueryEngine } from '../../query/engine.ts';
import { prepare } from '../../families/entities/resemble/data.ts';
import { fitResemble, TEMPERATURE_GRID } from '../../families/entities/resemble/fit.ts';
import { formatTable5, table5 } from '../../families/entities/resemble/table5.ts';
import { openData, openModel, type DataSpec, type ModelSpec } from '../../runner/open.ts';
import { TextstressError } from '../../util/errors.ts';
import { addDataOptions, addModelOptions, addOptions, int } from '../options.ts';

interface Common extends ModelSpec, DataSpec {
  type: EntityType;
  seed: number;
  labelMap?: string;
  json?: boolean;
}

function positive(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number > 0.`);
    return n;
  };
}

function common(cmd: Command): Command {
  addModelOptions(cmd);
  addDataOptions(cmd);
  cmd.addOption(new Option('--type <type>', 'entity type the defence replaces').choices([...ENTITY_TYPES]).default('PER'));
  return addOptions(cmd, ['seed', 'labelMap', 'json']);
}

/** The undefended model (--defence makes no sense here: the config is what is being fitted / evaluated). */
async function openInner(opts: Common): Promise<ModelAdapter> {
  if (opts.defence) {
    throw new TextstressError('resemble fit / eval open the undefended model; --defence is for the other verbs.', {
      hint: 'resemble eval takes the config as --config FILE.',
    });
  }
  return openModel(opts);
}

const openNer = (spec: string): Promise<ModelAdapter> => openModel({ model: spec });

function fitCommand(): Command {
  const cmd = new Command('fit').description(
    'fit RESEMBLE on a validation split: the M canonical entities with the highest accuracy, and T by NLL',
  );
  return common(cmd)
    .requiredOption('-o, --out <file>', 'config file to write (JSON)')
    .addOption(new Option('--m <n>', 'canonical entities kept (the paper: 1 or 3)').argParser(int('--m', 1)).default(1))
    .option('--candidates <n>', 'candidate names sampled from the name lists', int('--candidates', 1), 20)
    .option(
      '--annotator <spec>',
      '"gazetteer" (name lists) or a token-classification model (e.g. demo-ner) that finds the mentions',
      'gazetteer',
    )
    .option(
      '--temperature <T>',
      `fixed T instead of the fitted one (the paper's default: ${DEFAULT_TEMPERATURE})`,
      positive('--temperature'),
    )
    .action(async (opts: Common & { out: string; m: number; candidates: number; annotator: string; temperature?: number }) => {
      const spec: AnnotatorSpec = opts.annotator === 'gazetteer' ? { kind: 'gazetteer' } : { kind: 'model', model: opts.annotator };
      const model = await openInner(opts);
      const { annotator, close } = await openAnnotator(spec, openNer);
      try {
        const p = await prepare(model, await openData(opts), annotator, opts.type, parseLabelMap(opts.labelMap));
        const config = await fitResemble(p, new QueryEngine(model), await loadDictionaries(), {
          m: opts.m,
          candidates: opts.candidates,
          seed: opts.seed,
          ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
          annotator: spec,
          model: opts.model,
          data: opts.data,
        });
        writeResembleConfig(opts.out, config);
        if (opts.json) {
          process.stdout.write(JSON.stringify(config, null, 2) + '\n');
          return;
        }
        const f = config.fitted!;
        const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(2)}%`);
        const lines = [
          `textstress · resemble fit (${config.type}) → ${opts.out}`,
          `${f.applicable} of ${f.examples} validation examples have a ${config.type} mention; original accuracy on them ${pct(f.originalAccuracy)}`,
          `canonical entities (M = ${config.canonical.length}): ${config.canonical.map((n) => `${n} (${pct(f.candidates.find((c) => c.name === n)!.accuracy)})`).join(', ')}`,
          `T = ${config.temperature} (${f.temperatureFitted ? `fitted by NLL over ${TEMPERATURE_GRID.join(', ')}` : 'given'}); NLL by T: ${f.temperatureGrid.map((g) => `${g.temperature}: ${g.nll === null ? 'n/a' : g.nll.toFixed(4)}`).join(', ')}`,
        ];
        process.stdout.write(lines.join('\n') + '\n');
      } finally {
        await close();
        await model.close?.();
      }
    });
}

function evalCommand(): Command {
  const cmd = new Command('eval').description("the paper's Table 5: Original / Worst / Best / Random accuracy without and with RESEMBLE");
  return common(cmd)
    .requiredOption('--config <file>', 'RESEMBLE config (from resemble fit)')
    .option(
      '--budget <n>',
      'random replacements per example; Worst/Best are picked among them against the undefended model',
      int('--budget', 1),
      50,
    )
    .option('--random-sets <n>', 'random-replacement datasets for the Random column (mean ± std)', int('--random-sets', 1), 10)
    .option('-o, --out <dir>', 'folder for summary.json and table5.txt')
    .action(async (opts: Common & { config: string; budget: number; randomSets: number; out?: string }) => {
      const config = readResembleConfig(opts.config);
      const typeGiven = cmd.getOptionValueSource('type') === 'cli';
      if (typeGiven && opts.type !== config.type) {
        throw new TextstressError(`--type ${opts.type} but the config defends ${config.type}.`, {
          where: opts.config,
          hint: 'Leave --type out, or fit a config for that type.',
        });
      }
      const model = await openInner(opts);
      const { annotator, close } = await openAnnotator(config.annotator, openNer);
      try {
        const plain = new QueryEngine(model);
        const defended = resembleModel(model, config, annotator, { engine: plain });
        const defendedEngine = new QueryEngine(defended);
        const p = await prepare(model, await openData(opts), annotator, config.type, parseLabelMap(opts.labelMap));
        const t0 = performance.now();
        const table = await table5(p, plain, defendedEngine, await loadDictionaries(), {
          budget: opts.budget,
          randomSets: opts.randomSets,
          seed: opts.seed,
        });
        const summary = {
          model: opts.model,
          dataset: opts.data,
          config: opts.config,
          type: config.type,
          canonical: config.canonical,
          temperature: config.temperature,
          annotator: config.annotator,
          budget: opts.budget,
          randomSets: opts.randomSets,
          seed: opts.seed,
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
          `textstress · resemble eval — Table 5 (${config.type}; M = ${config.canonical.length}: ${config.canonical.join(', ')}; T = ${config.temperature}; B = ${opts.budget})`,
        );
        if (opts.out) {
          mkdirSync(opts.out, { recursive: true });
          writeFileSync(join(opts.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
          writeFileSync(join(opts.out, 'table5.txt'), text + '\n');
        }
        process.stdout.write(opts.json ? JSON.stringify(summary, null, 2) + '\n' : text + '\n');
      } finally {
        await close();
        await model.close?.();
      }
    });
}

/** `textstress resemble fit|eval`. */
export function resembleCommand(): Command {
  return new Command('resemble')
    .description(
      'RESEMBLE, the entity defence (Balasubramanian et al. 2020): fit a config, evaluate it (Table 5); use it with --defence FILE',
    )
    .addCommand(fitCommand())
    .addCommand(evalCommand());
}
