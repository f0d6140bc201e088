/**
 * Recipe commands, derived from the registry: `attack <recipe>` for every per-example recipe (attacks, probes),
 * and a top-level verb for every experiment and generator (`typos-curve`, `augment`, …). Each command's own flags
 * come from its recipe's settings; the model, data and run options are the shared groups.
 */
import { Command } from 'commander';
import { readResults } from '../../runner/checkpoint.ts';
import { runRecipe, type RecipeOutcome } from '../../runner/recipe-run.ts';
import { RESULTS_FILE } from '../../runner/runner.ts';
import type { DataSpec, ModelSpec } from '../../runner/setup.ts';
import type { AnyRecipe } from '../../recipes/registry/define.ts';
import { closest, commandOf, isTopLevel, type Registry } from '../../recipes/registry/registry.ts';
import type { ExampleResult } from '../../attack/result.ts';
import { dryRunTable, exampleLines, stressTable, summaryTable, type DryRunRow } from '../../report/terminal.ts';
import { TextstressError } from '../../util/errors.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addRecipeOptions, recipeSettingsFrom } from '../derive.ts';
import { addDataOptions, addModelOptions, addRunOptions } from '../options.ts';
import { progressBars } from '../progress.ts';

interface RunCliOptions extends ModelSpec, Partial<DataSpec> {
  out?: string;
  seed: number;
  resume?: boolean;
  overwrite?: boolean;
  concurrency?: number;
  labelMap?: string;
  json?: boolean;
  progress?: boolean;
  dryRun?: boolean;
  queue?: string;
  blockSize?: number;
}

export function attackCommand(registry: Registry): Command {
  // Probes have their own verb (`probe <recipe>`) and stay reachable here, where they were first.
  const perExample = registry.all().filter((d) => commandOf(d)[0] === 'attack' || d.kind === 'probe');
  const cmd = new Command('attack')
    .description('attack a model with a recipe and write summary.json + results.jsonl')
    .addHelpText(
      'after',
      `\nRecipes: ${perExample.map((d) => d.name).join(', ')}. \`textstress attack <recipe> --help\` lists a recipe's own options.`,
    );
  for (const def of perExample) cmd.addCommand(recipeCommand(def, registry, def.name));
  // A name that is no subcommand lands here: say what the recipes are (and the closest), not just "unknown command".
  return cmd
    .argument('[recipe]')
    .allowUnknownOption()
    .allowExcessArguments()
    .action((recipe?: string) => {
      if (recipe === undefined) {
        throw new TextstressError('name the recipe to attack with.', {
          hint: `Recipes: ${perExample.map((d) => d.name).join(', ')}; e.g. textstress attack typos --help.`,
        });
      }
      const def = registry.get(recipe);
      throw new TextstressError(
        `${def.name} is ${def.kind === 'generate' ? 'a generator' : def.kind === 'stress' ? 'a stress suite' : 'an experiment'}, not an attack.`,
        {
          hint: `Run it as \`textstress ${commandOf(def).join(' ')}\` (see --help).`,
        },
      );
    });
}

/** `probe <recipe>`: one subcommand per probe recipe (e.g. `probe entities`); undefined when the registry has none. */
export function probeCommand(registry: Registry): Command | undefined {
  return groupCommand(registry, 'probe', {
    description:
      'probe a model: B rewritten variants of every example (entities), or inside the encoder: layer probes, attention heads and the masked-LM cloze test for grammar errors (layers, heads, cloze)',
    noun: 'probe',
    plural: 'Probes',
  });
}

/** `stress <suite>`: one subcommand per stress recipe (e.g. `stress nli`); undefined when the registry has none. */
export function stressCommand(registry: Registry): Command | undefined {
  return groupCommand(registry, 'stress', {
    description: 'run a stress-test suite: named tests per example, accuracy per test and its reduction from the original',
    noun: 'stress suite',
    plural: 'Suites',
  });
}

/** A verb with one subcommand per recipe of that kind; a name that is none of them says which there are (and the closest). */
function groupCommand(
  registry: Registry,
  kind: 'probe' | 'stress',
  words: { description: string; noun: string; plural: string },
): Command | undefined {
  const defs = registry.all().filter((d) => d.kind === kind || d.group === kind);
  if (defs.length === 0) return undefined;
  const verbs = defs.map((d) => commandOf(d)[1]!);
  const cmd = new Command(kind)
    .description(words.description)
    .addHelpText('after', `\n${words.plural}: ${verbs.join(', ')}. \`textstress ${kind} <name> --help\` lists its own options.`);
  defs.forEach((def, i) => cmd.addCommand(recipeCommand(def, registry, verbs[i]!)));
  return cmd
    .argument('[name]')
    .allowUnknownOption()
    .allowExcessArguments()
    .action((name?: string) => {
      const near = name === undefined ? undefined : closest(name, verbs);
      throw new TextstressError(
        name === undefined
          ? `name the ${words.noun} to run.`
          : `unknown ${words.noun} "${name}"${near ? ` (did you mean "${near}"?)` : ''}.`,
        {
          hint: `${words.plural}: ${verbs.join(', ')}; e.g. textstress ${kind} ${verbs[0]} --help.`,
        },
      );
    });
}

/** The top-level verbs of experiments and generators. */
export function experimentCommands(registry: Registry): Command[] {
  return registry
    .all()
    .filter(isTopLevel)
    .map((def) => recipeCommand(def, registry, def.verb ?? def.name));
}

