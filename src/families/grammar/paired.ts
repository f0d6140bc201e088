/**
 * Paired tests between grammar runs on the same examples (issue 27 part 4): for two searches against one model on
 * one dataset, attack success per example (succeeded / failed; skipped examples — already misclassified, unreadable —
 * left out), the exact McNemar test on the examples only one search broke, Holm's correction over every comparison.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { holm, pairedBinary, type Interval } from '../../stats/index.ts';
import { shortDataset, shortModel, type GrammarRunSummary, type Grid } from './tables.ts';
import { plainText } from '../../util/format.ts';

/** A run's per-example outcomes: true = the attack succeeded, false = it failed (attacked examples only). */
export type Outcomes = Map<string, boolean>;

export function readOutcomes(dir: string): Outcomes {
  const out: Outcomes = new Map();
  const path = join(dir, 'results.jsonl');
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { id: string; status: string };
    if (r.status === 'succeeded' || r.status === 'failed') out.set(r.id, r.status === 'succeeded');
  }
  return out;
}

export interface PairedRow {
  model: string;
  dataset: string;
  a: string;
  b: string;
  /** Examples attacked in both runs. */
  n: number;
  a_success: Interval;
  b_success: Interval;
  only_a: number;
  only_b: number;
  p: number;
  p_holm: number | null;
}

const searchOf = (s: GrammarRunSummary): string => plainText(s.settings.search ?? '?');

/** Every pair of runs with the same model and dataset, in the order given. */
export function pairedTests(runs: readonly { summary: GrammarRunSummary; outcomes: Outcomes }[]): PairedRow[] {
  const rows: Omit<PairedRow, 'p_holm'>[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const A = runs[i]!;
      const B = runs[j]!;
      if (A.summary.model !== B.summary.model || A.summary.dataset !== B.summary.dataset) continue;
      const ids = [...A.outcomes.keys()].filter((id) => B.outcomes.has(id));
      const a = ids.map((id) => A.outcomes.get(id)!);
      const b = ids.map((id) => B.outcomes.get(id)!);
      const t = pairedBinary(a, b);
      rows.push({
        model: shortModel(A.summary.model),
        dataset: shortDataset(A.summary.dataset),
        a: searchOf(A.summary),
        b: searchOf(B.summary),
        n: t.n,
        a_success: t.a,
        b_success: t.b,
        only_a: t.onlyA,
        only_b: t.onlyB,
        p: t.p,
      });
    }
  }
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((r, k) => ({ ...r, p_holm: adjusted[k] ?? null }));
}

const pct = (iv: Interval): string =>
  iv.value === null || iv.low === null || iv.high === null
    ? 'n/a'
    : `${(100 * iv.value).toFixed(1)} [${(100 * iv.low).toFixed(1)}, ${(100 * iv.high).toFixed(1)}]`;
const pv = (p: number | null): string => (p === null ? 'n/a' : p < 0.001 ? '<0.001' : p.toFixed(3));

export function pairedGrid(rows: readonly PairedRow[]): Grid {
  return {
    header: ['model', 'dataset', 'A vs B', 'n', 'success A % [95%]', 'success B % [95%]', 'only A', 'only B', 'McNemar p', 'Holm p'],
    rows: rows.map((r) => [
      r.model,
      r.dataset,
      `${r.a} vs ${r.b}`,
      String(r.n),
      pct(r.a_success),
      pct(r.b_success),
      String(r.only_a),
      String(r.only_b),
      pv(r.p),
      pv(r.p_holm),
    ]),
  };
}
