import { workerCommand } from './commands/worker.ts';
import { mergeCommand } from './commands/merge.ts';
import { cacheCommand } from './commands/cache.ts';
import { COMPARE_ERROR_EXIT, compareCommand, transferCommand } from './commands/compare.ts';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command, CommanderError, type Option } from 'commander';
import { builtinRegistry } from '../families/index.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import type { AnyVerb } from '../recipes/registry/verbs.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { errorMessage, TextstressError } from '../util/errors.ts';
import { packageVersion } from '../util/package-root.ts';
import { terminalSafe } from '../util/terminal.ts';
import { recipeCommands } from './commands/attack.ts';
import { verbCommands } from './commands/verbs.ts';
import { demoCommand } from './commands/demo.ts';
import { evalCommand } from './commands/eval.ts';
import { reportCommand } from './commands/report.ts';
import { viewCommand } from './commands/view.ts';
import { serveCommand } from './commands/serve.ts';
import { initCommand, runCommand } from './commands/suite.ts';
import { listCommand } from './commands/list.ts';
import { examplesText, grouped } from './groups.ts';

export interface ProgramOptions {
  /** The recipes the CLI offers (default: the built-in ones). */
  registry?: Registry;
}

export function buildProgram(opts: ProgramOptions = {}): Command {
  const registry = opts.registry ?? builtinRegistry();
  const program = new Command('textstress')
    .description(
      'Find where NLP models break: typo, noise and grammatical-error attacks, NLI and QA stress tests, entity-name ' +
        'swaps and the RESEMBLE defence, with reports and a CI gate.',
    )
    .version(packageVersion())
    .option('--plugin <module>', 'load recipes from a JS/TS module (its default export or `recipes`); repeatable')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', examplesText());
  const fixed = [
    demoCommand(registry),
    listCommand(registry),
    evalCommand(),
    serveCommand(),
    runCommand(registry),
    initCommand(),
    reportCommand(registry),
    viewCommand(registry),
    cacheCommand(),
    mergeCommand(registry),
    workerCommand(registry),
    compareCommand(),
    transferCommand(),
  ];
  const taken = new Set(fixed.map((c) => c.name()));
  for (const cmd of [...recipeCommands(registry), ...verbCommands(registry)]) {
    if (taken.has(cmd.name()))
      throw new Error(
        `the command "${cmd.name()}" is claimed twice (a recipe's or a family's verb and a built-in command, or two of them)`,
      );
    taken.add(cmd.name());
    fixed.push(cmd);
  }
  // Shown by purpose (src/cli/groups.ts), not in the order they were added.
  for (const cmd of grouped(fixed, registry)) program.addCommand(cmd);
  program.commandsGroup('Start here:').helpCommand(true);
  unknownFlagsFirst(program);
  return program;
}

/** The parts of commander's Command this file patches (public in its code, not in its typings). */
type Checks = Command & { missingMandatoryOptionValue(option: Option): void; unknownOption(flag: string): void };

/**
 * A misspelled flag is named before the required flag it left unset (issue 34): commander checks required options
 * first, so `--modle m` said "required option '--model' not specified" and never named `--modle`. Now the first
 * unknown flag is reported, with commander's did-you-mean (`error: unknown option '--modle' (Did you mean --model?)`).
 */
function unknownFlagsFirst(c: Command): void {
  const cmd = c as Checks;
  const missing = cmd.missingMandatoryOptionValue.bind(cmd);
  cmd.missingMandatoryOptionValue = (option: Option): void => {
    // What commander could not read: operands and unknown flags (an unknown `--x=v` keeps its value attached).
    const stray = cmd.args.find((a) => /^--?[A-Za-z]/.test(a));
    if (stray) cmd.unknownOption(stray.split('=')[0]!);
    missing(option);
  };
  c.commands.forEach(unknownFlagsFirst);
}

/**
 * Modules named by --plugin (anywhere before the command's own options): each is a family, as a built-in family's
 * index.ts is (src/recipes/registry/family.ts): its recipes (default export or `recipes`), `verbs` and `helpGroups`.
 */
