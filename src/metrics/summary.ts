import type { ExampleResult } from '../attack/result.ts';
import { addCounts, f1, type EntityCounts } from './ner.ts';

/** The headline metrics of a run, computed from its per-example results only (so resumes agree). */
export interface RunMetrics {
  n: number;
  succeeded: number;
  failed: number;
  skipped: number;
  clean_accuracy: number;
  attacked_accuracy: number;
  /** Successes over examples the model got right before the attack (skipped ones excluded). */
  attack_success_rate: number;
  /** Mean % of words edited, over successful attacks (TextAttack's convention). */
  mean_perturbed_word_pct: number;
  /** Mean % of words edited over every attacked (non-skipped) example. */
  mean_perturbed_word_pct_all: number;
  mean_queries: number;
  cache_hit_rate: number;
  /** Accuracy when at most k edits are allowed, k = 0..max edits seen (from the search traces). */
  accuracy_by_edits: number[];
  /**
   * Of the examples the model got right and that were attacked, the share whose prediction did not change at
   * all (same label; for taggers the same tag sequence); 1 when there is none. `stability_n` is that count.
   */
  stability: number;
  stability_n: number;
  /** How often each edit type occurs in successful attacks. */
  edit_types_in_successes: Record<string, number>;
  /** How often each edit type occurs in the final texts of all attacked (non-skipped) examples. */
  edit_types_all: Record<string, number>;
  /** Skipped examples by reason (already misclassified, text the grammar tagger cannot read, …). */
  skip_reasons: Record<string, number>;
  /** NER only: corpus entity F1 before and after. */
  clean_f1?: number;
  attacked_f1?: number;
}

export function summarize(results: readonly ExampleResult[]): RunMetrics {
  const n = results.length;
  const count = (s: string): number => results.filter((r) => r.status === s).length;
  const succeeded = count('succeeded');
  const failed = count('failed');
  const skipped = count('skipped');
  const successes = results.filter((r) => r.status === 'succeeded');
  const attacked = results.filter((r) => r.status !== 'skipped');
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
  const requests = results.reduce((s, r) => s + r.requests, 0);
  const hits = results.reduce((s, r) => s + r.cache_hits, 0);

  const maxEdits = Math.max(0, ...results.flatMap((r) => r.trace.map((t) => t.edits)));
  const accuracyByEdits: number[] = [];
  for (let k = 0; k <= maxEdits; k++) {
    accuracyByEdits.push(n ? results.filter((r) => correctWithin(r, k)).length / n : 0);
  }

  const stable = stability(results);
  const editTypes: Record<string, number> = {};
  for (const r of successes) for (const e of r.edits) editTypes[e.type] = (editTypes[e.type] ?? 0) + 1;
  const editTypesAll: Record<string, number> = {};
  for (const r of attacked) for (const e of r.edits) editTypesAll[e.type] = (editTypesAll[e.type] ?? 0) + 1;
  const skipReasons: Record<string, number> = {};
  for (const r of results) {
    if (r.status === 'skipped') skipReasons[r.skip_reason ?? 'unknown'] = (skipReasons[r.skip_reason ?? 'unknown'] ?? 0) + 1;
  }

  const metrics: RunMetrics = {
    n,
    succeeded,
    failed,
    skipped,
    clean_accuracy: n ? results.filter((r) => r.original_correct).length / n : 0,
    attacked_accuracy: n ? results.filter((r) => r.perturbed_correct).length / n : 0,
    attack_success_rate: succeeded + failed ? succeeded / (succeeded + failed) : 0,
    mean_perturbed_word_pct: mean(successes.map((r) => r.perturbed_word_pct)),
    mean_perturbed_word_pct_all: mean(attacked.map((r) => r.perturbed_word_pct)),
    mean_queries: mean(results.map((r) => r.queries)),
    cache_hit_rate: requests ? hits / requests : 0,
    accuracy_by_edits: accuracyByEdits,
    stability: stable.value,
    stability_n: stable.n,
    edit_types_in_successes: editTypes,
    edit_types_all: editTypesAll,
    skip_reasons: skipReasons,
  };

  const entities = results.filter((r) => r.original_prediction.entities && r.perturbed_prediction.entities);
  if (entities.length > 0) {
    const zero: EntityCounts = { tp: 0, fp: 0, fn: 0 };
    metrics.clean_f1 = f1(entities.reduce((c, r) => addCounts(c, r.original_prediction.entities!), zero));
    metrics.attacked_f1 = f1(entities.reduce((c, r) => addCounts(c, r.perturbed_prediction.entities!), zero));
  }
  return metrics;
}

/**
 * Stability: of the examples the model got right and that were attacked, the share whose prediction did not
 * change at all under the perturbation (same label; for taggers, the same tag sequence). 1 when there is none.
 */
export function stability(results: readonly ExampleResult[]): { value: number; n: number } {
  let n = 0;
  let same = 0;
  for (const r of results) {
    if (!r.original_correct || r.status === 'skipped') continue;
    n++;
    if (samePrediction(r)) same++;
  }
  return { value: n ? same / n : 1, n };
}

function samePrediction(r: ExampleResult): boolean {
  const a = r.original_prediction;
  const b = r.perturbed_prediction;
  if (a.tags && b.tags) return a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags![i]);
  return a.label === b.label;
}

/** Was the model still right on this example when the search could make at most k edits? */
export function correctWithin(r: ExampleResult, k: number): boolean {
  if (!r.original_correct) return false;
  let correct = true;
  for (const t of r.trace) {
    if (t.edits > k) break;
    correct = t.correct;
  }
  return correct;
}
