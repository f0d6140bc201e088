/**
 * Transfer (EFSG §6.4, Figure 4): a run's fooling sentences scored by other models as S, M and F per model. As in
 * the paper, one T is fixed for every model ("we fix them regardless of the model"): the source run's T_task, or a
 * value given. `perModel` is the other reading: each model against its own T_task, computed from the same training
 * file, share and sample as the run's. The source model is scored again as the first row, so the table compares
 * like with like. S and F carry 95% intervals over the sentences (bootstrap, Wilson).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { thresholdAt } from './efsg/index.ts';
import type { ModelAdapter } from '../../models/types.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { TextstressError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { bootstrapMean, wilson } from '../../stats/index.ts';
import { targetScore } from './generator.ts';
import { readFoolingRun, readFoolingSentences, type FoolingRun } from './run-files.ts';
import { inputOf, readTrain, type FoolingMode } from './source.ts';
import type { TransferRow, TransferTable } from './tables.ts';

export interface TransferOptions {
  /** Model specs to score the sentences with (the run's own model is added first). */
  models: readonly string[];
  /** Each model against its own T_task (default: false, one T for every model as in the paper). */
  perModel?: boolean;
  /** The one T for every model (default: the source run's T_task); not with perModel. */
  threshold?: number;
  /** Training file for each model's own T_task (perModel only; default: the run's). */
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

/** How the rows' T is set: one T for every model (`source` run's or `given`), or each model's own from `train`. */
type Threshold = { kind: 'fixed'; value: number; source: 'source' | 'given' } | { kind: 'per-model'; train: string };

/** One model's row: the T it is held to and S, M, F over the sentences, with their intervals. */
async function scoreWith(
  spec: string,
  model: ModelAdapter,
  engine: QueryEngine,
  run: FoolingRun,
  sentences: readonly string[],
  how: Threshold,
): Promise<TransferRow> {
  const labels = model.info.labels ?? [];
  const want = run.details.target.label.toLowerCase();
  const target = labels.findIndex((l) => l.toLowerCase() === want);
  if (target < 0)
    throw new TextstressError(
      `the model ${spec} has no class "${run.details.target.label}" (its classes: ${labels.join(', ') || 'none named'}).`,
      { hint: 'Transfer compares models with the same classes.' },
    );
  let threshold: number;
  let source: TransferRow['threshold_source'];
  let positives: number | null = null;
  if (how.kind === 'fixed') {
    threshold = how.value;
    source = how.source;
  } else if (run.settings.threshold !== null) {
    // The run was given its T_task, so every model gets that one too: there is nothing to compute it from.
    threshold = run.settings.threshold;
    source = 'given';
  } else {
    const t = await readTrain(how.train, labels, target);
    if (t.positives.length === 0)
      throw new TextstressError(`no training example has the class "${run.details.target.label}" for ${spec}.`, { where: how.train });
    // The same draw as the run's init step (its rng's first use), so a sampled T_task uses the same examples.
    const picked =
      run.settings.thresholdSample > 0
        ? Rng.derive(run.seed, 'fooling', 'init').sample(t.positives, run.settings.thresholdSample)
        : t.positives;
    threshold = thresholdAt(
      (await engine.query(picked)).map((o) => targetScore(o, { index: target, label: labels[target]! })),
      run.settings.thresholdShare,
    );
    source = 'train';
    positives = picked.length;
  }
  const mode = modeOf(run);
  const scores = (await engine.query(sentences.map((s) => inputOf(mode, s)))).map((o) =>
    targetScore(o, { index: target, label: labels[target]! }),
  );
  const fooling = scores.filter((s) => s > threshold).length;
  const n = scores.length;
  return {
    model: spec,
    threshold,
    threshold_source: source,
    positives,
    n,
    mean_score: n ? scores.reduce((a, x) => a + x, 0) / n : null,
    fooling,
    fooling_fraction: n ? fooling / n : null,
    // Over the sentences: every model scores the same ones, so the same scores give the same interval.
    mean_score_interval: bootstrapMean(scores, { seed: `fooling-transfer\u0001${run.seed}`, range: [0, 1] }),
    fooling_fraction_interval: wilson(fooling, n),
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
  if (opts.perModel && opts.threshold !== undefined)
    throw new TextstressError('--threshold fixes one T for every model; --per-model gives each its own. Pass one of them.');
  if (!opts.perModel && opts.train !== undefined)
    throw new TextstressError("--train sets each model's own T_task, so it needs --per-model.", {
      hint: "Without --per-model every model is held to the source run's T_task (or --threshold), as in the paper.",
    });
  const train = opts.train ?? run.settings.train ?? run.details.threshold.train;
  const how: Threshold = opts.perModel
    ? { kind: 'per-model', train }
    : opts.threshold !== undefined
      ? { kind: 'fixed', value: opts.threshold, source: 'given' }
      : { kind: 'fixed', value: run.details.threshold.value, source: 'source' };
  const rows: TransferRow[] = [];
  for (const spec of [run.model, ...opts.models]) {
    const model = await opts.open(spec);
    try {
      rows.push(await scoreWith(spec, model, opts.engine(model), run, sentences, how));
    } finally {
      await model.close?.();
    }
  }
  return {
    source_model: run.model,
    sentences: sentences.length,
    train,
    target: run.details.target.label,
    threshold_mode: how.kind,
    threshold: how.kind === 'fixed' ? how.value : null,
    rows,
  };
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
