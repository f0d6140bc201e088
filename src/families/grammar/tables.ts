import { basename, dirname } from 'node:path';
import { GRAMMAR_ERROR_TYPES } from '../../perturb/grammar/confusion-sets.ts';
import { plainText } from '../../util/format.ts';

/** The summary fields the grammar tables read (a subset of runner's RunSummary). */
export interface GrammarRunSummary {
  recipe: string;
  model: string;
  dataset: string;
  settings: Record<string, unknown>;
  attack_success_rate: number | null;
  mean_perturbed_word_pct: number | null;
  edit_types_in_successes: Record<string, number>;
  n: number;
}

export interface Grid {
  header: string[];
  rows: string[][];
}

/** "models/demo-sst2" → "demo-sst2"; "../shared/data/sst2/dev.tsv" → "sst2/dev.tsv". */
export function shortModel(path: string): string {
  return basename(path.replace(/\/+$/, ''));
}

export function shortDataset(path: string): string {
  return `${basename(dirname(path))}/${basename(path)}`;
}

const searchOf = (s: GrammarRunSummary): string => plainText(s.settings.search ?? '?');
const pct = (x: number | null): string => (x === null ? 'n/a' : (100 * x).toFixed(1));

/**
 * The paper's Table 3: rows model × search, columns datasets; each cell "success % (mean % modified words)"
 * — success over examples the model got right, % modified over successful attacks.
 */
export function table3(runs: readonly GrammarRunSummary[]): Grid {
  const datasets = [...new Set(runs.map((r) => shortDataset(r.dataset)))];
  const order = ['probabilistic', 'greedy', 'beam', 'genetic'];
  const keys = [...new Set(runs.map((r) => `${shortModel(r.model)}\u0000${searchOf(r)}`))].sort((a, b) => {
    const [ma, sa] = a.split('\u0000') as [string, string];
    const [mb, sb] = b.split('\u0000') as [string, string];
    return ma.localeCompare(mb) || order.indexOf(sa) - order.indexOf(sb);
  });
  const rows = keys.map((key) => {
    const [model, search] = key.split('\u0000') as [string, string];
    const cells = datasets.map((d) => {
      const r = runs.find((x) => shortModel(x.model) === model && searchOf(x) === search && shortDataset(x.dataset) === d);
      return r
        ? `${pct(r.attack_success_rate)} (${r.mean_perturbed_word_pct === null ? 'n/a' : r.mean_perturbed_word_pct.toFixed(1)})`
        : '–';
    });
    return [model, search, ...cells];
  });
  return { header: ['model', 'search', ...datasets], rows };
}

/** The paper's Table 4: how often each error type occurs in successful attacks (% of their edits), per run. */
export function table4(runs: readonly GrammarRunSummary[]): Grid {
  const header = ['error type', ...runs.map((r) => `${shortModel(r.model)} ${searchOf(r)} ${shortDataset(r.dataset)}`)];
  const rows = GRAMMAR_ERROR_TYPES.map((t) => [
    t,
    ...runs.map((r) => {
      const total = Object.values(r.edit_types_in_successes).reduce((s, x) => s + x, 0);
      const n = r.edit_types_in_successes[`grammar:${t}`] ?? 0;
      return total ? `${pct(n / total)}` : '–';
    }),
  ]);
  return { header, rows };
}