function recipeCommand(def: AnyRecipe, registry: Registry, verb: string): Command {
  const cmd = new Command(verb).description(def.summary + (def.paper ? ` (${def.paper})` : ''));
  if (def.helpAfter?.length) cmd.addHelpText('after', `\n${def.helpAfter.join('\n')}`);
  addRecipeOptions(cmd, def);
  addModelOptions(cmd);
  if (def.data !== 'none') addDataOptions(cmd, (def.data ?? 'required') === 'required');
  addRunOptions(cmd);
  return cmd.action(async (opts: RunCliOptions) => {
    const settings = recipeSettingsFrom(cmd, def);
    const { out = `runs/${verb}`, progress, json, dryRun, ...spec } = opts;
    const showProgress = progress !== false && !json;
    if (dryRun) return dryRunRecipe(def, registry, settings, spec, json === true);
    const request = {
      ...spec,
      registry,
      recipe: def.name,
      settings,
      out,
      ...(showProgress ? { progress: progressBars() } : {}),
      log: (line: string) => void process.stderr.write(`textstress: ${line}\n`),
    };
    // With --queue this process coordinates: workers (textstress worker) do the examples.
    const queue = spec.queue;
    const outcome = queue ? await (await import('../../queue/coordinator.ts')).runQueued({ ...request, queue }) : await runRecipe(request);
    await printOutcome(outcome, json === true);
  });
}

/** `--dry-run`: the run against a stand-in model in a scratch folder, then what it would send and cost. */
async function dryRunRecipe(
  def: AnyRecipe,
  registry: Registry,
  settings: Record<string, unknown>,
  spec: Omit<RunCliOptions, 'out' | 'progress' | 'json' | 'dryRun'>,
  json: boolean,
): Promise<void> {
  if (def.kind === 'generate') {
    throw new TextstressError(`--dry-run estimates per-example runs; ${def.name} is a generator.`, {
      hint: 'Run it with a small --limit (or few steps) and --max-cost instead.',
    });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'textstress-dry-run-'));
  try {
    const outcome = await runRecipe({ ...spec, registry, recipe: def.name, settings, out: scratch, overwrite: true, dryRun: true });
    const rows: DryRunRow[] =
      outcome.kind === 'experiment'
        ? outcome.runs.map((r) => ({ name: `${def.name}/${r.run.dir}`, n: r.summary.n, process: r.summary.process }))
        : outcome.kind === 'generate'
          ? []
          : [{ name: def.name, n: outcome.summary.n, process: outcome.summary.process }];
    process.stdout.write((json ? JSON.stringify(rows, null, 2) : dryRunTable(rows)) + '\n');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function printOutcome(outcome: RecipeOutcome, json: boolean): Promise<void> {
  if (outcome.kind === 'experiment') {
    process.stdout.write((json ? JSON.stringify(outcome.output.json, null, 2) : outcome.output.text) + '\n');
    return;
  }
  if (outcome.kind === 'stress') {
    process.stdout.write((json ? JSON.stringify(outcome.summary, null, 2) : (outcome.text ?? stressTable(outcome.summary))) + '\n');
    if (!json) process.stdout.write(`Results: ${join(outcome.dir, 'summary.json')}, ${join(outcome.dir, RESULTS_FILE)}\n`);
    warnIfEmpty(outcome);
    return;
  }
  if (outcome.kind === 'generate' && outcome.text !== undefined && !json) {
    process.stdout.write(`${outcome.text}\nResults: ${join(outcome.dir, 'summary.json')}\n`);
    return;
  }
  if (outcome.kind === 'generate' || json) {
    process.stdout.write(JSON.stringify(outcome.summary, null, 2) + '\n');
    if (outcome.kind === 'run') warnIfEmpty(outcome);
    return;
  }
  if (outcome.text !== undefined) {
    process.stdout.write(outcome.text + '\n');
  } else {
    process.stdout.write(summaryTable(outcome.summary) + '\n');
    const ex = exampleLines(await firstSuccesses(join(outcome.dir, RESULTS_FILE), 3));
    if (ex) process.stdout.write(ex + '\n');
  }
  process.stdout.write(`Results: ${join(outcome.dir, 'summary.json')}, ${join(outcome.dir, RESULTS_FILE)}\n`);
  if (outcome.sets) process.stdout.write(`D_worst: ${outcome.sets.worst}\nD_best: ${outcome.sets.best}\n`);
  warnIfEmpty(outcome);
}

/** A run over zero examples measured nothing: say so, and fail, so no script mistakes it for a result. */
function warnIfEmpty(outcome: Extract<RecipeOutcome, { kind: 'run' | 'stress' }>): void {
  const bad = outcome.summary.replacement_chars;
  if (bad) {
    process.stderr.write(
      `textstress: warning: ${bad.rows} example${bad.rows === 1 ? '' : 's'} hold U+FFFD (the first at ${bad.first ?? '?'}): ` +
        'the data file is probably not UTF-8, and the model read "�" where the text had other characters. Re-encode it (e.g. iconv -f latin1 -t utf-8).\n',
    );
  }
  if (outcome.summary.n > 0) return;
  const skipped = outcome.summary.skipped_rows ? ` (${outcome.summary.skipped_rows} bad rows skipped)` : '';
  process.stderr.write(`textstress: error: no examples tested: the data gave 0 examples${skipped}, so every metric is n/a.\n`);
  process.exitCode = 1;
}

/** The first n successful attacks of a results file, read until found. */
async function firstSuccesses(path: string, n: number): Promise<ExampleResult[]> {
  const out: ExampleResult[] = [];
  for await (const r of readResults(path)) {
    if (r.status !== 'succeeded') continue;
    out.push(r);
    if (out.length >= n) break;
  }
  return out;
}
