/** `textstress merge OUT_0 … OUT_N-1 --out OUT`: the folders of a sharded run joined into one (src/kinds/merge.ts). */
import { Command } from 'commander';
import type { Registry } from '../../recipes/registry/registry.ts';
import { KINDS } from '../../kinds/index.ts';
import { isSuiteFolder, mergeShards, mergeSuiteShards } from '../../kinds/merge.ts';
import { printOutcome } from './attack.ts';
import { terminalSafe } from '../../util/terminal.ts';
import { addFlags } from '../options.ts';

export function mergeCommand(registry: Registry): Command {
  const cmd = new Command('merge')
    .description('join the output folders of a run made in shards (--shard I/N) into the folder one process would have written')
    .argument('<dirs...>', 'the N shard folders, in any order');
  return addFlags(cmd, {
    out: { help: 'output folder for the joined run', required: true },
    overwrite: true,
    json: { help: 'print the summary as JSON' },
  }).action(async (dirs: string[], opts: { out: string; overwrite?: boolean; json?: boolean }) => {
    if (dirs.length && isSuiteFolder(dirs[0]!)) {
      const merged = await mergeSuiteShards(dirs, { registry, out: opts.out, ...(opts.overwrite ? { overwrite: true } : {}) });
      for (const { test, outcome } of merged) {
        const rows = KINDS[outcome.kind].runRows(outcome);
        process.stdout.write(`${terminalSafe(test)}: ${rows.reduce((n, r) => n + r.n, 0)} examples\n`);
      }
      process.stdout.write(
        `Merged ${dirs.length} shards of ${merged.length} tests into ${opts.out}. Gate and report: textstress run SUITE.yaml --out ${opts.out} --resume\n`,
      );
      return;
    }
    const outcome = await mergeShards(dirs, { registry, out: opts.out, ...(opts.overwrite ? { overwrite: true } : {}) });
    await printOutcome(outcome, opts.json === true, opts.json ? [] : [`Merged ${dirs.length} shards into ${opts.out}`]);
  });
}
