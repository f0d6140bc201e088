import { Command } from 'commander';
import { parseLabelMap } from '../../attack/labels.ts';
import { evaluateClean, type CleanMetrics } from '../../metrics/clean.ts';
import { goalFor } from '../../recipes/context.ts';
import { fixed, pct } from '../../util/format.ts';
import { formatTable } from '../../util/table.ts';
import { openData, openEngine, openModel, surveyExamples } from '../../runner/open.ts';
import type { DataSpec, ModelSpec, RunOptions } from '../../options/shared.ts';
import { addDataOptions, addModelOptions, addOptions } from '../options.ts';

/** What eval's flags parse to: the shared model and data options, the label map and --json. */
type EvalOptions = ModelSpec & DataSpec & Pick<RunOptions, 'labelMap' | 'json'>;

export function evalCommand(): Command {
  const cmd = new Command('eval').description('clean metrics of a model on a dataset (no attack)');
  addModelOptions(cmd);
  addDataOptions(cmd);
  addOptions(cmd, ['labelMap', 'json']);
  return cmd.action(async (opts: EvalOptions) => {
    const model = await openModel(opts);
    const engine = openEngine(model, opts);
    try {
      const data = await openData(opts);
      // The labels the file holds (CSV, JSONL fix none up front), so --label-map is checked as `attack` checks it.
      const { labels } = await surveyExamples(await openData(opts));
      const { goal } = goalFor(model.info, data.info, parseLabelMap(opts.labelMap), labels);
      const metrics = await evaluateClean(data.examples(), engine, goal);
      const report = { model: opts.model, dataset: opts.data, ...metrics, skipped_rows: data.skipped.length };
      if (opts.json) {
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
        return;
      }
      const rows: [string, string][] = [
        ['model', opts.model],
        ['dataset', opts.data],
        ['examples', String(metrics.n)],
        [accuracyName(metrics), pct(metrics.accuracy, 2)],
      ];
      if (metrics.token_accuracy !== undefined) {
        const iv = metrics.token_accuracy_interval;
        const range = iv && iv.low !== null && iv.high !== null ? ` (95% ${pct(iv.low, 2)}–${pct(iv.high, 2)})` : '';
        rows.push([`token accuracy (${metrics.tokens} words)`, `${pct(metrics.token_accuracy, 2)}${range}`]);
      }
      if (metrics.entity_f1 !== undefined) rows.push(['entity F1', fixed(metrics.entity_f1, 4)]);
      if (metrics.f1 !== undefined) rows.push(['exact match (EM)', pct(metrics.exact_match, 2)], ['F1', pct(metrics.f1, 2)]);
      for (const [label, s] of Object.entries(metrics.per_label ?? {})) {
        rows.push([`  accuracy on "${label}" (${s.n})`, `${(100 * s.accuracy).toFixed(2)}%`]);
      }
      rows.push(['wall time', `${metrics.wall_seconds.toFixed(2)} s`]);
      process.stdout.write(formatTable(rows, 'textstress · eval') + '\n');
    } finally {
      await engine.flushed();
      await model.close?.();
    }
  });
}

/** What "accuracy" counts: every entity of a sentence right (taggers), an answer overlapping a gold one (QA). */
function accuracyName(m: CleanMetrics): string {
  if (m.entity_f1 !== undefined) return 'sentences with every entity right';
  return m.f1 !== undefined ? 'answers with F1 > 0' : 'accuracy';
}
