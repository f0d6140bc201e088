/** `textstress merge OUT_0 … OUT_N-1 --out OUT`: the folders of a sharded run joined into one (src/runner/merge.ts). */
import { Command } from 'commander';
import type { Registry } from '../../recipes/registry/registry.ts';
import { isSuiteFolder, mergeShards, mergeSuiteShards } from '../../runner/merge.ts';
import { stressTable, summaryTable } from '../../report/terminal.ts';

export function mergeCommand(registry: Registry): Command {
  return new Command('merge')
    .description('join the output folders of a run made in shards (--shard I/N) into the folder one process would have written')
    .argument('<dirs...>', 'the N shard folders, in any order')
    .requiredOption('-o, --out <dir>', 'output folder for the joined run')
    .option('--overwrite', 'replace a run already in --out')
    .option('--json', 'print the summary as JSON')
    .action(async (dirs: string[], opts: { out: string; overwrite?: boolean; json?: boolean }) => {
      if (dirs.length && isSuiteFolder(dirs[0]!)) {
        const merged = await mergeSuiteShards(dirs, { registry, out: opts.out, ...(opts.overwrite ? { overwrite: true } : {}) });
        for (const { test, outcome } of merged)
          if (outcome.kind === 'run' || outcome.kind === 'stress') process.stdout.write(`${test}: ${outcome.summary.n} examples\n`);
        process.stdout.write(
          `Merged ${dirs.length} shards of ${merged.length} tests into ${opts.out}. Gate and report: textstress run SUITE.yaml --out ${opts.out} --resume\n`,
        );
        return;
      }
      const outcome = await mergeShards(dirs, { registry, out: opts.out, ...(opts.overwrite ? { overwrite: true } : {}) });
      if (outcome.kind !== 'run' && outcome.kind !== 'stress') return;
      if (opts.json) process.stdout.write(JSON.stringify(outcome.summary, null, 2) + '\n');
      else
        process.stdout.write(
          (outcome.kind === 'stress' ? stressTable(outcome.summary) : summaryTable(outcome.summary)) +
            `\nMerged ${dirs.length} shards into ${opts.out}\n`,
        );
    });
}
