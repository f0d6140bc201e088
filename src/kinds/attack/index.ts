/**
 * The attack kind: a search edits each example until the model's answer changes (or the budget is spent); one
 * results.jsonl line per example, summary.json with accuracy before and under attack, success rate and stability.
 */
import { attackExample } from '../../attack/attack.ts';
import type { RunSummary } from '../../metrics/summary.ts';
import type { Built, BuiltAttack } from '../../recipes/registry/define.ts';
import { subwordEnricher } from '../../runner/subwords.ts';
import { withPerExampleSetup } from '../per-example.ts';
import { closeBuilt } from '../prepare.ts';
import type { KindRuntime, PerExampleRuntime, RecipeOutcome } from '../types.ts';
import { attackGate, attackLine } from './gate.ts';
import { loadAttackRun } from './load.ts';
import { printAttackRun } from './print.ts';
import { attackResult, compactResult, runAttack, type ExampleWork } from './run.ts';

const workOf = (built: Built): ExampleWork => {
  const { attack } = built as BuiltAttack;
  return (example, session, rng) => attackExample(attack, example, session, rng);
};

/**
 * The per-example job of attack-shaped kinds (attacks, probes): the work seeded by the run's seed and the example's
 * id, the tokenizer's view of the edits, usage; compact when asked.
 */
export function attackShapedJob(work: (built: Built) => ExampleWork): PerExampleRuntime['job'] {
  return (built, model, run) => {
    const w = work(built);
    const enrich = subwordEnricher(model);
    return async (example, session) => {
      const r = await attackResult(w, example, session, run.seed, run.engine, enrich);
      return run.compact ? compactResult(r) : r;
    };
  };
}

/** The outcome's summary, for the kinds whose outcomes carry a RunSummary. */
export const runSummaryOf = (outcome: RecipeOutcome): RunSummary => (outcome as { summary: RunSummary }).summary;

export const ATTACK_KIND: KindRuntime = {
  kind: 'attack',
  noun: 'an attack',
  command: { under: 'attack' },
  supports: { resume: true, shard: true, queue: true, inMemory: true, dryRun: true, maxQueries: true },
  perExample: {
    job: attackShapedJob(workOf),
    mayLeaveOut: false,
    editCurve: (built) => (built as BuiltAttack).attack.search.incremental !== false,
  },
  run: (ctx) =>
    withPerExampleSetup(ctx, async ({ built, settings, common, dataset }) => {
      const { attack } = built as BuiltAttack;
      let summary: RunSummary;
      try {
        ({ summary } = await runAttack({
          ...common,
          settings: { ...settings, ...(ctx.req.compact ? { compact: true as const } : {}) },
          work: workOf(built),
          enrich: subwordEnricher(ctx.model),
          editCurve: attack.search.incremental !== false,
          ...((built as BuiltAttack).details ? { details: (built as BuiltAttack).details } : {}),
          ...(ctx.req.maxQueries !== undefined ? { maxQueries: ctx.req.maxQueries } : {}),
          ...(dataset.info.kind === 'qa' ? { qa: true } : {}),
        }));
      } finally {
        // What the build opened (a sentence encoder, a masked LM, word vectors).
        await closeBuilt(built);
      }
      return { kind: 'attack', recipe: ctx.def, dir: ctx.req.out, summary };
    }),
  print: (outcome, opts) => printAttackRun({ ...(outcome as { dir: string; text?: string }), summary: runSummaryOf(outcome) }, opts),
  runRows: (outcome) => [{ name: outcome.recipe.name, n: runSummaryOf(outcome).n, process: runSummaryOf(outcome).process }],
  finished: {
    slot: 'runs',
    load: (dir, name, group, summary, opts) => loadAttackRun(dir, name, group, summary as unknown as RunSummary, opts),
    gate: attackGate(attackLine),
  },
};
