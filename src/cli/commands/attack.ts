/**
 * Recipe commands, derived from the registry: each recipe's command words come from its kind (`attack <recipe>`,
 * `probe <recipe>`, `stress <verb>`, a top-level verb, or a group the recipe names such as `probe layers`), each
 * with its recipe's own flags and the shared model, data and run options. What a finished run prints is its kind's.
 */
import { Command } from 'commander';
import { dryRunTable } from '../../kinds/dry-run.ts';
import { dryRun, wallTimeLines } from '../../kinds/dry-run-time.ts';
import { assertSupports, commandsOf, kindOf, KINDS, type GroupVerb, type RecipeOutcome } from '../../kinds/index.ts';
import { runRecipe } from '../../kinds/run.ts';
import type { DataSpec, ModelSpec, RunOptions } from '../../options/shared.ts';
import type { AnyRecipe } from '../../recipes/registry/define.ts';
import { closest, type Registry } from '../../recipes/registry/registry.ts';
import { TextstressError } from '../../util/errors.ts';
import { jsonForTerminal, terminalSafe } from '../../util/terminal.ts';
import { addRecipeOptions, recipeSettingsFrom } from '../derive.ts';
import { addDataOptions, addModelOptions, addRunOptions } from '../options.ts';
import { progressBars } from '../progress.ts';
import { DEFAULT_RUNS_DIR, releaseRunDir, runDirFor } from '../out-dir.ts';

/** What a recipe command's flags parse to: the shared options (src/options/shared.ts); the recipe's own are read apart. */
type RunCliOptions = ModelSpec & Partial<DataSpec> & RunOptions & { seed: number };

/**
 * The words of a group verb (help line, errors): those of the kind that owns it (KindRuntime.command.group); a group
 * no kind owns (a plugin's `group`) gets plain ones.
 */
function groupWords(name: string): GroupVerb & { noun: string } {
  const owner = Object.values(KINDS).find((k) => k.command.under === name && k.command.group);
  if (owner?.command.group) return { ...owner.command.group, noun: owner.noun };
  return {
    description: `${name} commands`,
    noun: `a ${name}`,
    plural: 'Commands',
    ask: `name the ${name} to run.`,
    unknown: name,
    argument: '[name]',
  };
}

/**
 * Every recipe command: the group verbs (`attack`, `probe`, `stress`) with one subcommand per recipe placed there,
 * and the top-level verbs of the others. Two recipes claiming one command is an error.
 */
export function recipeCommands(registry: Registry): Command[] {
  const groups = new Map<string, { verb: string; def: AnyRecipe }[]>();
  const top: Command[] = [];
  const claimed = new Map<string, string>();
  for (const def of registry.all()) {
    for (const words of commandsOf(def)) {
      const command = words.join(' ');
      const other = claimed.get(command);
      if (other) throw new Error(`recipes "${other}" and "${def.name}" both claim the command "textstress ${command}"`);
      claimed.set(command, def.name);
      if (words.length === 1) top.push(recipeCommand(def, registry, words[0]!));
      else groups.set(words[0]!, [...(groups.get(words[0]!) ?? []), { verb: words[1]!, def }]);
    }
  }
  return [...[...groups].map(([name, members]) => groupCommand(registry, name, members)), ...top];
}

/** A group verb with one subcommand per recipe; a name that is none of them says which there are (and the closest). */
function groupCommand(registry: Registry, name: string, members: { verb: string; def: AnyRecipe }[]): Command {
  const words = groupWords(name);
  const verbs = members.map((m) => m.verb);
  const cmd = new Command(name)
    .description(words.description)
    .addHelpText('after', `\n${words.plural}: ${verbs.join(', ')}. \`textstress ${name} <name> --help\` lists its own options.`);
  for (const m of members) cmd.addCommand(recipeCommand(m.def, registry, m.verb));
  return cmd
    .argument(words.argument)
    .allowUnknownOption()
    .allowExcessArguments()
    .action((given?: string) => {
      const hint = `${words.plural}: ${verbs.join(', ')}; e.g. textstress ${name} ${verbs[0]} --help.`;
      if (given === undefined) throw new TextstressError(words.ask, { hint });
      if (registry.has(given)) {
        const def = registry.get(given);
        throw new TextstressError(`${def.name} is ${kindOf(def).noun}, not ${words.noun}.`, {
          hint: `Run it as \`textstress ${commandsOf(def)[0]!.join(' ')}\` (see --help).`,
        });
      }
      const near = closest(given, verbs);
      throw new TextstressError(`unknown ${words.unknown} "${given}"${near ? ` (did you mean "${near}"?)` : ''}.`, { hint });
    });
}

