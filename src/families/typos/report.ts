import type { TopLevelSpec } from 'vega-lite';
import type { CurveRow, TyposCurve } from './curve.ts';
import type { ChartSpec, LoadedRun, ReportFamily, RunGroup } from '../../recipes/report/types.ts';
import { ivFields } from '../../recipes/report/intervals.ts';
import { editTypeChart, editTypeCounts, runLabel, settingNumber, settingString } from '../../recipes/report/charts.ts';

function isCurve(x: unknown): x is TyposCurve {
  return typeof x === 'object' && x !== null && Array.isArray((x as TyposCurve).by_target) && Array.isArray((x as TyposCurve).by_source);
}

function curveRows(rows: readonly CurveRow[]): { k: number; accuracy: number; lo: number; hi: number; series: string; order: number }[] {
  return rows.flatMap((row, order) =>
    row.accuracy.map((a, k) => {
      const sd = row.std?.[k] ?? 0;
      return { k, accuracy: a, lo: Math.max(0, a - sd), hi: Math.min(1, a + sd), series: row.name, order };
    }),
  );
}

/** One layer of a layered chart. */
type Layer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/**
 * Accuracy against K, one line per series. Runs of one model share their first points (K = 1 and K = 3 make the same
 * first edit), so a line alone would hide under another (issue 34): each series is nudged sideways a little (at most
 * ±0.1 of a K step, said in the caption), and has its own dash and point shape. The bands (95% intervals, or ± std)
 * are filled by a scale of their own with no legend: the one legend shows the lines, in their colours, dashes and shapes.
 */
function accuracyVsK(values: Record<string, unknown>[], seriesTitle: string, band: boolean, yTitle = 'accuracy'): TopLevelSpec {
  const names = [...new Set(values.map((v) => v.series as string))];
  const step = names.length > 1 ? Math.min(0.08, 0.2 / (names.length - 1)) : 0;
  // `band` repeats `series` for the bands' fill: a field of its own, so its turned-off legend leaves the lines' one.
  const nudged = values.map((v) => ({
    ...v,
    band: v.series,
    kx: (v.k as number) + (names.indexOf(v.series as string) - (names.length - 1) / 2) * step,
  }));
  const x = { field: 'kx', type: 'quantitative', title: 'K (typos allowed per sentence)', axis: { tickMinStep: 1, format: 'd' } } as const;
  const y = { field: 'accuracy', type: 'quantitative', title: yTitle, axis: { format: '.0%' } } as const;
  const series = { field: 'series', type: 'nominal', title: seriesTitle, sort: { field: 'order' } } as const;
  const lines: Layer = {
    mark: { type: 'line', point: { size: 40, filled: true }, strokeWidth: 2 },
    encoding: { x, y: { ...y, scale: { domain: [0, 1] } }, color: series, strokeDash: series, shape: series },
  };
  if (!band) return { data: { values: nudged }, layer: [lines] };
  const bands: Layer = {
    mark: { type: 'errorband', opacity: 0.15 },
    // Its own fill scale (the same scheme and order as the lines' colours) with no legend: the legend is the lines'.
    encoding: {
      x,
      y: { field: 'lo', type: 'quantitative', title: yTitle },
      y2: { field: 'hi' },
      fill: { ...series, field: 'band', legend: null },
    },
  };
  return { data: { values: nudged }, layer: [bands, lines] };
}

/** The caption's note on the nudge, when lines were nudged. */
const NUDGED = ' Lines are nudged sideways a little so that those sharing points stay visible.';

/** What a run's accuracy_by_edits counts: accuracy (classifiers), sentences fully right (taggers), answers with F1 > 0 (QA). */
function measureOf(r: LoadedRun): string {
  if (r.summary.clean_em !== undefined) return 'answers with F1 > 0';
  if (r.summary.clean_f1 !== undefined) return 'sentences fully right';
  return 'accuracy';
}

function byMeasure(runs: readonly LoadedRun[]): Map<string, LoadedRun[]> {
  const out = new Map<string, LoadedRun[]>();
  for (const r of runs) out.set(measureOf(r), [...(out.get(measureOf(r)) ?? []), r]);
  return out;
}

