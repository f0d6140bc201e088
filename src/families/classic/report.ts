/**
 * The classic recipes' report section: TextAttack's "Attack Results" table for every run (the figures a TextAttack
 * user compares, each with its 95% interval) and which edits the successful attacks made.
 */
import { textAttackOf, textAttackRows } from '../../metrics/textattack.ts';
import { editTypeChart, editTypeCounts, runLabel } from '../../recipes/report/charts.ts';
import type { ChartSpec, LoadedRun, ReportFamily, ReportTable } from '../../recipes/report/types.ts';

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
    return { charts, ...(table ? { tables: [table] } : {}) };
  },
};
