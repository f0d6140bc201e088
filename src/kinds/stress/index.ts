/**
 * The stress kind: a fixed set of named tests per example (cases made from the example, or searched against the
 * model), tallied per test: accuracy on each test's cases and its reduction from the original accuracy on the same
 * examples.
 */
import { stressExample } from '../../attack/stress.ts';
import type { StressSummary } from '../../metrics/stress.ts';
import type { BuiltStress } from '../../recipes/registry/define.ts';
import { withPerExampleSetup } from '../per-example.ts';
import type { KindRuntime, RecipeOutcome } from '../types.ts';
import { STRESS_GATE } from './gate.ts';
import { loadStressRun } from './load.ts';
import { printStressRun } from './print.ts';
import { runStress } from './run.ts';

const summaryOf = (outcome: RecipeOutcome): StressSummary => (outcome as { summary: StressSummary }).summary;

export const STRESS_KIND: KindRuntime = {
  kind: 'stress',
  noun: 'a stress suite',
  command: { under: 'stress' },
  mapsLabels: true,
  supports: {
    resume: true,
    shard: true,
    queue: true,
    inMemory: { because: 'whose results are cases per test, not attacks', hint: 'Run it with runRecipe({ …, out }) or the CLI.' },
    dryRun: true,
    maxQueries: { hint: 'Leave --max-queries out for this recipe.' },
  },
  perExample: {
    job: (built, _model, run) => (example, session) => stressExample((built as BuiltStress).suite, example, session, run.seed),
    select: (built) => (built as BuiltStress).select?.bind(built),
    mayLeaveOut: true,
  },
  run: (ctx) =>
    withPerExampleSetup(ctx, async ({ built, settings, common }) => {
      const b = built as BuiltStress;
      const summary = await runStress({ ...common, settings, built: b });
      const text = b.text?.(summary);
      return { kind: 'stress', recipe: ctx.def, dir: ctx.req.out, summary, ...(text !== undefined ? { text } : {}) };
    }),
  print: async (outcome, opts) => printStressRun({ ...(outcome as { dir: string; text?: string }), summary: summaryOf(outcome) }, opts),
  runRows: (outcome) => [{ name: outcome.recipe.name, n: summaryOf(outcome).n, process: summaryOf(outcome).process }],
  finished: {
    slot: 'stress',
    load: (dir, name, group, summary, opts) => loadStressRun(dir, name, group, summary as unknown as StressSummary, opts),
    gate: STRESS_GATE,
  },
};
