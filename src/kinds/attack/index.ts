/**
 * The attack kind: a search edits each example until the model's answer changes (or the budget is spent); one
 * results.jsonl line per example, summary.json with accuracy before and under attack, success rate and stability.
 */
import { attackExample } from '../../core/attack.ts';
import type { RunSummary } from '../../metrics/summary.ts';
import type { BuiltAttack, BuiltProbe } from '../../recipes/registry/define.ts';
import { subwordEnricher } from '../../runner/subwords.ts';
import { withPerExampleSetup } from '../per-example.ts';
import { closeBuilt } from '../prepare.ts';
import { defineKind, type ExampleJob, type OutcomeOf, type PerExampleRuntime, type RunRow } from '../types.ts';
import { attackGate, attackLine } from './gate.ts';
import { loadAttackRun } from './load.ts';
import { printAttackRun } from './print.ts';
import { attackResult, compactResult, runAttack, type ExampleWork } from './run.ts';
import { readAttackSummary } from '../../metrics/summary-schema.ts';
import { join } from 'node:path';
import { SUMMARY_FILE } from '../../runner/per-example.ts';

const workOf = ({ attack }: BuiltAttack): ExampleWork => {
  return (example, session, rng) => attackExample(attack, example, session, rng);
};

/**
 * The per-example job of attack-shaped kinds (attacks, probes): the work seeded by the run's seed and the example's
 * id, the tokenizer's view of the edits, usage; compact when asked.
 */
export function attackShapedJob<B extends BuiltAttack | BuiltProbe>(
  work: (built: B) => ExampleWork,
): (built: B, ...rest: Parameters<PerExampleRuntime['job']> extends [unknown, ...infer R] ? R : never) => ExampleJob {
  return (built, model, run) => {
    const w = work(built);
    const enrich = subwordEnricher(model);
    return async (example, session) => {
      const r = await attackResult(w, example, session, run.seed, run.engine, enrich);
      return run.compact ? compactResult(r) : r;
    };
  };
}

/** The runs an attack-shaped outcome stands for: itself. */
export const attackShapedRows = (outcome: OutcomeOf<'attack' | 'probe'>): RunRow[] => [
  { name: outcome.recipe.name, n: outcome.summary.n, process: outcome.summary.process },
];

export const ATTACK_KIND = defineKind({
  kind: 'attack',
  noun: 'an attack',
  command: {
    under: 'attack',
    group: {
      description: 'attack a model with a recipe and write summary.json + results.jsonl',
      plural: 'Recipes',
      ask: 'name the recipe to attack with.',
      unknown: 'recipe',
      argument: '[recipe]',
    },
  },
  helpGroup: 'attack',
  supports: { resume: true, shard: true, queue: true, inMemory: true, dryRun: true, maxQueries: true },
  perExample: {
    job: attackShapedJob(workOf),
    mayLeaveOut: false,
    editCurve: (built) => built.attack.search.incremental !== false,
  },
  run: (ctx) =>
    withPerExampleSetup(ctx, 'attack', async ({ built, settings, common, dataset }) => {
      const { attack } = built;
      let summary: RunSummary;
      try {
        ({ summary } = await runAttack({
          ...common,
          settings: { ...settings, ...(ctx.req.compact ? { compact: true as const } : {}) },
          work: workOf(built),
          enrich: subwordEnricher(ctx.model),
          editCurve: attack.search.incremental !== false,
          ...(built.details ? { details: built.details } : {}),
          ...(ctx.req.maxQueries !== undefined ? { maxQueries: ctx.req.maxQueries } : {}),
          ...(dataset.info.kind === 'qa' ? { qa: true } : {}),
        }));
      } finally {
        // What the build opened (a sentence encoder, a masked LM, word vectors).
        await closeBuilt(built);
      }
      return { kind: 'attack', recipe: ctx.def, dir: ctx.req.out, summary };
    }),
  print: (outcome, opts) => printAttackRun(outcome, opts),
  runRows: (outcome) => attackShapedRows(outcome),
  finished: {
    slot: 'runs',
    load: (dir, name, group, summary, opts) => loadAttackRun(dir, name, group, readAttackSummary(summary, join(dir, SUMMARY_FILE)), opts),
    gate: attackGate(attackLine),
  },
});