export async function loadPlugins(argv: readonly string[], registry: Registry): Promise<void> {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const path = a === '--plugin' ? argv[i + 1] : a.startsWith('--plugin=') ? a.slice('--plugin='.length) : undefined;
    if (path === undefined) continue;
    let mod: Record<string, unknown>;
    try {
      mod = await importPlugin(resolve(path));
    } catch (err) {
      if (err instanceof TextstressError) throw err;
      throw new TextstressError(`cannot load the plugin ${path}: ${errorMessage(err)}`, {
        hint: 'Give a JS or TS module that exports recipes made with defineRecipe.',
      });
    }
    // A recipe exported both ways (default and in `recipes`) is one recipe.
    const found = [...new Set([mod.default, mod.recipes].flat())].filter(
      (r): r is AnyRecipe => !!r && typeof r === 'object' && 'name' in r && 'build' in r,
    );
    // A plugin may bring its family's own commands too (defineVerb), as `verbs`.
    const verbs = [mod.verbs].flat().filter((v): v is AnyVerb => !!v && typeof v === 'object' && 'name' in v && 'run' in v);
    if (found.length === 0 && verbs.length === 0)
      throw new TextstressError(`the plugin ${path} exports no recipe.`, {
        hint: 'Export a recipe (or a list of them) as default, or as `recipes`; commands of your own as `verbs`.',
      });
    // And where its commands show in --help, as a built-in family's manifest says it (`helpGroups`).
    const groups = mod.helpGroups;
    const helpGroups =
      typeof groups === 'object' && groups !== null
        ? Object.fromEntries(Object.entries(groups).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : undefined;
    registry.addFamily({ recipes: found, verbs, ...(helpGroups ? { helpGroups } : {}) });
  }
}

/**
 * Imports a plugin module. Node 20 cannot import TypeScript by itself: an installed textstress (compiled JS)
 * registers tsx's loader for a .ts plugin when tsx can be found from the working folder or from textstress.
 */
async function importPlugin(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (!/\.[mc]?ts$/.test(file) || code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  }
  let api: { register: () => unknown } | undefined;
  for (const from of [join(process.cwd(), 'package.json'), import.meta.url]) {
    const entry = esmEntry(from, 'tsx', './esm/api');
    if (!entry) continue;
    api = (await import(pathToFileURL(entry).href)) as { register: () => unknown };
    break;
  }
  if (!api) {
    throw new TextstressError(`cannot load the TypeScript plugin ${file}: Node needs a TypeScript loader for it.`, {
      hint: 'Install tsx next to it (npm install --save-dev tsx), or compile the plugin to JavaScript.',
    });
  }
  api.register();
  // Node remembers the failed import of this URL: ask again under a fresh one.
  return (await import(`${url}?ts-loader`)) as Record<string, unknown>;
}

/**
 * The ESM file of a package's subpath export, resolved from `from` (require.resolve would pick the CommonJS one,
 * which tsx's API cannot be loaded as); undefined when the package is not installed there.
 */
function esmEntry(from: string, pkg: string, subpath: string): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve(`${pkg}/package.json`);
  } catch {
    return undefined;
  }
  const exportsMap = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports ?? {};
  let target: unknown = exportsMap[subpath];
  while (target && typeof target === 'object') {
    const conditions = target as Record<string, unknown>;
    target = conditions.import ?? conditions.node ?? conditions.default;
  }
  return typeof target === 'string' ? join(dirname(manifest), target) : undefined;
}

/** Commands whose errors exit with a status of their own (not 1), by name. */
const USAGE_EXIT: Record<string, number> = { compare: COMPARE_ERROR_EXIT };

/** Runs the CLI; user-facing failures print one paragraph (no stack) and exit 1 (compare: 2). */
export async function main(argv: string[], opts: ProgramOptions = {}): Promise<void> {
  try {
    const registry = opts.registry ?? builtinRegistry();
    await loadPlugins(argv.slice(2), registry);
    const program = buildProgram({ registry });
    program.exitOverride();
    const override = (c: Command): void => {
      // A command whose exit 1 means a finding (compare: a regression) gives usage errors its own status.
      const usage = USAGE_EXIT[c.name()];
      c.exitOverride((e) => {
        throw usage !== undefined && e.exitCode === 1 ? new CommanderError(usage, e.code, e.message) : e;
      });
      c.commands.forEach(override);
    };
    program.commands.forEach(override);
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already printed its message (or the help/version text).
      process.exitCode = err.exitCode;
      return;
    }
    const known = err instanceof TextstressError;
    process.stderr.write(`textstress: error: ${terminalSafe(errorMessage(err), { keepLayout: true })}\n`);
    if (!known && process.env.TEXTSTRESS_DEBUG) process.stderr.write(`${(err as Error).stack ?? ''}\n`);
    else if (!known) process.stderr.write('(set TEXTSTRESS_DEBUG=1 to see where it happened)\n');
    process.exitCode = err instanceof TextstressError && err.exitCode !== undefined ? err.exitCode : 1;
  }
}
