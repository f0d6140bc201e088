import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { parseLabelMap } from '../../core/labels.ts';
import { belowChance, belowChanceMessage, type BelowChance } from '../../metrics/chance.ts';
import { evaluateClean, type CleanMetrics } from '../../metrics/clean.ts';
import { withInterval } from '../../metrics/show.ts';
import { goalFor } from '../../recipes/context.ts';
import { lockFolder } from '../../runner/lock.ts';
import { TextstressError } from '../../util/errors.ts';
import { formatTable } from '../../util/table.ts';
import { openData, openEngine, openModel, surveyExamples } from '../../runner/open.ts';
import type { DataSpec, ModelSpec, RunOptions } from '../../options/shared.ts';
import { addDataOptions, addFlags, addModelOptions, addOptions } from '../options.ts';
import { jsonForTerminal } from '../../util/terminal.ts';

/** What eval's flags parse to: the shared model and data options, the label map, the seed and the output options. */
type EvalOptions = ModelSpec & DataSpec & Pick<RunOptions, 'labelMap' | 'json' | 'seed' | 'out' | 'overwrite'>;

/**
 * eval's summary.json (and what --json prints): the clean figures, each with its 95% interval and n, as every run's
 * summary has them — what a user reads when scoring D_worst or any data set before trusting a number.
 */
export interface EvalSummary extends CleanMetrics {
  complete: true;
  command: 'eval';
  model: string;
  dataset: string;
  /** Seed of the bootstrap intervals. */
  seed: number;
  skipped_rows: number;
  /** A classifier's accuracy far below chance: its labels swapped, or data made to fool it (D_worst). Said, not failed. */
  clean_below_chance?: BelowChance;
}

export function evalCommand(): Command {
  const cmd = new Command('eval').description(
    'clean metrics of a model on a dataset (no attack), each with its 95% interval; --out DIR writes summary.json',
  );
  addModelOptions(cmd);
  addDataOptions(cmd);
  addOptions(cmd, ['labelMap', 'seed', 'json']);
  addFlags(cmd, {
    out: { help: 'folder for summary.json (default: print only)' },
    overwrite: { help: 'replace a summary.json already in --out' },
  });
  return cmd.action(async (opts: EvalOptions) => {
    // Refused before the model opens: a folder holding a summary is replaced only when asked.
    if (opts.out && existsSync(join(opts.out, 'summary.json')) && !opts.overwrite) {
      throw new TextstressError(`${opts.out} already holds a summary.json.`, {
        hint: 'Pass --overwrite to replace it, or name another --out.',
      });
    }
    const model = await openModel(opts);
    const engine = openEngine(model, opts);
    try {
      const data = await openData(opts);
      // The labels the file holds (CSV, JSONL fix none up front), so --label-map is checked as `attack` checks it.
      const { labels } = await surveyExamples(await openData(opts));
      const { goal } = goalFor(model.info, data.info, parseLabelMap(opts.labelMap), labels);
      const seed = opts.seed ?? 0;
      const metrics = await evaluateClean(data.examples(), engine, goal, { seed });
      const summary: EvalSummary = {
        complete: true,
        command: 'eval',
        model: opts.model,
        dataset: opts.data,
        seed,
        ...metrics,
        skipped_rows: data.skipped.length,
      };
      // Said, and recorded, but no failure: eval also scores adversarial sets (D_worst), which are meant to be wrong.
      const chance = summary.per_label ? belowChance(summary.intervals.accuracy, model.info.labels?.length ?? 0) : undefined;
      if (chance) summary.clean_below_chance = chance;
      if (opts.out) writeSummary(opts.out, summary);
      if (opts.json) process.stdout.write(jsonForTerminal(summary));
      else {
        process.stdout.write(formatTable(rowsOf(summary), 'textstress · eval') + '\n');
        if (opts.out) process.stdout.write(`Results: ${join(opts.out, 'summary.json')}\n`);
      }
      if (chance) process.stderr.write(belowChanceMessage(chance, { adversarial: true }) + '\n');
    } finally {
      await engine.flushed();
      await model.close?.();
    }
  });
}

/** Writes summary.json into the folder, holding the folder's lock while it does. */
function writeSummary(out: string, summary: EvalSummary): void {
  mkdirSync(out, { recursive: true });
  const release = lockFolder(out);
  try {
    writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  } finally {
    release();
  }
}

/** The terminal table: each figure with its 95% interval and n (`80.0% [67.0–88.8] n=50`). */
function rowsOf(s: EvalSummary): [string, string][] {
  const iv = s.intervals;
  const rows: [string, string][] = [
    ['model', s.model],
    ['dataset', s.dataset],
    ['examples', String(s.n)],
    [accuracyName(s), withInterval(s.accuracy, iv.accuracy)],
  ];
  if (s.token_accuracy !== undefined) rows.push([`token accuracy (${s.tokens} words)`, withInterval(s.token_accuracy, iv.token_accuracy)]);
  if (s.entity_f1 !== undefined) {
    rows.push(
      ['entity F1', withInterval(s.entity_f1, iv.entity_f1)],
      ['entity precision', withInterval(s.entity_precision, iv.entity_precision)],
      ['entity recall', withInterval(s.entity_recall, iv.entity_recall)],
    );
  }
  if (s.f1 !== undefined) rows.push(['exact match (EM)', withInterval(s.exact_match, iv.exact_match)], ['F1', withInterval(s.f1, iv.f1)]);
  for (const [label, l] of Object.entries(s.per_label ?? {}))
    rows.push([`  accuracy on "${label}"`, withInterval(l.accuracy, l.accuracy_interval)]);
  rows.push([
    '95% intervals',
    'Wilson for shares; F1, precision, recall, token accuracy: bootstrap over examples (seed ' + String(s.seed) + ')',
  ]);
  rows.push(['wall time', `${s.wall_seconds.toFixed(2)} s`]);
  return rows;
}

/** What "accuracy" counts: every entity of a sentence right (taggers), an answer overlapping a gold one (QA). */
function accuracyName(m: CleanMetrics): string {
  if (m.entity_f1 !== undefined) return 'sentences with every entity right';
  return m.f1 !== undefined ? 'answers with F1 > 0' : 'accuracy';
}
