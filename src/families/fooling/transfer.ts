/**
 * Transfer (EFSG §6.4, Figure 4): a run's fooling sentences scored by other models — each against its own T_task,
 * computed from the same training file, share and sample as the run's — as S, M and F per model. The source model
 * is scored again as the first row, so the table compares like with like.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { thresholdAt } from './efsg/index.ts';
import type { ModelAdapter } from '../../models/types.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { TextstressError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { targetScore } from './generator.ts';
import { readFoolingRun, readFoolingSentences, type FoolingRun } from './run-files.ts';
import { inputOf, readTrain, type FoolingMode } from './source.ts';
import type { TransferRow, TransferTable } from './tables.ts';

export interface TransferOptions {
  /** Model specs to score the sentences with (the run's own model is added first). */
  models: readonly string[];
  /** Training file for each model's T_task (default: the run's). */
  train?: string;
  /** Opens a model spec (the CLI resolves built-in names and --defence-free specs). */
  open(spec: string): Promise<ModelAdapter>;
  /** A query engine over an open model. */
  engine(model: ModelAdapter): QueryEngine;
}

/** The mode a run evolved in, from its details. */
function modeOf(run: FoolingRun): FoolingMode {
  const p = run.details.pair;
  return p ? { kind: 'pair', fixed: p.fixed, side: p.side, id: p.id } : { kind: 'text' };
}

/** One model's row: its T_task (as the run computed its own) and S, M, F over the sentences. */
async function scoreWith(
  spec: string,
  model: ModelAdapter,
  engine: QueryEngine,
  run: FoolingRun,
  sentences: readonly string[],
  train: string,
): Promise<TransferRow> {
  const labels = model.info.labels ?? [];
  const want = run.details.target.label.toLowerCase();
  const target = labels.findIndex((l) => l.toLowerCase() === want);
  if (target < 0)
    throw new TextstressError(
      `the model ${spec} has no class "${run.details.target.label}" (its classes: ${labels.join(', ') || 'none named'}).`,
      { hint: 'Transfer compares models with the same classes.' },
    );
  let threshold = run.settings.threshold;
  let positives: number | null = null;
  if (threshold === null) {
    const t = await readTrain(train, labels, target);
    if (t.positives.length === 0)
      throw new TextstressError(`no training example has the class "${run.details.target.label}" for ${spec}.`, { where: train });
    // The same draw as the run's init step (its rng's first use), so a sampled T_task uses the same examples.
    const picked =
      run.settings.thresholdSample > 0
        ? Rng.derive(run.seed, 'fooling', 'init').sample(t.positives, run.settings.thresholdSample)
        : t.positives;
    threshold = thresholdAt(
      (await engine.query(picked)).map((o) => targetScore(o, { index: target, label: labels[target]! })),
      run.settings.thresholdShare,
    );
    positives = picked.length;
  }
  const mode = modeOf(run);
  const scores = (await engine.query(sentences.map((s) => inputOf(mode, s)))).map((o) =>
    targetScore(o, { index: target, label: labels[target]! }),
  );
  const fooling = scores.filter((s) => s > threshold!).length;
  const n = scores.length;
  return {
    model: spec,
    threshold,
    threshold_source: run.settings.threshold === null ? 'train' : 'given',
    positives,
    n,
    mean_score: n ? scores.reduce((a, x) => a + x, 0) / n : null,
    fooling,
    fooling_fraction: n ? fooling / n : null,
  };
}

/** Scores a fooling run's sentences with its own model and every other one; models are opened and closed one at a time. */
export async function transferFooling(dir: string, opts: TransferOptions): Promise<TransferTable> {
  const run = readFoolingRun(dir);
  const sentences = await readFoolingSentences(dir);
  if (sentences.length === 0)
    throw new TextstressError(`the run in ${dir} found no fooling sentences, so there is nothing to transfer.`, {
      hint: 'Run more epochs or a larger population.',
    });
  const train = opts.train ?? run.settings.train ?? run.details.threshold.train;
  const rows: TransferRow[] = [];
  for (const spec of [run.model, ...opts.models]) {
    const model = await opts.open(spec);
    try {
      rows.push(await scoreWith(spec, model, opts.engine(model), run, sentences, train));
    } finally {
      await model.close?.();
    }
  }
  return { source_model: run.model, sentences: sentences.length, train, target: run.details.target.label, rows };
}

/**
 * Records the table with the run: transfer.json, and `details.transfer` in its summary.json (which the report
 * reads); both replaced atomically.
 */
export function saveTransfer(dir: string, table: TransferTable, file = join(dir, 'transfer.json')): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(table, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
  const summaryPath = join(dir, 'summary.json');
  const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { details: Record<string, unknown> };
  summary.details.transfer = table;
  writeFileSync(`${summaryPath}.tmp`, JSON.stringify(summary, null, 2) + '\n');
  renameSync(`${summaryPath}.tmp`, summaryPath);
}
