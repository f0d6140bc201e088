import { Command } from 'commander';
import { writeHtmlReport } from '../../report/html/index.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { addFlags } from '../options.ts';
import { shortPath } from './suite.ts';

interface ReportCliOptions {
  html: string;
  baseline?: string;
  title?: string;
  maxExamples: number;
}

export function reportCommand(registry: Registry): Command {
  const cmd = new Command('report')
    .description('write one self-contained HTML report card from run folders (attack, typos-curve or run outputs)')
    .argument('<dirs...>', 'run folders, or folders holding runs');
  // The report is the one output of this command: a file name of its own (a suite writes OUT/report.html).
  addFlags(cmd, { html: { default: 'report.html' }, baseline: true });
  cmd.option('--title <text>', 'report title');
  return addFlags(cmd, { maxExamples: true }).action(async (dirs: string[], opts: ReportCliOptions) => {
    const t0 = performance.now();
    const r = await writeHtmlReport(dirs, opts.html, {
      maxExamples: opts.maxExamples,
      registry,
      ...(opts.baseline ? { baselineDir: opts.baseline } : {}),
      ...(opts.title ? { title: opts.title } : {}),
    });
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    process.stdout.write(
      `Report: ${shortPath(opts.html)} (${r.runs} runs, ${r.examples} examples, ${(r.bytes / 1024).toFixed(0)} KiB, ${secs} s)\n`,
    );
  });
}
