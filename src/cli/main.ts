import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { builtinRegistry } from '../recipes/builtin.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { errorMessage, TextstressError } from '../util/errors.ts';
import { attackCommand, experimentCommands } from './commands/attack.ts';
import { demoCommand } from './commands/demo.ts';
import { evalCommand } from './commands/eval.ts';
import { grammarTablesCommand } from './commands/grammar-tables.ts';
import { reportCommand } from './commands/report.ts';
import { serveCommand } from './commands/serve.ts';
import { initCommand, runCommand } from './commands/suite.ts';

export interface ProgramOptions {
  /** The recipes the CLI offers (default: the built-in ones). */
  registry?: Registry;
}

export function buildProgram(opts: ProgramOptions = {}): Command {
  const registry = opts.registry ?? builtinRegistry();
  const program = new Command('textstress')
    .description('Find where NLP models break: typo, noise and grammatical-error stress tests, with reports and a CI gate.')
    .version('0.1.0')
    .option('--plugin <module>', 'load recipes from a JS/TS module (its default export or `recipes`); repeatable')
    .showHelpAfterError('(run with --help for usage)');
  const fixed = [demoCommand(registry), attackCommand(registry), evalCommand(), serveCommand(), runCommand(registry), initCommand(), reportCommand(registry), grammarTablesCommand()];
  const taken = new Set(fixed.map((c) => c.name()));
  for (const cmd of experimentCommands(registry)) {
    if (taken.has(cmd.name())) throw new Error(`the recipe verb "${cmd.name()}" clashes with a built-in command`);
    fixed.push(cmd);
  }
  for (const cmd of fixed) program.addCommand(cmd);
  return program;
}

/** Modules named by --plugin (anywhere before the command's own options): their recipes join the registry. */
export async function loadPlugins(argv: readonly string[], registry: Registry): Promise<void> {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const path = a === '--plugin' ? argv[i + 1] : a.startsWith('--plugin=') ? a.slice('--plugin='.length) : undefined;
    if (path === undefined) continue;
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
    } catch (err) {
      throw new TextstressError(`cannot load the plugin ${path}: ${errorMessage(err)}`, { hint: 'Give a JS or TS module that exports recipes made with defineRecipe.' });
    }
    const found = [mod.default, mod.recipes].flat().filter((r): r is AnyRecipe => !!r && typeof r === 'object' && 'name' in r && 'build' in r);
    if (found.length === 0) throw new TextstressError(`the plugin ${path} exports no recipe.`, { hint: 'Export a recipe (or a list of them) as default, or as `recipes`.' });
    for (const r of found) registry.add(r);
  }
}

/** Runs the CLI; user-facing failures print one paragraph (no stack) and exit 1. */
export async function main(argv: string[], opts: ProgramOptions = {}): Promise<void> {
  try {
    const registry = opts.registry ?? builtinRegistry();
    await loadPlugins(argv.slice(2), registry);
    const program = buildProgram({ registry });
    program.exitOverride();
    const override = (c: Command): void => {
      c.exitOverride();
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
    process.stderr.write(`textstress: error: ${errorMessage(err)}\n`);
    if (!known && process.env.TEXTSTRESS_DEBUG) process.stderr.write(`${(err as Error).stack ?? ''}\n`);
    else if (!known) process.stderr.write('(set TEXTSTRESS_DEBUG=1 to see where it happened)\n');
    process.exitCode = 1;
  }
}
