import type { TopLevelSpec } from 'vega-lite';
import type { ChartSpec, LoadedRun, ReportFamily, RunGroup } from '../../recipes/report/types.ts';
import { editTypeChart, editTypeCounts, runLabel, settingNumber, settingString } from '../../recipes/report/charts.ts';

/**
 * The grammar-error family (issue 3). Contract with its runs:
 * - summary.recipe === "grammar"; summary.settings.search ∈ probabilistic | greedy | beam | genetic;
 * - edit types "grammar:<ErrorType>" (ArtOrDet, Prep, Trans, Nn, SVA, Vform, Wchoice, Worder);
 * - summary.settings.budget: the largest share of tokens the search may modify (0.15 = 15%; a value > 1 is read as %);
 * - a budget curve, in order of preference: a group's curve.json from `grammar-budget-curve`
 *   `{ search, points: [{ budget, attack_success_rate }] }` (or budget-curve.json with a search per point); else runs of one search that differ only in budget;
 *   else derived from per-example results (success within a rate r ⇔ succeeded with ≤ r of words modified;
 *   exact for greedy, a lower bound for beam/genetic), up to each run's own budget.
 */
export const GRAMMAR_ERROR_TYPES: Record<string, string> = {
  ArtOrDet: 'article / determiner',
  Prep: 'preposition',
  Trans: 'linking word',
  Nn: 'noun number',
  SVA: 'subject–verb agreement',
  Vform: 'verb form',
  Wchoice: 'word choice',
  Worder: 'word order',
};

export const SEARCH_ORDER = ['probabilistic', 'greedy', 'beam', 'genetic'];
const BUDGETS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];

interface BudgetPoint {
  search: string;
  budget: number;
  attack_success_rate: number;
  series: string;
}

const searchOf = (r: LoadedRun): string => settingString(r, 'search') ?? 'search?';

function budgetOf(r: LoadedRun): number | undefined {
  const b = settingNumber(r, 'budget');
  if (b === undefined) return undefined;
  return b > 1 ? b / 100 : b;
}

interface BudgetFile {
  search?: string;
  points: { search?: string; budget: number; attack_success_rate: number }[];
}

/** `grammar-budget-curve`'s curve.json ({ search, points }) or a budget-curve.json with a search per point. */
function isBudgetFile(x: unknown): x is BudgetFile {
  if (typeof x !== 'object' || x === null) return false;
  const pts = (x as { points?: unknown }).points;
  return (
    Array.isArray(pts) && pts.every((p) => typeof p === 'object' && p !== null && typeof (p as { budget?: unknown }).budget === 'number')
  );
}

export function budgetCurve(runs: readonly LoadedRun[], groups: readonly RunGroup[]): { points: BudgetPoint[]; derived: boolean } {
  const points: BudgetPoint[] = [];
  const mine = new Set(runs.map((r) => r.group));
  for (const g of groups) {
    for (const f of [g.files['budget-curve.json'], g.files['curve.json']]) {
      if (!mine.has(g.name) || !isBudgetFile(f)) continue;
      for (const p of f.points) {
        const search = p.search ?? f.search ?? 'search?';
        points.push({
          search,
          attack_success_rate: p.attack_success_rate,
          budget: p.budget > 1 ? p.budget / 100 : p.budget,
          series: search,
        });
      }
    }
  }
  if (points.length) return { points, derived: false };
  // Runs of one search (same model and data) at several budgets.
  const bySeries = new Map<string, LoadedRun[]>();
  for (const r of runs) {
    const key = `${searchOf(r)}\u0000${r.summary.model}\u0000${r.summary.dataset}`;
    bySeries.set(key, [...(bySeries.get(key) ?? []), r]);
  }
  const multi = [...bySeries.values()].filter((rs) => new Set(rs.map(budgetOf)).size > 1);
  if (multi.length) {
    for (const rs of multi) {
      for (const r of rs) {
        const b = budgetOf(r);
        const asr = r.summary.attack_success_rate;
        if (b !== undefined && asr !== null) points.push({ search: searchOf(r), budget: b, attack_success_rate: asr, series: searchOf(r) });
      }
    }
    return { points, derived: false };
  }
  for (const r of runs) {
    const attacked = r.profile.attacked;
    if (!attacked) continue;
    const cap = budgetOf(r) ?? BUDGETS[BUDGETS.length - 1]!;
    for (const b of BUDGETS) {
      if (b > cap + 1e-9) break;
      const ok = r.profile.successByPct.filter(([pct]) => pct <= 100 * b + 1e-9).reduce((s, [, c]) => s + c, 0);
      const series = runs.filter((x) => searchOf(x) === searchOf(r)).length > 1 ? `${searchOf(r)} (${runLabel(r)})` : searchOf(r);
      points.push({ search: searchOf(r), budget: b, attack_success_rate: ok / attacked, series });
    }
  }
  return { points, derived: true };
}

function lastOfGroup(runs: readonly LoadedRun[], group: string): LoadedRun | undefined {
  const inGroup = runs.filter((r) => r.group === group).sort((a, b) => a.name.localeCompare(b.name));
  return inGroup[inGroup.length - 1];
}

