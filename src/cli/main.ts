import { Command, CommanderError } from 'commander';
import { errorMessage, TextstressError } from '../util/errors.ts';
import { attackCommand } from './commands/attack.ts';
import { demoCommand } from './commands/demo.ts';
import { evalCommand } from './commands/eval.ts';
import { grammarCommands } from './commands/grammar.ts';
import { reportCommand } from './commands/report.ts';
import { serveCommand } from './commands/serve.ts';
import { initCommand, runCommand } from './commands/suite.ts';
import { typosCurveCommand } from './commands/typos-curve.ts';

export function buildProgram(): Command {
  const program = new Command('textstress')
    .description('Find where NLP models break: typo, noise and (soon) grammar, entity and distraction stress tests.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)');
  for (const cmd of [demoCommand(), attackCommand(), evalCommand(), serveCommand(), typosCurveCommand(), runCommand(), initCommand(), reportCommand()]) {
    program.addCommand(cmd);
  }
  for (const cmd of grammarCommands()) program.addCommand(cmd);
  return program;
}

/** Runs the CLI; user-facing failures print one paragraph (no stack) and exit 1. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  for (const cmd of program.commands) cmd.exitOverride();
  try {
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
