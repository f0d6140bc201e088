import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { dryRunTable } from '../../kinds/dry-run.ts';
import { Command } from 'commander';
import { GATE_EXIT, verdictText } from '../../suite/gate.ts';
import { loadSuite } from '../../suite/load.ts';
import { runSuite, suiteTable } from '../../suite/run.ts';
import { STARTER_SUITE } from '../../suite/starter.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { TextstressError } from '../../util/errors.ts';
import { terminalSafe } from '../../util/terminal.ts';
import { addFlags, list } from '../options.ts';
import type { Shard } from '../../options/shard.ts';

interface RunSuiteCliOptions {
  out: string;
  resume?: boolean;
  overwrite?: boolean;
  baseline?: string;
  html?: string;
  limit?: number;
  progress: boolean;
  allowAuthEnv?: string[];
  allowRemote?: string[];
  dryRun?: boolean;
  queue?: string;
  blockSize?: number;
  shard?: Shard;
}

export function runCommand(registry: Registry): Command {
  const cmd = new Command('run')
    .description('run every test of a suite file into one folder, apply its gate (exit 1 on a failed check), write one report')
    .argument('<suite>', 'suite file (YAML)');
  // The help lines say what each run option means for a whole suite; the suite's output folder has a default
  // (a suite is run from its own folder, again and again, and `--resume` finds it there).
  addFlags(cmd, {
    out: { help: 'output folder (one sub-folder per test)', default: 'textstress-out' },
    resume: { help: 'continue an interrupted suite run (finished tests are kept)' },
    overwrite: { help: 'replace the results already in --out' },
    baseline: {
      help: 'output folder of another run of the suite (other model or version): compared side by side, used by "baseline" thresholds',
    },
    html: { help: 'report file (default OUT/report.html)' },
    limit: { help: 'use only the first n examples of every dataset (quick tries)' },
    progress: { help: 'no progress lines' },
    shard: {
      help: "only shard I of N of every test's examples; join the N output folders with `textstress merge`, then `run --resume` for the gate and report",
    },
    queue: { help: 'spread the per-example tests over `textstress worker --queue URL` processes through Redis (BullMQ)' },
    blockSize: true,
    dryRun: { help: "send nothing: estimate every test's requests, tokens and cost (upper bounds) against stand-in models" },
  });
  cmd.option(
    '--allow-auth-env <list>',
    "environment variables the suite's models may send as Authorization headers (others are refused; default: " +
      'TEXTSTRESS_ALLOW_AUTH_ENV, else any, announced)',
    list,
  );
  return addFlags(cmd, {
    allowRemote: { help: "URLs a model's --defence config may send texts to (its annotator model; see docs/resemble.md)" },
  }).action(async (file: string, opts: RunSuiteCliOptions) => {
    const loaded = loadSuite(file, registry);
    const fromEnv = process.env.TEXTSTRESS_ALLOW_AUTH_ENV;
    const allow = opts.allowAuthEnv ?? (fromEnv !== undefined ? list(fromEnv) : undefined);
    if (opts.dryRun) {
      const scratch = mkdtempSync(join(tmpdir(), 'textstress-dry-run-'));
      try {
        const dry = await runSuite(loaded, {
          registry,
          ...(allow ? { allowAuthEnv: allow } : {}),
          ...(opts.allowRemote ? { allowRemote: opts.allowRemote } : {}),
          out: scratch,
          overwrite: true,
          progress: opts.progress,
          dryRun: true,
          ...(opts.limit ? { limit: opts.limit } : {}),
        });
        const rows = dry.groups.flatMap((g) =>
          [...g.runs, ...g.stress].map((r) => ({
            name: g.runs.length + g.stress.length > 1 ? `${g.name}/${r.name}` : g.name,
            n: r.summary.n,
            process: r.summary.process,
          })),
        );
        process.stdout.write(dryRunTable(rows) + '\n');
        // A test the dry run could not estimate (its model or data failed to open …) is named, and fails the command.
        for (const f of dry.verdict.failed ?? []) process.stdout.write(terminalSafe(`Failed ${f.test}: ${f.reason}`) + '\n');
        if (dry.verdict.failed?.length) process.exitCode = 1;
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      return;
    }
    const outcome = await runSuite(loaded, {
      registry,
      ...(allow ? { allowAuthEnv: allow } : {}),
      ...(opts.allowRemote ? { allowRemote: opts.allowRemote } : {}),
      out: opts.out,
      resume: opts.resume,
      overwrite: opts.overwrite,
      progress: opts.progress,
      ...(opts.baseline ? { baseline: opts.baseline } : {}),
      ...(opts.html ? { html: opts.html } : {}),
      ...(opts.limit ? { limit: opts.limit } : {}),
      ...(opts.queue ? { queue: opts.queue } : {}),
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...(opts.blockSize ? { blockSize: opts.blockSize } : {}),
    });
    printOutcome(outcome, registry);
    // 0 pass, 1 a check failed, 3 inconclusive (too few examples to judge): GATE_EXIT.
    const code = GATE_EXIT[outcome.verdict.status ?? (outcome.verdict.passed ? 'pass' : 'fail')];
    if (code) process.exitCode = code;
  });
}

export function printOutcome(outcome: Awaited<ReturnType<typeof runSuite>>, registry: Registry): void {
  // Names and reasons can quote a suite file or data: control characters shown, not obeyed.
  const show = (text: string): string => terminalSafe(text, { keepLayout: true });
  const failed = outcome.verdict.failed ?? [];
  if (outcome.groups.length || failed.length) process.stdout.write(show(suiteTable(outcome.groups, registry, failed)) + '\n\n');
  for (const s of outcome.verdict.skipped ?? []) process.stdout.write(show(`Skipped ${s.test}: ${s.reason}`) + '\n');
  process.stdout.write(show(verdictText(outcome.verdict)) + '\n');
  if (outcome.report) process.stdout.write(`Report: ${shortPath(outcome.report)}\n`);
}

/** A path relative to the cwd when it lies below it, else absolute. */
export function shortPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : resolve(p);
}

export function initCommand(): Command {
  return new Command('init')
    .description('write a commented starter suite file')
    .argument('[file]', 'where to write it', 'textstress.yaml')
    .option('--force', 'replace an existing file')
    .action((file: string, opts: { force?: boolean }) => {
      if (existsSync(file) && !opts.force) {
        throw new TextstressError(`${file} already exists.`, { hint: 'Pass --force to replace it, or name another file.' });
      }
      writeFileSync(file, STARTER_SUITE);
      process.stdout.write(`Wrote ${file}. Edit the model and dataset paths, then: npx textstress run ${file}\n`);
    });
}