function recipeCommand(def: AnyRecipe, registry: Registry, verb: string): Command {
  const cmd = new Command(verb).description(def.summary + (def.paper ? ` (${def.paper})` : ''));
  if (def.helpAfter?.length) cmd.addHelpText('after', `\n${def.helpAfter.join('\n')}`);
  addRecipeOptions(cmd, def);
  addModelOptions(cmd);
  if (def.data !== 'none') addDataOptions(cmd, (def.data ?? 'required') === 'required');
  addRunOptions(cmd);
  const outFlag = cmd.options.find((o) => o.long === '--out');
  if (outFlag) outFlag.description += ` (default: a new folder per run, ${DEFAULT_RUNS_DIR}/${verb}-<date>-<time>)`;
  return cmd.action(async (opts: RunCliOptions) => {
    const settings = recipeSettingsFrom(cmd, def);
    const { out: givenOut, progress, json, dryRun, ...spec } = opts;
    const showProgress = progress !== false && !json;
    if (dryRun) return dryRunRecipe(def, registry, settings, spec, json === true);
    const log = (line: string): void => void process.stderr.write(`textstress: ${terminalSafe(line, { keepLayout: true })}\n`);
    // No --out: a new folder per run, so the same command twice never meets the first run's folder (out-dir.ts).
    const { out, fresh } = runDirFor(verb, { out: givenOut, resume: spec.resume });
    if (fresh) log(`writing to ${out} (a new folder for this run; --out names one)`);
    const request = {
      ...spec,
      registry,
      recipe: def.name,
      settings,
      out,
      ...(showProgress ? { progress: progressBars() } : {}),
      log,
    };
    // With --queue this process coordinates: workers (textstress worker) do the examples.
    const queue = spec.queue;
    let outcome: RecipeOutcome;
    try {
      outcome = queue ? await (await import('../../queue/coordinator.ts')).runQueued({ ...request, queue }) : await runRecipe(request);
    } catch (err) {
      // A run that failed before writing anything (model not found, bad data) leaves no empty folder behind.
      if (fresh) releaseRunDir(out);
      throw err;
    }
    await printOutcome(outcome, json === true);
  });
}

/** `--dry-run`: the run against a stand-in model, then what it would send, cost and take (src/kinds/dry-run-time.ts). */
async function dryRunRecipe(
  def: AnyRecipe,
  registry: Registry,
  settings: Record<string, unknown>,
  spec: Omit<RunCliOptions, 'out' | 'progress' | 'json' | 'dryRun'>,
  json: boolean,
): Promise<void> {
  assertSupports(def, 'dryRun');
  const { rows, time } = await dryRun({ ...spec, registry, recipe: def.name, settings }, { time: !json });
  process.stdout.write(
    json ? jsonForTerminal(rows) : terminalSafe([dryRunTable(rows), ...wallTimeLines(time!)].join('\n'), { keepLayout: true }) + '\n',
  );
}

/** What a finished run prints (its kind's text on stdout, warnings on stderr); a run that measured nothing exits 1. */
export async function printOutcome(outcome: RecipeOutcome, json: boolean, after: string[] = []): Promise<void> {
  const printed = await KINDS[outcome.kind].print(outcome, { json });
  // Whatever a kind prints may quote data: its control characters are shown, not obeyed (src/util/terminal.ts).
  process.stdout.write(terminalSafe([printed.text, ...after].join('\n'), { keepLayout: true }) + '\n');
  for (const w of printed.warnings) process.stderr.write(terminalSafe(w, { keepLayout: true }) + '\n');
  if (printed.failed) process.exitCode = 1;
}