export const typosFamily: ReportFamily = {
  id: 'typos',
  title: 'Keyboard typos & misspellings',
  blurb:
    'Adv-BERT (Sun et al. 2020): words ranked by how much the model relies on them, then up to K typos from six sources ' +
    '(insertion, deletion, swap, QWERTY mistype, sound-alike, human misspellings) put into the max-, min- or random-importance words.',
  editTypeLabel: (t) => t.replace(/^typo:/, ''),
  section(runs: LoadedRun[], groups: RunGroup[]) {
    const charts: ChartSpec[] = [];
    const curveGroups = groups.filter((g) => isCurve(g.files['curve.json']));
    for (const g of curveGroups) {
      const curve = g.files['curve.json'] as TyposCurve;
      const suffix = curveGroups.length > 1 ? ` — ${g.name}` : '';
      charts.push({
        title: `Accuracy vs K typos: max / min / random words${suffix}`,
        caption: `Adv-BERT Table 1 layout. ${curve.model} on ${curve.dataset}; random = mean ± std over seeds (band).${NUDGED}`,
        spec: accuracyVsK(curveRows(curve.by_target), 'typos in', true),
      });
      if (curve.by_source.length) {
        charts.push({
          title: `Accuracy by typo source${suffix}`,
          caption: `Adv-BERT Figure 2 layout: one source at a time, typos in max-importance words.${NUDGED}`,
          spec: accuracyVsK(curveRows(curve.by_source), 'source', false),
        });
      }
    }
    const inCurve = new Set(curveGroups.map((g) => g.name));
    const lone = runs.filter((r) => !inCurve.has(r.group));
    // One chart per measure: accuracy, sentences fully right (taggers) and answers with F1 > 0 (QA) are different
    // numbers and never share an axis.
    for (const [measure, members] of byMeasure(lone)) {
      const values = members.flatMap((r, order) =>
        (r.summary.accuracy_by_edits ?? []).map((accuracy, k) => {
          // The band: each point's 95% interval (Wilson), where the run has intervals.
          const iv = ivFields(r.summary.intervals?.accuracy_by_edits?.[k]);
          return {
            k,
            accuracy,
            series: `${runLabel(r)} (${settingString(r, 'target') ?? '?'}, K≤${settingNumber(r, 'k') ?? '?'})`,
            order,
            ...(iv.low !== undefined ? { lo: iv.low, hi: iv.high } : {}),
          };
        }),
      );
      if (!values.length) continue;
      const banded = values.some((v) => 'lo' in v);
      charts.push({
        title: `${measure[0]!.toUpperCase()}${measure.slice(1)} as the typo budget grows`,
        caption:
          `From each run’s search trace: ${measure} when at most K typos are allowed.${banded ? ' Band: 95% interval (Wilson).' : ''}` +
          (members.length > 1 ? NUDGED : ''),
        spec: accuracyVsK(values, 'run', banded, measure),
      });
    }
    // Curves: their target-max runs (the source- runs use one source each); plus every lone run.
    const counted = runs.filter((r) => !inCurve.has(r.group) || r.name === 'target-max');
    const counts = editTypeCounts(counted, 'typo:').map((c) => ({ ...c, run: counted.length > 5 ? 'all runs' : c.run }));
    if (counts.length) {
      charts.push(
        editTypeChart(
          'Typo sources in successful attacks',
          'How often each typo source was the one the search kept, summed over successful attacks' +
            (curveGroups.length ? ' (curves: their max-importance run).' : '.'),
          counts,
          'run',
          'run',
        ),
      );
    }
    const headline =
      curveGroups.map((g) => runs.find((r) => r.group === g.name && r.name === 'target-max')).find(Boolean) ??
      [...runs]
        .sort((a, b) => (settingNumber(b, 'k') ?? 0) - (settingNumber(a, 'k') ?? 0))
        .find((r) => settingString(r, 'target') === 'max') ??
      runs[0];
    return { charts, ...(headline ? { headline } : {}) };
  },
};
