/**
 * The probe kind: B rewritten variants of every example (e.g. every mention of a name swapped), the worst kept as
 * the result and the best beside it; D_worst and D_best written in the data's own format (the entity paper's
 * Algorithm 1). Its runs read like attack runs, so it shares the attack kind's summary, report and gate.
 */
import { probeExample } from '../../core/probe.ts';
import type { LoadedRun } from '../../recipes/report/types.ts';
import type { BuiltProbe } from '../../recipes/registry/define.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { openData } from '../../runner/open.ts';
import { subwordEnricher } from '../../runner/subwords.ts';
import { detectFormat, parseFormat } from '../../data/open.ts';
import { pct } from '../../util/format.ts';
import { attackShapedJob, attackShapedRows } from '../attack/index.ts';
import { attackGate, attackLine } from '../attack/gate.ts';
import { loadAttackRun } from '../attack/load.ts';
import { printAttackRun } from '../attack/print.ts';
import { runAttack, type ExampleWork } from '../attack/run.ts';
import { withPerExampleSetup } from '../per-example.ts';
import { defineKind } from '../types.ts';
import { writeProbeSets, type ProbeSetFiles } from './sets.ts';
import { readAttackSummary } from '../../metrics/summary-schema.ts';
import { join } from 'node:path';
import { SUMMARY_FILE } from '../../runner/per-example.ts';

const workOf = ({ probe }: BuiltProbe): ExampleWork => {
  return (example, session, rng) => probeExample(probe, example, session, rng);
};

/** Table 3's rows as a probe's summary carries them (details.table3: over D, the probed examples). */
interface Table3Line {
  n: number;
  original: { value: number | null };
  worst: { value: number | null };
  best: { value: number | null };
  stability: number | null;
}

/**
 * The suite's line for a probe run: Table 3 over D, the figures the report's card and Table 3 show (issue 34: the line
 * used to print per-example means under the same names); runs without a Table 3, the probed examples' means.
 */
function probeLine(run: LoadedRun): string {
  const p = run.summary.probe;
  if (!p) return attackLine(run);
  const details = run.summary.details as { table3?: Table3Line; measure?: string } | undefined;
  const t = details?.table3;
  if (t) {
    return (
      `Table 3 over the ${t.n} of ${run.summary.n} examples probed (D), ${details?.measure ?? 'metric'}: original ` +
      `${pct(t.original.value)}, worst ${pct(t.worst.value)}, best ${pct(t.best.value)}, stability ${pct(t.stability)}`
    );
  }
  return (
    `${p.n} probed, mean per example: original ${pct(p.original_metric)}, worst ${pct(p.worst_metric)}, best ` +
    `${pct(p.best_metric)}, stability ${pct(p.stability)}`
  );
}

/** The suite table's row of a probe run with a Table 3: its figures over D, n as "|D| of n (D)"; no success rate. */
function probeRow(run: LoadedRun): string[] | undefined {
  const t = (run.summary.details as { table3?: Table3Line } | undefined)?.table3;
  if (!t) return undefined;
  return [run.summary.recipe, `${t.n} of ${run.summary.n} (D)`, pct(t.original.value), pct(t.worst.value), '', pct(t.stability)];
}

export const PROBE_KIND = defineKind({
  kind: 'probe',
  noun: 'a probe',
  command: {
    under: 'probe',
    alsoUnder: 'attack',
    group: {
      description:
        'probe a model: B rewritten variants of every example (entities), or inside the encoder: layer probes, ' +
        'attention heads and the masked-LM cloze test for grammar errors (layers, heads, cloze)',
      plural: 'Probes',
      ask: 'name the probe to run.',
      unknown: 'probe',
      argument: '[name]',
    },
  },
  helpGroup: 'probe',
  supports: {
    resume: true,
    shard: true,
    queue: true,
    inMemory: true,
    dryRun: true,
    maxQueries: { hint: 'Leave --max-queries out for this recipe.' },
  },
  perExample: { job: attackShapedJob(workOf), mayLeaveOut: false },
  run: (ctx) =>
    withPerExampleSetup(ctx, 'probe', async ({ built: b, settings, common, dataset, data }) => {
      // A shard holds some examples only: the probe sets (the whole data, rewritten) are written by `merge`.
      let sets: ProbeSetFiles | undefined;
      const writeSets = async (resultsPath: string): Promise<void> => {
        const format = data.format ? parseFormat(data.format) : await detectFormat(data.data);
        sets = await writeProbeSets(
          ctx.req.out,
          (await openData(data)).examples(),
          readResults(resultsPath),
          format,
          dataset.info,
          resultsPath,
        );
      };
      const { summary } = await runAttack({
        ...common,
        kind: 'probe',
        settings: { ...settings, ...(ctx.req.compact ? { compact: true as const } : {}) },
        work: workOf(b),
        enrich: subwordEnricher(ctx.model),
        // Probes draw variants, they do not add edits one by one: no accuracy-by-edits curve.
        editCurve: false,
        ...(dataset.info.kind === 'qa' ? { qa: true } : {}),
        ...(b.details ? { details: b.details } : {}),
        // Written before run.json says complete, so a failure here is finished by --resume.
        ...(ctx.req.shard ? {} : { outputs: writeSets }),
      });
      if (!sets) return { kind: 'probe', recipe: ctx.def, dir: ctx.req.out, summary };
      const text = b.text?.(summary);
      return { kind: 'probe', recipe: ctx.def, dir: ctx.req.out, summary, sets, ...(text !== undefined ? { text } : {}) };
    }),
  print(outcome, opts) {
    const { sets } = outcome;
    const extra = sets ? [`D_worst: ${sets.worst}`, `D_best: ${sets.best}`] : [];
    return printAttackRun(outcome, opts, extra, { probe: true });
  },
  runRows: (outcome) => attackShapedRows(outcome),
  finished: {
    slot: 'runs',
    load: (dir, name, group, summary, opts) => loadAttackRun(dir, name, group, readAttackSummary(summary, join(dir, SUMMARY_FILE)), opts),
    gate: attackGate(probeLine, { probe: true, row: probeRow }),
  },
});
