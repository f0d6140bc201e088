import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attack } from '../attack/attack.ts';
import type { GoalFactory } from '../attack/goal.ts';
import { parseLabelMap } from '../attack/labels.ts';
import type { ExampleResult } from '../attack/result.ts';
import type { DatasetInfo } from '../data/types.ts';
import type { ModelAdapter } from '../models/types.ts';
import { QueryEngine } from '../query/engine.ts';
import { goalFor } from '../recipes/goal-for.ts';
import { exampleLines, summaryTable } from '../report/terminal.ts';
import { runAttack, type RunSummary } from '../runner/runner.ts';
import { startProgress } from './progress.ts';
import { dataSettings, surveyExamples, openData, openModel, type DataCliOptions, type ModelCliOptions } from './setup.ts';

export interface RunCliOptions extends ModelCliOptions, DataCliOptions {
  out: string;
  seed: number;
  resume?: boolean;
  overwrite?: boolean;
  json?: boolean;
  progress?: boolean;
  concurrency?: number;
  labelMap?: string;
  /** Print nothing (used when a command runs many attacks and prints its own table). */
  quiet?: boolean;
}

/** Builds the attack once the model and data are known. */
export type AttackBuilder = (ctx: { goal: GoalFactory; model: ModelAdapter; data: DatasetInfo }) => {
  attack: Attack;
  recipe: string;
  options: Record<string, unknown>;
  enrich?: (result: ExampleResult) => Promise<void>;
};

/** Model + data + attack → resumable run in opts.out, then the terminal table (or JSON). */
export async function runRecipe(
  opts: RunCliOptions,
  build: AttackBuilder,
  shared?: { model: ModelAdapter; engine: QueryEngine },
): Promise<{ summary: RunSummary; results: ExampleResult[] }> {
  const model = shared?.model ?? (await openModel(opts));
  try {
    const engine = shared?.engine ?? new QueryEngine(model, { maxConcurrentFlushes: model.info.id.startsWith('http') ? 4 : 1 });
    const survey = await surveyExamples(await openData(opts));
    const total = survey.n;
    const data = await openData(opts);
    const goal = goalFor(model.info, data.info, parseLabelMap(opts.labelMap), survey.labels);
    const { attack, recipe, options, enrich } = build({ goal, model, data: data.info });
    const progress = startProgress(total, recipe, opts.progress !== false && !opts.quiet && !opts.json);
    let outcome;
    try {
      outcome = await runAttack({
        outDir: opts.out,
        settings: {
          recipe,
          model: opts.model,
          dataset: opts.data,
          seed: opts.seed,
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          options: { ...options, ...dataSettings(opts) },
        },
        examples: data.examples(),
        attack,
        engine,
        resume: opts.resume,
        overwrite: opts.overwrite,
        concurrency: opts.concurrency,
        enrich,
        onProgress: (done) => progress.update(done),
        skippedRows: () => data.skipped.length,
      });
    } finally {
      progress.stop();
    }
    if (data.skipped.length) {
      writeFileSync(join(opts.out, 'skipped-rows.json'), JSON.stringify(data.skipped, null, 2) + '\n');
    }
    if (!opts.quiet) {
      if (opts.json) process.stdout.write(JSON.stringify(outcome.summary, null, 2) + '\n');
      else {
        process.stdout.write(summaryTable(outcome.summary) + '\n');
        const ex = exampleLines(outcome.results);
        if (ex) process.stdout.write(ex + '\n');
        process.stdout.write(`Results: ${join(opts.out, 'summary.json')}, ${join(opts.out, 'results.jsonl')}\n`);
      }
    }
    return outcome;
  } finally {
    if (!shared) await model.close?.();
  }
}

/**
 * Adds the model tokenizer's view of each edited word (e.g. "inspire" → in ##sp ##ire vs in ##sp ##ird).
 * Words repeat across examples and an HTTP model tokenizes remotely, so each word is asked for once.
 */
export function subwordEnricher(model: ModelAdapter): ((r: ExampleResult) => Promise<void>) | undefined {
  const tokenize = model.tokenize?.bind(model);
  if (!tokenize) return undefined;
  const pieces = new Map<string, Promise<string[]>>();
  const piecesOf = (word: string): Promise<string[]> => {
    if (!word) return Promise.resolve([]);
    let p = pieces.get(word);
    if (!p) {
      if (pieces.size > 100_000) pieces.clear();
      p = tokenize(word);
      pieces.set(word, p);
      p.catch(() => pieces.delete(word));
    }
    return p;
  };
  return async (r) => {
    r.subwords = await Promise.all(
      r.edits.map(async (e) => ({
        before: e.before,
        after: e.after,
        before_pieces: await piecesOf(e.before),
        after_pieces: await piecesOf(e.after),
      })),
    );
  };
}
