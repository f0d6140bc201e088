/**
 * The stress kind: a fixed set of named tests per example (cases made from the example, or searched against the
 * model), tallied per test: accuracy on each test's cases and its reduction from the original accuracy on the same
 * examples.
 */
import { stressExample } from '../../core/stress-suite.ts';
import { withPerExampleSetup } from '../per-example.ts';
import { defineKind } from '../types.ts';
import { STRESS_GATE } from './gate.ts';
import { loadStressRun } from './load.ts';
import { printStressRun } from './print.ts';
import { runStress } from './run.ts';
import { readStressSummary } from '../../metrics/summary-schema.ts';
import { join } from 'node:path';
import { SUMMARY_FILE } from '../../runner/per-example.ts';

export const STRESS_KIND = defineKind({
  kind: 'stress',
  noun: 'a stress suite',
  command: {
    under: 'stress',
    group: {
      description: 'run a stress-test suite: named tests per example, accuracy per test and its reduction from the original',
      plural: 'Suites',
      ask: 'name the stress suite to run.',
      unknown: 'stress suite',
      argument: '[name]',
    },
  },
  helpGroup: 'stress',
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
    job: (built, _model, run) => (example, session) => stressExample(built.suite, example, session, run.seed),
    select: (built) => built.select?.bind(built),
    mayLeaveOut: true,
  },
  run: (ctx) =>
    withPerExampleSetup(ctx, 'stress', async ({ built: b, settings, common }) => {
      const summary = await runStress({ ...common, settings, built: b });
      const text = b.text?.(summary);
      return { kind: 'stress', recipe: ctx.def, dir: ctx.req.out, summary, ...(text !== undefined ? { text } : {}) };
    }),
  print: async (outcome, opts) => printStressRun(outcome, opts),
  runRows: (outcome) => [{ name: outcome.recipe.name, n: outcome.summary.n, process: outcome.summary.process }],
  finished: {
    slot: 'stress',
    load: (dir, name, group, summary, opts) => loadStressRun(dir, name, group, readStressSummary(summary, join(dir, SUMMARY_FILE)), opts),
    gate: STRESS_GATE,
  },
});