const searchSort = (s: string): number => {
  const i = SEARCH_ORDER.indexOf(s);
  return i < 0 ? SEARCH_ORDER.length : i;
};

export const grammarFamily: ReportFamily = {
  id: 'grammar',
  title: 'Grammatical errors',
  blurb:
    'Yin et al. (2020), “On the Robustness of Language Encoders against Grammatical Errors”: the eight error types of ' +
    'non-native writers, sampled (probabilistic) or searched for the worst case (greedy, beam, genetic) within a budget of modified words.',
  editTypeLabel: (t) => {
    const e = t.replace(/^grammar:/, '');
    return GRAMMAR_ERROR_TYPES[e] ? `${e} (${GRAMMAR_ERROR_TYPES[e]})` : e;
  },
  section(runs: LoadedRun[], groups: RunGroup[]) {
    const charts: ChartSpec[] = [];
    const sorted = [...runs].sort((a, b) => searchSort(searchOf(a)) - searchSort(searchOf(b)));
    const curve = budgetCurve(sorted, groups);
    if (curve.points.length) {
      const spec: TopLevelSpec = {
        data: { values: curve.points.map((p) => ({ ...p, order: searchSort(p.search) })) },
        mark: { type: 'line', point: { size: 36 }, strokeWidth: 2 },
        encoding: {
          x: {
            field: 'budget',
            type: 'quantitative',
            title: 'allowed modification rate',
            axis: { format: '.0%' },
            scale: { domain: [0.15, 0.45] },
          },
          y: {
            field: 'attack_success_rate',
            type: 'quantitative',
            title: 'attack success rate',
            axis: { format: '.0%' },
            scale: { domain: [0, 1] },
          },
          color: { field: 'series', type: 'nominal', title: 'search', sort: { field: 'order' } },
        },
      };
      charts.push({
        title: 'Success vs modification budget',
        caption: curve.derived
          ? 'Figure 1 layout, derived from per-example results: success within a rate = succeeded with at most that share ' +
            'of words modified (exact for greedy; a lower bound for beam and genetic).'
          : 'Figure 1 layout: attack success rate as the allowed share of modified words grows.',
        spec,
      });
    }
    // Search comparisons use single runs (and each budget curve's largest budget only), not every curve point.
    const curveGroups = new Set(
      groups.filter((g) => isBudgetFile(g.files['curve.json']) || isBudgetFile(g.files['budget-curve.json'])).map((g) => g.name),
    );
    const compared = sorted.filter((r) => !curveGroups.has(r.group) || r === lastOfGroup(sorted, r.group));
    const counts = editTypeCounts(compared, 'grammar:').map((c) => {
      const search = searchOf(compared.find((r) => runLabel(r) === c.run)!);
      return { ...c, search, rank: searchSort(search) };
    });
    if (counts.length) {
      const searches = [...new Set(counts.map((c) => c.search))].sort((a, b) => searchSort(a) - searchSort(b));
      charts.push(
        editTypeChart(
          'Error types in successful attacks',
          'Table 4 layout: how often each error type occurs in successful attacks, by search.',
          counts,
          'search',
          'search',
          searches,
        ),
      );
    }
    const bars = compared.map((r) => ({
      search: searchOf(r),
      run: runLabel(r),
      asr: r.summary.attack_success_rate,
      modified: r.summary.mean_perturbed_word_pct === null ? null : r.summary.mean_perturbed_word_pct / 100,
      order: searchSort(searchOf(r)),
    }));
    if (bars.length) {
      const xField = bars.length > new Set(bars.map((b) => b.search)).size ? 'run' : 'search';
      const xOrder = [...new Set(bars.map((b) => (xField === 'run' ? b.run : b.search)))];
      const spec: TopLevelSpec = {
        data: { values: bars },
        layer: [
          {
            mark: { type: 'bar', cornerRadiusEnd: 2 },
            encoding: {
              x: {
                field: xField,
                type: 'nominal',
                title: null,
                sort: xOrder,
                axis: { labelAngle: xField === 'run' ? -30 : 0, labelLimit: 160 },
              },
              y: { field: 'asr', type: 'quantitative', title: 'attack success rate', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
              color: { field: 'search', type: 'nominal', legend: null, sort: { field: 'order' } },
            },
          },
          {
            mark: { type: 'text', dy: -7, fontSize: 10, color: '#334155' },
            encoding: {
              x: { field: xField, type: 'nominal', sort: xOrder },
              y: { field: 'asr', type: 'quantitative' },
              text: { field: 'modified', type: 'quantitative', format: '.1%' },
            },
          },
        ],
      };
      charts.push({
        title: 'Success by search method',
        caption: 'Table 3 layout. Label on each bar: mean share of words modified in successful attacks.',
        spec,
      });
    }
    const headline = [...sorted].reverse().find((r) => r.summary.n > 0) ?? sorted[0];
    return { charts, runs: sorted, ...(headline ? { headline } : {}) };
  },
};
