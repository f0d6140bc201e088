/**
 * The classic recipes' report section: TextAttack's "Attack Results" table for every run (the figures a TextAttack
 * user compares, each with its 95% interval) and which edits the successful attacks made.
 */
import { textAttackOf, textAttackRows } from '../../metrics/textattack.ts';
import { editTypeChart, editTypeCounts, runLabel } from '../../recipes/report/charts.ts';
import type { ChartSpec, LoadedRun, ReportFamily, ReportTable } from '../../recipes/report/types.ts';
import { describeResource, resourcesOf } from '../../metrics/resources.ts';
import { withInterval } from '../../metrics/show.ts';

/**
 * One row per resource of each run that recorded some (TextBugger, BAE, TextFooler): what it used, or that the
 * constraint was off or another source stood in, and why; then what the resources were asked per attacked example.
 */
export function resourcesReportTable(runs: readonly LoadedRun[]): ReportTable | undefined {
  const rows: string[][] = [];
  for (const r of runs) {
    const res = resourcesOf(r.summary.details);
    if (!res) continue;
    const run = `${runLabel(r)} (${r.summary.recipe})`;
    for (const [k, e] of res.entries)
      rows.push([run, k.replace(/_/g, ' '), e.used ? 'used' : e.instead ? 'replaced' : 'OFF', describeResource(e)]);
    for (const [k, q] of res.queries) {
      rows.push([
        run,
        `${k.replace(/_/g, ' ')} per attacked example`,
        'asked',
        withInterval(q.per_attacked_example.value, q.per_attacked_example, 'number'),
      ]);
    }
  }
  if (!rows.length) return undefined;
  return {
    title: 'Resources besides the model',
    head: ['run', 'resource', 'status', 'details'],
    rows,
    caption:
      'Word vectors, sentence encoder and masked LM as each run used them (--embeddings, --sentence-encoder, --mlm). OFF: ' +
      'the constraint was not applied, so its results are not comparable with a run that had it; replaced: another ' +
      'source of words stood in. Counts are distinct per example, as the model queries are.',
  };
}

/** One row per run of TextAttack's figures (runs written without them are left out). */
export function textAttackReportTable(runs: readonly LoadedRun[]): ReportTable | undefined {
  const rows: string[][] = [];
  let head: string[] = [];
  for (const r of runs) {
    const t = textAttackOf(r.summary.details);
    if (!t) continue;
    const cells = textAttackRows(t);
    head = ['run', ...cells.map(([k]) => k)];
    rows.push([`${runLabel(r)} (${r.summary.recipe})`, ...cells.map(([, v]) => v)]);
  }
  if (!rows.length) return undefined;
  return {
    title: 'Attack Results, as TextAttack defines them',
    head,
    rows,
    caption:
      'Figures defined as in TextAttack’s attack log (skipped = the clean prediction was already wrong; queries = every ' +
      'input sent for an attacked example, repeats included), each with its 95% interval; docs/classic.md maps them onto ' +
      'the figures of the cards above.',
  };
}

export const classicFamily: ReportFamily = {
  id: 'classic',
  title: 'Classic attacks (TextAttack recipes)',
  blurb:
    'TextAttack’s recipes in TypeScript: PWWS, DeepWordBug, TextBugger, BAE, TextFooler and CheckList, each composed ' +
    'from its paper’s transformation, constraints and search, with TextAttack’s summary figures beside ours.',
  editTypeLabel: (type) => type.replace(/^[a-z-]+:/, ''),
  section(runs) {
    const table = textAttackReportTable(runs);
    const charts: ChartSpec[] = [];
    const counts = editTypeCounts(runs, '');
    if (counts.length) {
      charts.push(
        editTypeChart(
          'Edits in successful attacks',
          'How often each kind of edit was kept, summed over the successful attacks of each run.',
          counts,
          'run',
          'run',
        ),
      );
    }
    const tables = [table, resourcesReportTable(runs)].filter((t): t is ReportTable => t !== undefined);
    return { charts, ...(tables.length ? { tables } : {}) };
  },
};
